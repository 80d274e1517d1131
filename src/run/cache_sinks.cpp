#include "run/cache_sinks.h"

#include <filesystem>

#include "core/error.h"
#include "io/frame_name.h"
#include "run/output_paths.h"

namespace plume {

void writeFrameGrids(const std::string& path, const FrameGrids& grids, int frame,
                     const std::string& sceneName, CacheOptions options) {
    options.sparks = grids.sparks;
    options.carryFrom = grids.carryFrom;
    if (grids.base && grids.fine)  // upres over a cache
        writeVdbFrame(path, *grids.base, *grids.fine, frame, sceneName, options);
    else if (grids.fine)  // upres inline: the velocity from the solver's islands
        writeVdbFrame(path, grids.islands, *grids.fine, frame, sceneName, options);
    else if (grids.feed)
        writeVdbFrame(path, *grids.feed, frame, sceneName, options);
    else
        throw InputError("--vdb " + path + ": error: this command writes no VDB cache");
}

CacheSink::CacheSink(std::string dir, const Scene& scene, std::string extension, std::string kind)
    : dir_(std::move(dir)),
      sceneName_(scene.name),
      extension_(std::move(extension)),
      kind_(std::move(kind)) {
    ensureWritableDir(dir_);
    // The frame's grids: their names, their voxels, their sparsity.
    if (scene.output.vdbPrecision == VdbPrecision::Exact) options_.tolerance = 0;
    options_.velocityName = scene.output.velocityName;
    options_.worldOrigin = scene.domain.origin;
}

void CacheSink::consume(const Frame& frame) {
    write(frame, frameFileName(dir_, sceneName_, frame.number, extension_));
    ++written_;
}

bool CacheSink::hasFrame(int frame) const {
    return std::filesystem::exists(frameFileName(dir_, sceneName_, frame, extension_));
}

std::string CacheSink::wrote() const { return framesTo(written_, kind_, dir_); }

VdbCacheSink::VdbCacheSink(std::string dir, const Scene& scene)
    : CacheSink(std::move(dir), scene, ".vdb", "VDB"), clock_(scene) {
    refuseUnseekableFrames(dir_, sceneName_ + "_", ".vdb", "a VDB");
    options_.halfFloats = scene.output.vdbPrecision == VdbPrecision::Half;
    options_.fps = scene.time.fps;
    options_.sootOnly = scene.smokeOnlyFromFire();
}

void VdbCacheSink::write(const Frame& frame, const std::string& path) {
    // As the renderer reads it for the frame's shutter (render/renderer.cpp).
    options_.timeScale = clock_.identity() ? 0.0 : clock_.scale(double(frame.index) / clock_.fps());
    writeFrameGrids(path, frame.grids, frame.number, sceneName_, options_);
}

NvdbCacheSink::NvdbCacheSink(std::string dir, const Scene& scene)
    : CacheSink(std::move(dir), scene, ".nvdb", "NanoVDB") {
    options_.halfFloats = false;
    options_.nvdb.codec = nvdbCodec(scene.output.nvdbCodec);
    options_.nvdb.tolerance = scene.output.nvdbTolerance;
}

void NvdbCacheSink::write(const Frame& frame, const std::string& path) {
    CacheOptions options = options_;
    options.nvdbPath = path;
    writeFrameGrids("", frame.grids, frame.number, sceneName_, options);  // "": no VDB file
}

}  // namespace plume
