#include "sim/upres/upres_grids.h"

#include <algorithm>
#include <cmath>

#include "core/parallel.h"

namespace plume::upres {

void copyOver(const ScalarGrid& from, const Box3i& fromBox, ScalarGrid& to, const Box3i& toBox,
              float outside) {
    const Vec3i n = toBox.size();
    to.reshape(n.x, n.y, n.z, Vec3f(0.5f));  // in the room it has, if enough
    to.fill(outside);
    const Box3i both = intersect(fromBox, toBox);
    if (both.empty() || from.size() == 0) return;
    parallelForRange(both.hi.z - both.lo.z, [&](int z0, int z1) {
        for (int z = z0; z < z1; ++z) {
            const int k = both.lo.z + z;
            for (int j = both.lo.y; j < both.hi.y; ++j) {
                const float* src =
                    &from(both.lo.x - fromBox.lo.x, j - fromBox.lo.y, k - fromBox.lo.z);
                float* dst = &to(both.lo.x - toBox.lo.x, j - toBox.lo.y, k - toBox.lo.z);
                std::copy(src, src + (both.hi.x - both.lo.x), dst);
            }
        }
    });
}

float maxAbs(const ScalarGrid& g) {
    return deterministicReduce(
        g.nz(), 0.0f,
        [&](int k) {
            float m = 0.0f;
            const float* p = &g(0, 0, k);
            for (size_t n = 0; n < g.strideZ(); ++n) m = std::max(m, std::fabs(p[n]));
            return m;
        },
        maxOf<float>);
}

Fields fineLayout(const Box3i& box, int factor, float dx, Vec3f domainOrigin, Vec3i domainCells) {
    Fields fine;
    fine.n = times(box.size(), factor);
    fine.dx = dx / float(factor);
    fine.offset = times(box.lo, factor);
    fine.domainCells = times(domainCells, factor);
    fine.origin = domainOrigin +
                  Vec3f(float(fine.offset.x), float(fine.offset.y), float(fine.offset.z)) * fine.dx;
    return fine;
}

}  // namespace plume::upres
