// Empty-space skipping: the largest density each 8^3 block of cells can show
// a trilinear lookup, so a camera ray steps over a block of clear air at once
// instead of sampling it every render.step.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "core/grid3.h"
#include "core/vec.h"
#include "render/ray.h"

namespace plume {

// Below this density a cell is empty space.
constexpr float kEmptyDensity = 1e-4f;

class EmptySpace {
  public:
    // The largest density per block, with the one cell of apron a trilinear
    // lookup inside the block reaches. Keeps its storage between frames.
    void build(const ScalarGrid& density);

    // The block holding pGrid (cell units), clamped to the grid.
    Vec3i blockAt(Vec3f pGrid) const {
        return {std::clamp(int(pGrid.x) >> kBlockShift, 0, blocks_.x - 1),
                std::clamp(int(pGrid.y) >> kBlockShift, 0, blocks_.y - 1),
                std::clamp(int(pGrid.z) >> kBlockShift, 0, blocks_.z - 1)};
    }

    // True when no sample inside the block can see density.
    bool empty(Vec3i block) const {
        return blockMax_[(size_t(block.z) * blocks_.y + block.y) * blocks_.x + block.x] <=
               kEmptyDensity;
    }

    // Where the ray leaves the block through a face it runs toward, at most tMax.
    float exit(const Ray& ray, Vec3i block, float tMax) const {
        float t = tMax;
        for (int a = 0; a < 3; ++a) {
            if (std::isinf(ray.invD[a])) continue;
            float face = float((block[a] + (ray.d[a] > 0.0f ? 1 : 0)) << kBlockShift);
            t = std::min(t, (face - ray.o[a]) * ray.invD[a]);
        }
        return t;
    }

  private:
    static constexpr int kBlockShift = 3;
    static constexpr int kBlockSize = 1 << kBlockShift;

    Vec3i blocks_;
    std::vector<float> blockMax_;
};

}  // namespace plume
