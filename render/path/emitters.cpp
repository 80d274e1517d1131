#include "render/path/emitters.h"

#include <algorithm>
#include <cmath>

#include "core/parallel.h"

namespace plume {

// Named, not anonymous: the unity build joins this file with others.
namespace emission_sampling {

// The share of a voxel's bound in its weight: enough that a voxel whose
// points are dark but whose edge glows is drawn now and then (a firefly's
// height is the total weight over this share of its bound).
constexpr float kBoundShare = 1.0f / 16.0f;

float channelSum(Vec3f c) { return c.x + c.y + c.z; }

}  // namespace emission_sampling

EmissionSampler::EmissionSampler(const Medium& medium) {
    using namespace emission_sampling;
    if (!medium.glows() || medium.empty()) return;
    const Vec3i n = medium.n(), nb = medium.blocks();

    // The blocks that glow, z slowest (the table's order for any thread count).
    std::vector<char> glows(size_t(nb.x) * nb.y * nb.z, 0);
    auto cells = [&](Vec3i block, Vec3i& lo, Vec3i& hi) {
        lo = {block.x * kBlock, block.y * kBlock, block.z * kBlock};
        hi = {std::min(n.x, lo.x + kBlock), std::min(n.y, lo.y + kBlock),
              std::min(n.z, lo.z + kBlock)};
    };
    parallelForRange(nb.z, [&](int bz0, int bz1) {
        for (int bz = bz0; bz < bz1; ++bz)
            for (int by = 0; by < nb.y; ++by)
                for (int bx = 0; bx < nb.x; ++bx) {
                    Vec3i lo, hi;
                    cells({bx, by, bz}, lo, hi);
                    glows[(size_t(bz) * nb.y + by) * nb.x + bx] =
                        medium.emissionBound(lo, hi) > 0.0f;
                }
    });
    for (int bz = 0; bz < nb.z; ++bz)
        for (int by = 0; by < nb.y; ++by)
            for (int bx = 0; bx < nb.x; ++bx)
                if (glows[(size_t(bz) * nb.y + by) * nb.x + bx]) blocks_.push_back({bx, by, bz});

    // Their voxels' weights, each block its own rows.
    std::vector<float> weight(blocks_.size() * kBlockVoxels, 0.0f);
    parallelForRange(int(blocks_.size()), [&](int b0, int b1) {
        for (int b = b0; b < b1; ++b) {
            Vec3i lo, hi;
            cells(blocks_[size_t(b)], lo, hi);
            for (int k = lo.z; k < hi.z; ++k)
                for (int j = lo.y; j < hi.y; ++j)
                    for (int i = lo.x; i < hi.x; ++i) {
                        // The light at 2^3 points of the voxel, over 8.
                        float light = 0.0f;
                        for (int s = 0; s < 8; ++s)
                            light +=
                                channelSum(medium.emission({float(i) + (s & 1 ? 0.75f : 0.25f),
                                                            float(j) + (s & 2 ? 0.75f : 0.25f),
                                                            float(k) + (s & 4 ? 0.75f : 0.25f)}));
                        const float bound = medium.emissionBound({i, j, k}, {i + 1, j + 1, k + 1});
                        const int v = ((k - lo.z) * kBlock + (j - lo.y)) * kBlock + (i - lo.x);
                        weight[size_t(b) * kBlockVoxels + size_t(v)] =
                            light / 8.0f + kBoundShare * bound;
                    }
        }
    });

    // The running sums: over the blocks, and over each block's voxels.
    double total = 0.0;
    std::vector<Vec3i> kept;
    for (size_t b = 0; b < blocks_.size(); ++b) {
        const float* w = &weight[b * kBlockVoxels];
        double blockWeight = 0.0;
        for (int v = 0; v < kBlockVoxels; ++v) blockWeight += w[v];
        if (!(blockWeight > 0.0)) continue;
        double sum = 0.0;
        for (int v = 0; v < kBlockVoxels; ++v) {
            sum += w[v];
            voxelCdf_.push_back(float(sum / blockWeight));
        }
        voxelCdf_.back() = 1.0f;
        total += blockWeight;
        kept.push_back(blocks_[b]);
        blockCdf_.push_back(total);
    }
    blocks_ = std::move(kept);
    if (!(total > 0.0)) {
        *this = EmissionSampler();
        return;
    }
    nb_ = nb;
    blockIndex_.assign(glows.size(), -1);
    for (size_t b = 0; b < blocks_.size(); ++b)
        blockIndex_[(size_t(blocks_[b].z) * nb.y + blocks_[b].y) * nb.x + blocks_[b].x] = int(b);
    double previous = 0.0;
    blockProbability_.resize(blocks_.size());
    for (size_t b = 0; b < blocks_.size(); ++b) {
        blockCdf_[b] /= total;
        blockProbability_[b] = float(blockCdf_[b] - previous);
        previous = blockCdf_[b];
    }
    blockCdf_.back() = 1.0;
    float largest = 0.0f;
    for (size_t b = 0; b < blocks_.size(); ++b) {
        const float* cdf = &voxelCdf_[b * kBlockVoxels];
        for (int v = 0; v < kBlockVoxels; ++v)
            largest =
                std::max(largest, blockProbability_[b] * (cdf[v] - (v > 0 ? cdf[v - 1] : 0.0f)));
    }
    lookupScale_ = 100.0f / largest;
}

Vec3f EmissionSampler::sample(float u0, float u1, float u2, float u3, float u4, float& pdf) const {
    // The block, then the voxel in it: the density is the product of the
    // two probabilities (a voxel is one cubic voxel).
    const size_t b =
        std::min(size_t(std::upper_bound(blockCdf_.begin(), blockCdf_.end(), double(u0)) -
                        blockCdf_.begin()),
                 blockCdf_.size() - 1);
    const float* cdf = &voxelCdf_[b * kBlockVoxels];
    const int v =
        std::min(int(std::upper_bound(cdf, cdf + kBlockVoxels, u1) - cdf), kBlockVoxels - 1);
    pdf = blockProbability_[b] * (cdf[v] - (v > 0 ? cdf[v - 1] : 0.0f));
    // Strictly inside the voxel, so that pdf(p) finds it again.
    auto inside = [](int cell, float u) {
        return std::min(float(cell) + u, std::nextafter(float(cell + 1), 0.0f));
    };
    const Vec3i& block = blocks_[b];
    return {inside(block.x * kBlock + v % kBlock, u2),
            inside(block.y * kBlock + (v / kBlock) % kBlock, u3),
            inside(block.z * kBlock + v / (kBlock * kBlock), u4)};
}

}  // namespace plume
