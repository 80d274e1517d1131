// The writer's side of io/vdb_sparks.h, for the cache writer (io/vdb_cache_write.cpp).
#pragma once

#include <openvdb/openvdb.h>

#include "core/spark.h"

namespace plume {

// The points grid of `sparks` (positions in the solver's frame, moved by
// `world` into the world), on voxels of `dx` metres; empty without sparks.
openvdb::GridBase::Ptr sparksGrid(const SparkList& sparks, Vec3f world, float dx);

}  // namespace plume
