// [guide]'s frames (sim/guide.h) from a VDB sequence: plume's cache or
// Blender's (Mantaflow's fluid_data_####.vdb), its velocity read on its own
// voxels, placed in the scene's domain frame. OpenVDB stays behind vdb_cache.h.
#pragma once

#include <memory>

#include "scene/scene.h"
#include "sim/guide.h"

namespace plume {

// The guide scene.guide names. Throws InputError naming guide.cache when its
// sequence is missing or lacks a frame of the shot (time.start_frame on).
std::unique_ptr<GuideFrames> openGuideCache(const Scene& scene);

}  // namespace plume
