#include "run/output_sinks.h"

#include <cstdio>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/report.h"
#include "io/exr_file.h"
#include "io/frame_name.h"
#include "io/png.h"
#include "io/video_encoder.h"
#include "render/output/tone_map.h"
#include "report/stats_table.h"
#include "run/output_paths.h"

namespace plume {

double videoFps(const Scene& scene) {
    return scene.output.fps > 0 ? scene.output.fps : scene.time.fps;
}

PngSink::PngSink(std::string dir, const Scene& scene)
    : dir_(std::move(dir)),
      sceneName_(scene.name),
      // A slice view covers the frame: no background to leave out.
      transparent_(scene.render.transparent && scene.render.view == RenderView::Shaded),
      width_(scene.render.width),
      height_(scene.render.height),
      exposure_(scene.render.exposure),
      space_(workingSpace(scene)) {
    ensureWritableDir(dir_);
}

bool PngSink::hasFrame(int frame) const {
    return std::filesystem::exists(frameFileName(dir_, sceneName_, frame, ".png"));
}

PngSink::~PngSink() {
    // After an error elsewhere: the write in flight still ends whole (or
    // leaves only its temporary), and its own error is not reported twice.
    if (pending_.valid()) pending_.wait();
}

void PngSink::waitForWrite() {
    if (pending_.valid()) pending_.get();  // rethrows the write's error
}

void PngSink::consume(const Frame& frame) {
    waitForWrite();
    if (!transparent_) {
        writing_ = *frame.image;
    } else {
        // PNG holds straight alpha: the colour is un-premultiplied before the curve.
        writing_ = Image(width_, height_, 4);
        if (space_->rec709) {
            toneMapStraightAlpha(*frame.rgba, exposure_, writing_);
        } else {
            std::vector<float> rec709 = *frame.rgba;
            space_->toRec709Pixels(rec709.data(), long(width_) * height_, 4);
            toneMapStraightAlpha(rec709, exposure_, writing_);
        }
    }
    pending_ = std::async(std::launch::async,
                          [this, path = frameFileName(dir_, sceneName_, frame.number, ".png")] {
                              writePng(path, writing_);
                          });
    ++written_;
}

std::string PngSink::wrote() const { return framesTo(written_, "PNG", dir_); }

void PngSink::finish() { waitForWrite(); }

ExrSink::ExrSink(std::string dir, const Scene& scene)
    : dir_(std::move(dir)),
      sceneName_(scene.name),
      width_(scene.render.width),
      height_(scene.render.height),
      fps_(videoFps(scene)),
      exposure_(scene.render.exposure),
      chromaticities_(workingSpace(scene)->chromaticities) {
    ensureWritableDir(dir_);
    refuseUnseekableFrames(dir_, sceneName_ + "_", ".exr", "an EXR");
}

void ExrSink::consume(const Frame& frame) {
    // Render passes: a layer each (NAME.R, NAME.G, NAME.B), depth as depth.Z in full floats.
    std::vector<ExrLayer> layers;
    if (const RenderPasses* passes = frame.passes) {
        for (const PassLayer& layer : passes->layers)
            layers.push_back({layer.name, {"R", "G", "B"}, layer.rgb, true});
        if (!passes->depth.empty()) layers.push_back({"depth", {"Z"}, passes->depth, false});
        // Motion vectors as Nuke's motion layer (u, v), full floats.
        if (!passes->motion.empty())
            layers.push_back({"motion", {"u", "v"}, passes->motion, false});
    }
    writeExr(frameFileName(dir_, sceneName_, frame.number, ".exr"), width_, height_, *frame.rgba,
             frame.number, fps_, layers, chromaticities_, exposure_);
    ++written_;
}

std::string ExrSink::wrote() const { return framesTo(written_, "EXR", dir_); }

bool ExrSink::hasFrame(int frame) const {
    return std::filesystem::exists(frameFileName(dir_, sceneName_, frame, ".exr"));
}

VideoSink::VideoSink(std::string path, const Scene& scene)
    : path_(std::move(path)),
      width_(scene.render.width),
      height_(scene.render.height),
      fps_(videoFps(scene)),
      settings_(scene.output) {
    ensureWritableFile(path_, "an MP4");
    std::error_code ec;
    hadFile_ = std::filesystem::is_regular_file(path_, ec);
}

VideoSink::~VideoSink() {
    // After an error before the first frame: the encoder leaves the path alone; say so.
    if (video_ && video_->frames() == 0 && hadFile_ && !finished_)
        warn(path_ + " left as it was: no frame was finished");
}

void VideoSink::open() {
    video_ = std::make_unique<VideoEncoder>(path_, width_, height_, fps_, settings_);
}

void VideoSink::consume(const Frame& frame) { video_->add(*frame.image); }

void VideoSink::finish() {
    finished_ = true;
    video_->finish();
}

std::string VideoSink::keptOnInterrupt() const {
    const int frames = video_ ? video_->frames() : 0;
    if (frames > 0) return path_ + " holds the " + countOf(frames, "frame") + " done";
    return path_ + (hadFile_ ? " left as it was" : " not written") + " (no frame was finished)";
}

std::string VideoSink::wrote() const {
    return videoWrote(path_, video_ ? video_->frames() : 0, width_, height_);
}

StatsSink::StatsSink(std::string path) : path_(std::move(path)), rows_(statsCsvHeader()) {
    ensureWritableFile(path_);
}

std::vector<double> statsValues(const Frame& frame) {
    const FrameStats& s = frame.sim;
    return {double(frame.number),
            double(s.substeps),
            double(s.pressureIterations),
            double(s.pressureResidual),
            s.simSeconds,
            frame.renderSeconds,
            frame.writeSeconds,
            double(s.cells),
            frame.totals.smoke,
            frame.totals.fuel,
            double(frame.totals.peakSpeed),
            frame.readSeconds,
            frame.totals.sparks};
}

void StatsSink::consume(const Frame& frame) { rows_ += statsCsvLine(statsValues(frame)); }

void StatsSink::finish() { writeFileAtomically(path_, rows_); }

std::string StatsSink::wrote() const { return "the statistics to " + path_; }

}  // namespace plume
