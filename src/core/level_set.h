// LevelSet: a signed distance field held densely, in a shape's local metres
// (negative inside). Meshes and .vdb level sets become one of these once, at
// load time (io/scene_geometry); the solver only samples it.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/grid3.h"
#include "core/vec.h"

namespace plume {

struct LevelSet {
    Grid3<float> distance;  // samples at origin + (i, j, k) * voxelSize (offset 0)
    Vec3f origin{0.0f};     // local metres of sample (0, 0, 0)
    float voxelSize = 1.0f;
    float background = 1.0f;  // distance held beyond the narrow band, metres

    std::uint64_t bytes() const { return std::uint64_t(distance.size()) * sizeof(float); }

    Vec3f boundsMin() const { return origin; }
    Vec3f boundsMax() const {
        return origin +
               Vec3f(float(distance.nx() - 1), float(distance.ny() - 1), float(distance.nz() - 1)) *
                   voxelSize;
    }

    // Trilinear distance at pLocal. Beyond the samples the outermost one (outside
    // the shape, so positive) plus the way to the box, so far points stay far.
    float sample(Vec3f pLocal) const {
        Vec3f pGrid = (pLocal - origin) / voxelSize;
        float value = distance.sample(pGrid);
        Vec3f lo = boundsMin(), hi = boundsMax();
        Vec3f out = vmax(vmax(lo - pLocal, pLocal - hi), Vec3f(0.0f));
        return value + length(out);
    }
};

}  // namespace plume
