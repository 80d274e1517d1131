#include "core/point_sequence.h"

#include <algorithm>

namespace plume {

namespace {

// Frames kept read: a substep reads the frame nearest its middle, so a
// frame's substeps read two, and upres after them the same two.
constexpr std::size_t kKeptFrames = 3;

}  // namespace

PointSequence::PointSequence(std::vector<File> files, bool everyFrame, Reader read)
    : files_(std::move(files)), everyFrame_(everyFrame), read_(std::move(read)) {}

const PointSequence::File* PointSequence::file(int frame) const {
    if (files_.empty()) return nullptr;
    if (everyFrame_) return &files_.front();
    const long at = long(frame) - long(files_.front().frame);
    if (at < 0 || at >= long(files_.size())) return nullptr;
    return &files_[std::size_t(at)];
}

std::shared_ptr<const PointFrame> PointSequence::points(int frame) const {
    const File* f = file(frame);
    if (!f || f->count == 0) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [which, points] : kept_)
        if (which == f) return points;
    auto points = std::make_shared<const PointFrame>(read_(f->path));
    if (kept_.size() == kKeptFrames) kept_.erase(kept_.begin());
    kept_.emplace_back(f, points);
    return points;
}

}  // namespace plume
