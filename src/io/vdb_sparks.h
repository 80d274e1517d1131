// The cache's sparks (sim/sparks.h): an OpenVDB PointDataGrid named `sparks`
// with the attributes Houdini reads from VDB points: P, v, age, temperature
// (kelvin), pscale (radius, metres), and id. OpenVDB stays behind this header.
#pragma once

#include <string>

#include "core/spark.h"
#include "core/vec.h"

namespace plume {

inline constexpr const char* kSparksGrid = "sparks";

// The sparks of a cache file, placed relative to sceneOrigin (as
// readVdbVolume places the smoke); none when the file has no `sparks` grid.
// Throws RunError for a file that cannot be read or a `sparks` grid that is
// not points.
SparkList readVdbSparks(const std::string& path, Vec3f sceneOrigin = {0, 0, 0});

}  // namespace plume
