// What each advection scheme keeps of a flow's kinetic energy (issue 25: the
// solver's own detail). The Taylor-Green vortex in a closed box with free-slip
// walls, u = sin x cos y, v = -cos x sin y, w = 0 on [0, pi]^2, is an exact
// steady solution of the inviscid Euler equations: every joule it loses in the
// solver is numerical dissipation, the detail a scheme smooths away.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sim/solver.h"

namespace plume {
namespace {

double kineticEnergy(const Fields& f) {
    double e = 0;
    for (const ScalarGrid* c : {&f.u, &f.v, &f.w})
        for (float v : c->values()) e += 0.5 * double(v) * v;
    return e;
}

// KE(N) / KE(0) of the vortex on 32x32 cells (two deep) after `substeps` of
// `dt` seconds: no forces, no heat, no smoke; only advection and projection.
double energyKept(AdvectionScheme scheme, int substeps = 40, float dt = 0.1f) {
    constexpr float kPi = std::numbers::pi_v<float>;
    Scene s;
    s.domain.size = {kPi, kPi, 2 * kPi / 32};
    s.domain.resolution = 32;
    s.domain.boundary.fill(Boundary::Wall);
    s.physics.vorticity = 0;
    s.physics.temperatureDissipation = 0;
    s.solver.sparse = false;  // no smoke: a sparse solve would hold no cells
    s.solver.advection = scheme;
    Solver solver(s);
    Fields& f = solver.fields();
    EXPECT_EQ(f.n, (Vec3i{32, 32, 2}));
    // Faces sampled at their centres: divergence-free on the grid, as the
    // flow is (the two differences of each cell cancel exactly).
    const float h = f.dx;
    for (int k = 0; k < f.n.z; ++k) {
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i <= f.n.x; ++i)
                f.u(i, j, k) = std::sin(i * h) * std::cos((j + 0.5f) * h);
        for (int j = 0; j <= f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i)
                f.v(i, j, k) = -std::cos((i + 0.5f) * h) * std::sin(j * h);
    }
    const double before = kineticEnergy(f);
    for (int n = 0; n < substeps; ++n) solver.substep(dt);
    return kineticEnergy(solver.fields()) / before;
}

// 40 substeps of 0.1 s (a cell a substep at the vortex's peak speed, 4 s:
// two thirds of a turnover). Measured: semi-Lagrangian keeps 0.76 of the
// energy, MacCormack 0.84, advection-reflection 0.996; the exact solution
// keeps all of it.
TEST(KineticEnergy, TaylorGreenVortexKeepsItsEnergy) {
    const double sl = energyKept(AdvectionScheme::SemiLagrangian);
    const double mc = energyKept(AdvectionScheme::MacCormack);
    const double rf = energyKept(AdvectionScheme::Reflection);
    std::printf("kinetic energy kept: semi-lagrangian %.4f, maccormack %.4f, reflection %.4f\n", sl,
                mc, rf);
    EXPECT_LT(sl, 1.0);
    EXPECT_GT(mc, sl + 0.05) << "MacCormack should keep markedly more than semi-Lagrangian";
    EXPECT_GT(1.0 - mc, 2.0 * (1.0 - rf))
        << "reflection should lose less than half MacCormack's loss";
    EXPECT_GT(mc, 0.8) << "the default scheme's floor";
    EXPECT_LE(rf, 1.001) << "no scheme may make energy";
    EXPECT_LE(mc, 1.001);
}

}  // namespace
}  // namespace plume
