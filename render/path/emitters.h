// Points drawn where the flame glows, for the path tracer's next-event
// estimation to the fire (render/path/path_tracer.h). A voxel is drawn by its
// weight, its mean light over 2^3 points plus a share of its bound (Medium::
// emissionBound), then a point uniform in it: every point that emits has a
// density above 0, so the estimate is unbiased, and the flame's bright core
// is drawn in proportion to its light. Voxels are found through the blocks
// of 4^3 that emit (a block's running sum, then its voxels'), so a frame
// holds a table only where it burns.
//
// Points and densities in grid units (voxels; the density per cubic voxel).
#pragma once

#include <vector>

#include "core/vec.h"
#include "render/path/medium.h"

namespace plume {

class EmissionSampler {
  public:
    EmissionSampler() = default;
    explicit EmissionSampler(const Medium& medium);

    // Nothing emits (or the medium does not glow).
    bool empty() const { return blockCdf_.empty(); }

    // A point drawn from five uniforms in [0, 1), and its density.
    Vec3f sample(float u0, float u1, float u2, float u3, float u4, float& pdf) const;

    static constexpr int kBlock = 1 << Medium::kBlockShift;
    static constexpr int kBlockVoxels = kBlock * kBlock * kBlock;

  private:
    std::vector<Vec3i> blocks_;     // the blocks that emit, z slowest
    std::vector<double> blockCdf_;  // their weights' running sum over the total; the last is 1
    std::vector<float> blockProbability_;
    // kBlockVoxels a block, x fastest: the running sum within it over its
    // weight (voxels past the grid's edge weigh 0).
    std::vector<float> voxelCdf_;
};

}  // namespace plume
