// The cache's sparks (sim/sparks.h): an OpenVDB PointDataGrid named `sparks`
// with the attributes Houdini reads from VDB points: P, v, age, temperature
// (kelvin), pscale (radius, metres), and id. OpenVDB stays behind this header.
#pragma once

#include <string>

#include "core/spark.h"
#include "core/vec.h"

namespace plume {

inline constexpr const char* kSparksGrid = "sparks";

// A cache frame's sparks file beside it: "<frame>.vdb" has "<frame>_sparks.vdb",
// the points grid `sparks` alone. The frame's own file holds volume grids
// only, so every volume reader (pyopenvdb's readAll, Blender, vdb_render)
// reads it whole; Houdini and OpenVDB's points tools read the sparks file.
std::string sparkVdbPath(const std::string& vdbPath);

// The sparks of a cache frame, placed relative to sceneOrigin (as
// readVdbVolume places the smoke): from its sparks file, or from a `sparks`
// grid in the frame's own file (as caches before the sparks file held them);
// none when there is neither. Throws RunError for a file that cannot be read
// or a `sparks` grid that is not points.
SparkList readVdbSparks(const std::string& path, Vec3f sceneOrigin = {0, 0, 0});

}  // namespace plume
