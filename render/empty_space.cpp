#include "render/empty_space.h"

#include "core/parallel.h"

namespace plume {

void EmptySpace::build(const ScalarGrid& density) {
    const Vec3i n{density.nx(), density.ny(), density.nz()};
    blocks_ = {(n.x + kBlockSize - 1) >> kBlockShift, (n.y + kBlockSize - 1) >> kBlockShift,
               (n.z + kBlockSize - 1) >> kBlockShift};
    blockMax_.assign(size_t(blocks_.x) * blocks_.y * blocks_.z, 0.0f);
    parallelForSlabs(blocks_.z, [&](int bk) {
        for (int bj = 0; bj < blocks_.y; ++bj)
            for (int bi = 0; bi < blocks_.x; ++bi) {
                float m = 0.0f;
                int k1 = std::min(n.z - 1, (bk + 1) * kBlockSize);
                int j1 = std::min(n.y - 1, (bj + 1) * kBlockSize);
                int i1 = std::min(n.x - 1, (bi + 1) * kBlockSize);
                for (int k = std::max(0, bk * kBlockSize - 1); k <= k1; ++k)
                    for (int j = std::max(0, bj * kBlockSize - 1); j <= j1; ++j)
                        for (int i = std::max(0, bi * kBlockSize - 1); i <= i1; ++i)
                            m = std::max(m, density(i, j, k));
                blockMax_[(size_t(bk) * blocks_.y + bj) * blocks_.x + bi] = m;
            }
    });
}

}  // namespace plume
