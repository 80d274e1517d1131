#include "render/empty_space.h"

#include "core/parallel.h"

namespace plume {

void EmptySpace::build(const ScalarGrid& density, int apron) {
    const Vec3i n{density.nx(), density.ny(), density.nz()};
    blocks_ = {(n.x + kBlockSize - 1) >> kBlockShift, (n.y + kBlockSize - 1) >> kBlockShift,
               (n.z + kBlockSize - 1) >> kBlockShift};
    blockMax_.assign(size_t(blocks_.x) * blocks_.y * blocks_.z, 0.0f);
    parallelForSlabs(blocks_.z, [&](int bk) {
        for (int bj = 0; bj < blocks_.y; ++bj)
            for (int bi = 0; bi < blocks_.x; ++bi) {
                float m = 0.0f;
                int k1 = std::min(n.z - 1, (bk + 1) * kBlockSize + apron - 1);
                int j1 = std::min(n.y - 1, (bj + 1) * kBlockSize + apron - 1);
                int i1 = std::min(n.x - 1, (bi + 1) * kBlockSize + apron - 1);
                for (int k = std::max(0, bk * kBlockSize - apron); k <= k1; ++k)
                    for (int j = std::max(0, bj * kBlockSize - apron); j <= j1; ++j)
                        for (int i = std::max(0, bi * kBlockSize - apron); i <= i1; ++i)
                            m = std::max(m, density(i, j, k));
                blockMax_[(size_t(bk) * blocks_.y + bj) * blocks_.x + bi] = m;
            }
    });
    if (apron >= 2) buildCubicReach(density);
}

void EmptySpace::buildCubicReach(const ScalarGrid& density) {
    // Cell i's lookups read cells i - 1 to i + 2 along each axis: dilate the
    // cells holding density by that window, one axis at a time.
    n_ = {density.nx(), density.ny(), density.nz()};
    const size_t cells = size_t(n_.x) * n_.y * n_.z;
    cubicReach_.resize(cells);
    scratch_.resize(cells);
    parallelForSlabs(n_.z, [&](int k) {
        for (size_t c = density.index(0, 0, k), end = c + size_t(n_.x) * n_.y; c < end; ++c)
            scratch_[c] = density[c] > kEmptyDensity;
    });
    const ptrdiff_t stride[3] = {1, n_.x, ptrdiff_t(n_.x) * n_.y};
    for (int a = 0; a < 3; ++a) {
        const std::vector<uint8_t>& from = a == 1 ? cubicReach_ : scratch_;
        std::vector<uint8_t>& to = a == 1 ? scratch_ : cubicReach_;
        parallelForSlabs(n_.z, [&](int k) {
            for (int j = 0; j < n_.y; ++j)
                for (int i = 0; i < n_.x; ++i) {
                    const int at[3] = {i, j, k};
                    const size_t c = density.index(i, j, k);
                    uint8_t any = 0;
                    for (int d = std::max(0, at[a] - 1); d <= std::min(n_[a] - 1, at[a] + 2); ++d)
                        any |= from[c + (d - at[a]) * stride[a]];
                    to[c] = any;
                }
        });
    }
}

}  // namespace plume
