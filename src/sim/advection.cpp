#include "sim/advection.h"

#include <algorithm>

#include "core/parallel.h"

namespace plume {

namespace {

// Where the fluid at pGrid was dt seconds ago (RK2 midpoint rule).
inline Vec3f traceBack(const Fields& f, Vec3f pGrid, float cellsPerMetreDt) {
    Vec3f mid = pGrid - f.velocityAt(pGrid) * (0.5f * cellsPerMetreDt);
    return pGrid - f.velocityAt(mid) * cellsPerMetreDt;
}

// Min and max of the samples a trilinear lookup at pGrid blends.
inline void stencilRange(const ScalarGrid& g, Vec3f pGrid, float& lo, float& hi) {
    Vec3f off = g.offset();
    float x = std::clamp(pGrid.x - off.x, 0.0f, float(g.nx() - 1));
    float y = std::clamp(pGrid.y - off.y, 0.0f, float(g.ny() - 1));
    float z = std::clamp(pGrid.z - off.z, 0.0f, float(g.nz() - 1));
    int i0 = int(x), j0 = int(y), k0 = int(z);
    int i1 = std::min(i0 + 1, g.nx() - 1), j1 = std::min(j0 + 1, g.ny() - 1),
        k1 = std::min(k0 + 1, g.nz() - 1);
    float a = g(i0, j0, k0), b = g(i1, j0, k0), c = g(i0, j1, k0), d = g(i1, j1, k0);
    float e = g(i0, j0, k1), f = g(i1, j0, k1), h = g(i0, j1, k1), m = g(i1, j1, k1);
    lo = std::min({a, b, c, d, e, f, h, m});
    hi = std::max({a, b, c, d, e, f, h, m});
}

}  // namespace

void advectSemiLagrangian(const Fields& velocity, const ScalarGrid& src, ScalarGrid& dst,
                          float dt) {
    const float s = dt / velocity.dx;
    const Vec3f off = src.offset();
    parallelForSlabs(src.nz(), [&](int k) {
        for (int j = 0; j < src.ny(); ++j)
            for (int i = 0; i < src.nx(); ++i) {
                Vec3f p{i + off.x, j + off.y, k + off.z};
                dst(i, j, k) = src.sample(traceBack(velocity, p, s));
            }
    });
}

void advectMacCormack(const Fields& velocity, const ScalarGrid& src, ScalarGrid& hat,
                      ScalarGrid& dst, float dt) {
    // Forward step into hat.
    advectSemiLagrangian(velocity, src, hat, dt);

    // Backward step from hat, half the error removed, clamped.
    const float s = dt / velocity.dx;
    const Vec3f off = src.offset();
    parallelForSlabs(src.nz(), [&](int k) {
        for (int j = 0; j < src.ny(); ++j)
            for (int i = 0; i < src.nx(); ++i) {
                Vec3f p{i + off.x, j + off.y, k + off.z};
                float back = hat.sample(traceBack(velocity, p, -s));
                float value = hat(i, j, k) + 0.5f * (src(i, j, k) - back);
                float lo, hi;
                stencilRange(src, traceBack(velocity, p, s), lo, hi);
                // Outside the stencil's range the correction overshot: fall
                // back to the (stable) semi-Lagrangian value.
                dst(i, j, k) = (value < lo || value > hi) ? hat(i, j, k) : value;
            }
    });
}

}  // namespace plume
