// Empty-space skipping: the largest density each 8^3 block of cells can show
// a lookup, so a camera ray steps over a block of clear air at once
// instead of sampling it every render.step.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/box.h"
#include "core/grid3.h"
#include "core/vec.h"
#include "render/march/cubic.h"
#include "render/march/ray.h"

namespace plume {

// Below this density a cell is empty space.
constexpr float kEmptyDensity = 1e-4f;

class EmptySpace {
  public:
    // The largest density per block, with the apron of cells a lookup inside
    // the block reaches (1 for trilinear, 2 for the cubic B-spline, 3 where the
    // light read through the B-spline is filled block by block). Keeps its
    // storage between frames.
    // `smoke` bounds the cells above kEmptyDensity (the renderer's active
    // box; default: the whole grid): blocks and cells beyond its reach are
    // empty without being read.
    void build(const ScalarGrid& density, int apron = 1, const Box3i* smoke = nullptr);

    // The block holding pGrid (cell units), clamped to the grid.
    Vec3i blockAt(Vec3f pGrid) const {
        return {std::clamp(int(pGrid.x) >> kBlockShift, 0, blocks_.x - 1),
                std::clamp(int(pGrid.y) >> kBlockShift, 0, blocks_.y - 1),
                std::clamp(int(pGrid.z) >> kBlockShift, 0, blocks_.z - 1)};
    }

    // After build with apron 2 or more: false when the 4x4x4 cells a B-spline lookup
    // at g (a GridPoint of the density grid) reads hold no density. Most
    // samples in a block with smoke are in the air beside it, and this byte
    // is cheaper than the lookup.
    bool cubicSeesDensity(const GridPoint& g) const {
        return cubicReach_[(size_t(g.cell[2]) * n_.y + g.cell[1]) * n_.x + g.cell[0]] != 0;
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

    static constexpr int kBlockShift = 3;
    static constexpr int kBlockSize = 1 << kBlockShift;

  private:
    void buildCubicReach(const ScalarGrid& density, const Box3i& smoke);

    Vec3i blocks_;
    std::vector<float> blockMax_;
    Vec3i n_;
    std::vector<uint8_t> cubicReach_, scratch_;  // per cell (apron 2 only)
};

}  // namespace plume
