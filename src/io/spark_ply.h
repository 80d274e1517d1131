// The cache frame's sparks again, as a small binary PLY beside its VDB, for
// readers that cannot read OpenVDB points: Blender 3.4's Python has no
// pyopenvdb and its Volume object reads no points grids, so the add-on
// imports the sparks from this file (src/blender/plume_blender/sparks_import.py).
//
// "<frame>.vdb" gets "<frame>_sparks.ply": binary little-endian, one `vertex`
// element a spark with float properties x y z (world metres, as the `sparks`
// grid's P), vx vy vz (m/s), age (s), temperature (K), pscale (radius, m).
#pragma once

#include <string>

#include "core/spark.h"
#include "core/vec.h"

namespace plume {

// The PLY's path beside a cache frame's VDB path.
std::string sparkPlyPath(const std::string& vdbPath);

// Writes the sparks (positions in the solver's frame, moved by `world` into
// the world) through a temporary and a rename. Throws RunError.
void writeSparkPly(const std::string& path, const SparkList& sparks, Vec3f world);

// writeSparkPly with sparks; without (a scene with no [sparks]), removes a
// file an earlier bake left at path, so the file always matches its frame.
void syncSparkPly(const std::string& path, const SparkList* sparks, Vec3f world);

// The file `from` copied to `to` (through a temporary), or `to` removed when
// there is no `from`. Throws RunError.
void carrySparkPly(const std::string& from, const std::string& to);

}  // namespace plume
