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

#include <algorithm>
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
    // The density of drawing pGrid (inside the grid); 0 where nothing glows.
    float pdf(Vec3f pGrid) const {
        const int b = blockAt(pGrid);
        if (b < 0) return 0.0f;
        const float* cdf = &voxelCdf_[size_t(b) * kBlockVoxels];
        const int v = voxelIn(pGrid);
        return blockProbability_[size_t(b)] * (cdf[v] - (v > 0 ? cdf[v - 1] : 0.0f));
    }
    // Whether anything at pGrid (inside the grid) may glow: false where
    // emission is 0 for sure.
    bool mayGlow(Vec3f pGrid) const { return blockAt(pGrid) >= 0; }
    // The chance to look the light at pGrid up where a ray integrates it
    // (by roulette, over the chance): 1 where the voxel's density is a
    // hundredth of the brightest's or more, less in proportion below; the
    // faint wisps that fill most of a fire's blocks cost little.
    float lookupChance(Vec3f pGrid) const { return std::min(1.0f, pdf(pGrid) * lookupScale_); }

    static constexpr int kBlock = 1 << Medium::kBlockShift;
    static constexpr int kBlockVoxels = kBlock * kBlock * kBlock;

  private:
    // The index in blocks_ of the block holding pGrid, or -1.
    int blockAt(Vec3f pGrid) const {
        if (blockIndex_.empty()) return -1;
        int b[3];
        for (int a = 0; a < 3; ++a)
            b[a] = std::clamp(int(pGrid[a]) >> Medium::kBlockShift, 0, nb_[a] - 1);
        return blockIndex_[(size_t(b[2]) * nb_.y + b[1]) * nb_.x + b[0]];
    }
    // The voxel holding pGrid within its block, x fastest.
    static int voxelIn(Vec3f pGrid) {
        constexpr int kMask = kBlock - 1;
        return ((int(pGrid.z) & kMask) * kBlock + (int(pGrid.y) & kMask)) * kBlock +
               (int(pGrid.x) & kMask);
    }

    Vec3i nb_{0, 0, 0};
    std::vector<int> blockIndex_;   // every block's index in blocks_, -1 where none glows
    std::vector<Vec3i> blocks_;     // the blocks that emit, z slowest
    std::vector<double> blockCdf_;  // their weights' running sum over the total; the last is 1
    std::vector<float> blockProbability_;
    // kBlockVoxels a block, x fastest: the running sum within it over its
    // weight (voxels past the grid's edge weigh 0).
    std::vector<float> voxelCdf_;
    float lookupScale_ = 0.0f;  // 100 over the largest voxel density
};

}  // namespace plume
