#include "render/march/empty_space.h"

#include <algorithm>

#include "core/parallel.h"

namespace plume {

void EmptySpace::build(const ScalarGrid& density, int apron, const Box3i* smoke) {
    const Vec3i n{density.nx(), density.ny(), density.nz()};
    const Box3i all{{0, 0, 0}, n};
    const Box3i held = smoke ? *smoke : all;
    blocks_ = {(n.x + kBlockSize - 1) >> kBlockShift, (n.y + kBlockSize - 1) >> kBlockShift,
               (n.z + kBlockSize - 1) >> kBlockShift};
    blockMax_.assign(size_t(blocks_.x) * blocks_.y * blocks_.z, 0.0f);
    // Only the blocks whose cells, with the apron, meet the smoke's box.
    auto first = [&](int a) { return std::max(0, held.lo[a] - apron) >> kBlockShift; };
    auto last = [&](int a) {
        return std::min(blocks_[a], ((held.hi[a] + apron - 1) >> kBlockShift) + 1);
    };
    const Box3i reach{{first(0), first(1), first(2)}, {last(0), last(1), last(2)}};
    if (!held.empty())
        parallelForRange(reach.hi.z - reach.lo.z, [&](int k0, int k1) {
            for (int bk = reach.lo.z + k0; bk < reach.lo.z + k1; ++bk)
                for (int bj = reach.lo.y; bj < reach.hi.y; ++bj)
                    for (int bi = reach.lo.x; bi < reach.hi.x; ++bi) {
                        float m = 0.0f;
                        int k1c = std::min(n.z - 1, (bk + 1) * kBlockSize + apron - 1);
                        int j1 = std::min(n.y - 1, (bj + 1) * kBlockSize + apron - 1);
                        int i1 = std::min(n.x - 1, (bi + 1) * kBlockSize + apron - 1);
                        for (int k = std::max(0, bk * kBlockSize - apron); k <= k1c; ++k)
                            for (int j = std::max(0, bj * kBlockSize - apron); j <= j1; ++j)
                                for (int i = std::max(0, bi * kBlockSize - apron); i <= i1; ++i)
                                    m = std::max(m, density(i, j, k));
                        blockMax_[(size_t(bk) * blocks_.y + bj) * blocks_.x + bi] = m;
                    }
        });
    if (apron >= 2) buildCubicReach(density, held);
}

void EmptySpace::buildCubicReach(const ScalarGrid& density, const Box3i& smoke) {
    // Cell i's lookups read cells i - 1 to i + 2 along each axis: dilate the
    // cells holding density by that window, one axis at a time, over the
    // smoke's box and the two cells below and one above it that reach into
    // it; every other cell reaches none.
    n_ = {density.nx(), density.ny(), density.nz()};
    const size_t cells = size_t(n_.x) * n_.y * n_.z;
    cubicReach_.assign(cells, 0);
    scratch_.assign(cells, 0);
    if (smoke.empty()) return;
    auto lo = [&](int a) { return std::max(0, smoke.lo[a] - 2); };
    auto hi = [&](int a) { return std::min(n_[a], smoke.hi[a] + 1); };
    const Box3i box{{lo(0), lo(1), lo(2)}, {hi(0), hi(1), hi(2)}};
    parallelForRange(box.hi.z - box.lo.z, [&](int k0, int k1) {
        for (int k = box.lo.z + k0; k < box.lo.z + k1; ++k)
            for (int j = box.lo.y; j < box.hi.y; ++j)
                for (size_t c = density.index(box.lo.x, j, k), end = c + (box.hi.x - box.lo.x);
                     c < end; ++c)
                    scratch_[c] = density[c] > kEmptyDensity;
    });
    const ptrdiff_t stride[3] = {1, n_.x, ptrdiff_t(n_.x) * n_.y};
    const int width = box.hi.x - box.lo.x;
    for (int a = 0; a < 3; ++a) {
        const std::vector<uint8_t>& from = a == 1 ? cubicReach_ : scratch_;
        std::vector<uint8_t>& to = a == 1 ? scratch_ : cubicReach_;
        parallelForRange(box.hi.z - box.lo.z, [&](int k0, int k1) {
            for (int k = box.lo.z + k0; k < box.lo.z + k1; ++k)
                for (int j = box.lo.y; j < box.hi.y; ++j) {
                    const size_t row = density.index(box.lo.x, j, k);
                    uint8_t* out = &to[row];
                    const uint8_t* in = &from[row];
                    if (a == 0) {
                        // Along the row: its four neighbours, clamped at the grid's ends.
                        for (int i = box.lo.x; i < box.hi.x; ++i) {
                            uint8_t any = 0;
                            for (int d = std::max(0, i - 1); d <= std::min(n_.x - 1, i + 2); ++d)
                                any |= in[d - box.lo.x];
                            out[i - box.lo.x] = any;
                        }
                        continue;
                    }
                    // Across rows: the same neighbour rows for the whole row,
                    // or'ed a row at a time (the compiler's vector loop).
                    const int at = a == 1 ? j : k;
                    std::fill(out, out + width, uint8_t(0));
                    for (int d = std::max(0, at - 1); d <= std::min(n_[a] - 1, at + 2); ++d) {
                        const uint8_t* other = in + (d - at) * stride[a];
                        for (int i = 0; i < width; ++i) out[i] |= other[i];
                    }
                }
        });
    }
}

}  // namespace plume
