// Upres's input from a cache frame read back (plume upres): what the inline
// upres takes from the solver's islands, taken from the file instead. From an
// exact cache (output.vdb_precision = "exact") these are the very floats the
// solver handed the inline upres, so the two give the same fine grids.
#pragma once

#include "io/vdb_cache.h"
#include "sim/upres/upres.h"

namespace plume {

// The frame's base scalars and cell-centred velocity over the box it held
// (0 outside it, as between a sparse solve's islands), placed as the file
// places them, relative to the world point sceneOrigin (the scene's
// domain.origin: upres works in the domain's frame, as the solver). The frame
// must be a base cache (upresFactor 1).
void assignFromCache(UpresInput& in, const CacheFrame& frame, Vec3f sceneOrigin = {0, 0, 0});

}  // namespace plume
