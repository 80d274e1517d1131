// What io's readers of plume's VDB cache share (vdb_cache_read.cpp reads a
// volume to render and a file's metadata, vdb_cache_frame.cpp a whole frame):
// placing voxels, copying grids dense, telling Mantaflow's velocity from
// plume's. io-private, as vdb_private.h: OpenVDB stays behind io's public headers.
#pragma once

#include <openvdb/openvdb.h>
#include <openvdb/tools/Dense.h>

#include <string>

#include "core/grid3.h"
#include "core/vec.h"
#include "io/vdb_private.h"

namespace plume::vdb {

using DenseFloat = openvdb::tools::Dense<float, openvdb::tools::LayoutXYZ>;
using DenseVec3 = openvdb::tools::Dense<openvdb::Vec3s, openvdb::tools::LayoutXYZ>;

// The voxels of n cells from index 0, and of a box of the domain that starts at cell `offset`.
openvdb::CoordBBox cellBox(int nx, int ny, int nz);
openvdb::CoordBBox cellBox(Vec3i offset, int nx, int ny, int nz);

// Position of the min corner of voxel 'c', for cell-centred data, relative
// to the world point `from` (in double, then rounded once).
Vec3f cellCorner(const openvdb::math::Transform& xform, const openvdb::Coord& c,
                 Vec3f from = {0, 0, 0});

// The voxel size to render with: x's. Throws RunError for a transform plume cannot render.
float uniformVoxelSize(const openvdb::GridBase& grid, const std::string& path);

// Warns about placements plume can only approximate: voxels that are not
// cubes, a rotated grid.
void warnApproximatePlacement(const openvdb::GridBase& grid, const std::string& path);

// The voxels readVdbVolume makes dense: the active box, or for an empty frame
// one clear voxel.
openvdb::CoordBBox renderedBox(const openvdb::CoordBBox& active);

// Copies 'grid' over 'box' into a dense x-fastest array.
void copyBox(const openvdb::FloatGrid& grid, const openvdb::CoordBBox& box, ScalarGrid& out);

// Samples 'grid' at the voxel centres of 'box' in 'target's index space: the
// same voxels when the transforms agree, trilinear resampling otherwise.
void sampleOnto(const openvdb::FloatGrid& grid, const openvdb::math::Transform& target,
                const openvdb::CoordBBox& box, ScalarGrid& out);
// The same for a vector grid, one ScalarGrid a component.
void sampleOnto(const openvdb::Vec3SGrid& grid, const openvdb::math::Transform& target,
                const openvdb::CoordBBox& box, ScalarGrid (&out)[3]);

// Mantaflow's colour channels (color_r, _g, _b: premultiplied by density).
inline constexpr const char* kMantaflowColorNames[] = {"color_r", "color_g", "color_b"};
bool hasMantaflowColor(Reader& file);

// The metadata `name` of type MetaT, else `fallback`.
template <typename T, typename MetaT>
T metaOr(const openvdb::MetaMap& meta, const char* name, T fallback) {
    auto m = meta.getMetadata<MetaT>(name);
    return m ? T(m->value()) : fallback;
}

// How a velocity grid's values become plume's m/s at cell centres: Blender's
// Mantaflow writes its velocity as it holds it, staggered and in cells per
// Mantaflow time unit (vdb_cache_read.cpp says how that comes to m/s).
struct ForeignVelocity {
    float scale = 1.0f;      // to m/s
    bool staggered = false;  // face values, not cell-centred
};
// For a velocity grid of voxels dx metres wide.
ForeignVelocity foreignVelocity(const openvdb::GridBase& velocity, float dx);

}  // namespace plume::vdb
