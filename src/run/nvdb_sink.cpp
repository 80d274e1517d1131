#include "run/nvdb_sink.h"

#include <filesystem>

#include "core/report.h"
#include "io/frame_name.h"
#include "run/frame_source.h"
#include "run/output_paths.h"

namespace plume {

NvdbCacheSink::NvdbCacheSink(std::string dir, const Scene& scene)
    : dir_(std::move(dir)), sceneName_(scene.name) {
    ensureWritableDir(dir_);
    // The VDB frame's grids: its names, its voxels, its sparsity.
    options_.halfFloats = false;
    if (scene.output.vdbPrecision == VdbPrecision::Exact) options_.tolerance = 0;
    options_.velocityName = scene.output.velocityName;
    options_.worldOrigin = scene.domain.origin;
    options_.nvdb.codec = nvdbCodec(scene.output.nvdbCodec);
    options_.nvdb.tolerance = scene.output.nvdbTolerance;
}

void NvdbCacheSink::consume(const Frame& frame) {
    CacheOptions options = options_;
    options.nvdbPath = frameFileName(dir_, sceneName_, frame.number, ".nvdb");
    frame.source->writeVdb("", frame, sceneName_, options);  // "": no VDB file
    ++written_;
}

bool NvdbCacheSink::hasFrame(int frame) const {
    return std::filesystem::exists(frameFileName(dir_, sceneName_, frame, ".nvdb"));
}

std::string NvdbCacheSink::wrote() const {
    if (written_ == 0) return {};
    return countOf(written_, "NanoVDB frame") + " to " + dir_ + (dir_.ends_with('/') ? "" : "/");
}

}  // namespace plume
