// Direct tests of each force and each per-second rate: a known field, one
// stage, and the exact (or analytic) change it must make. Each fails when its
// stage is a no-op or scaled wrongly.
#include "sim/forces.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sim/diffusion.h"
#include "sim/emitters.h"
#include "sim/solver.h"

namespace plume {
namespace {

// A scene with nothing in it that moves the air or changes the smoke: no
// buoyancy, no confinement, no dissipation; every side as given.
Scene quietScene(Vec3f size, int resolution, Boundary sides) {
    Scene s;
    s.domain.size = size;
    s.domain.resolution = resolution;
    s.domain.boundary.fill(sides);
    s.physics.buoyancyDensity = 0;
    s.physics.buoyancyHeat = 0;
    s.physics.vorticity = 0;
    s.physics.temperatureDissipation = 0;
    s.physics.densityDissipation = 0;
    s.time.fps = 24;
    return s;
}

TEST(Buoyancy, LiftIsBetaTimesHeatAboveAmbient) {
    // Temperature 3 in air at ambient 2: one unit of heat. Every interior
    // w-face gains exactly dt * beta * (3 - 2) * |g|; boundary faces and the
    // horizontal components are left alone.
    Fields f({6, 5, 7}, 0.1f);
    f.temperature.fill(3.0f);
    PhysicsSettings p;
    p.buoyancyDensity = 0.0f;
    p.buoyancyHeat = 0.5f;
    p.ambientTemperature = 2.0f;
    p.gravity = {0, 0, -9.81f};
    const float dt = 0.04f;
    addBuoyancy(f, p, dt);
    const float lift = dt * (9.81f * (0.5f * (3.0f - 2.0f)));
    for (int k = 0; k <= f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                const bool boundary = k == 0 || k == f.n.z;
                ASSERT_FLOAT_EQ(f.w(i, j, k), boundary ? 0.0f : lift) << i << "," << j << "," << k;
            }
    for (float u : f.u.values()) ASSERT_EQ(u, 0.0f);
    for (float v : f.v.values()) ASSERT_EQ(v, 0.0f);
}

TEST(Buoyancy, DensityPullsDownByAlpha) {
    // Density 2 at ambient temperature: -dt * alpha * 2 * |g| on every interior w-face.
    Fields f({4, 4, 5}, 0.1f);
    f.density.fill(2.0f);
    f.temperature.fill(1.5f);
    PhysicsSettings p;
    p.buoyancyDensity = 0.25f;
    p.buoyancyHeat = 0.5f;
    p.ambientTemperature = 1.5f;
    const float dt = 0.02f;
    addBuoyancy(f, p, dt);
    EXPECT_FLOAT_EQ(f.w(2, 2, 2), -dt * 9.81f * 0.25f * 2.0f);
    EXPECT_EQ(f.w(2, 2, 0), 0.0f);
}

TEST(Buoyancy, FollowsATiltedGravity) {
    // Gravity along -x: heat pushes +x, on interior u-faces only.
    Fields f({5, 4, 4}, 0.1f);
    f.temperature.fill(1.0f);
    PhysicsSettings p;
    p.buoyancyDensity = 0.0f;
    p.buoyancyHeat = 1.0f;
    p.gravity = {-4.0f, 0, 0};
    addBuoyancy(f, p, 0.1f);
    EXPECT_FLOAT_EQ(f.u(2, 1, 1), 0.1f * 4.0f);
    EXPECT_EQ(f.u(0, 1, 1), 0.0f);
    EXPECT_EQ(f.w(2, 1, 2), 0.0f);
}

TEST(Wind, AirRelaxesTowardTheWindAtItsRate) {
    // From rest, after dt the air moves at wind * (1 - e^(-rate dt)), on every face.
    Fields f({4, 3, 5}, 0.1f);
    f.v.fill(1.0f);
    const Vec3f wind{2.0f, 0.0f, -1.0f};
    const float dt = 0.1f;
    addWind(f, wind, dt);
    const float blend = 1.0f - std::exp(-kWindRate * dt);
    for (float u : f.u.values()) ASSERT_FLOAT_EQ(u, 2.0f * blend);
    for (float v : f.v.values()) ASSERT_FLOAT_EQ(v, 1.0f - blend);  // decays toward 0
    for (float w : f.w.values()) ASSERT_FLOAT_EQ(w, -blend);
    // Rates are per second: ten steps of dt/10 land where one step of dt does.
    Fields g({4, 3, 5}, 0.1f);
    for (int s = 0; s < 10; ++s) addWind(g, wind, dt / 10);
    EXPECT_NEAR(g.u(1, 1, 1), 2.0f * blend, 1e-5f);
}

TEST(Wind, SolverBlowsTheSmokeDownwind) {
    // A whole solver in an open box: the physics.wind key reaches the air.
    Scene s = quietScene({1, 1, 1}, 16, Boundary::Open);
    s.physics.wind = {1.5f, 0, 0};
    Solver solver(s);
    for (int frame = 1; frame <= 3; ++frame) solver.advanceFrame(frame);
    const float t = 3.0f / 24.0f;
    EXPECT_NEAR(solver.fields().u(8, 8, 8), 1.5f * (1.0f - std::exp(-kWindRate * t)), 1e-5f);
}

// The amplitude of cos(pi z / L) in a column profile (projection onto the mode).
double cosineAmplitude(const ScalarGrid& g, int i, int j) {
    const int n = g.nz();
    double a = 0, norm = 0;
    for (int k = 0; k < n; ++k) {
        const double m = std::cos(std::numbers::pi * (k + 0.5) / n);
        a += g(i, j, k) * m, norm += m * m;
    }
    return a / norm;
}

TEST(Dissipation, DensityAndHeatDecayAsExpOfRateTimesTime) {
    // Still air, so only dissipation changes the scalars.
    Scene s = quietScene({1, 1, 1}, 12, Boundary::Wall);
    s.physics.densityDissipation = 0.8f;
    s.physics.temperatureDissipation = 2.0f;
    s.physics.ambientTemperature = 1.0f;
    Solver solver(s);
    Fields& f = solver.fields();
    f.density.fill(0.5f);
    f.temperature.fill(1.0f + 0.25f);  // 0.25 above ambient
    for (int step = 0; step < 10; ++step) solver.substep(0.025f);
    const double t = 0.25;
    EXPECT_NEAR(f.density(5, 6, 7), 0.5 * std::exp(-0.8 * t), 1e-5);
    EXPECT_NEAR(f.temperature(5, 6, 7), 1.0 + 0.25 * std::exp(-2.0 * t), 1e-5);
    EXPECT_NEAR(f.temperature(0, 0, 0), 1.0 + 0.25 * std::exp(-2.0 * t), 1e-5);
}

TEST(Diffusion, ScalarModeDecaysAtTheDiffusionRate) {
    // Density 1 + 0.5 cos(pi z / L) between zero-gradient ends: the mode's
    // amplitude falls as exp(-D k^2 t), k = pi / L; the mean stays.
    Scene s = quietScene({0.25f, 0.25f, 1}, 32, Boundary::Wall);
    s.physics.diffusion = 0.01f;
    Solver solver(s);
    Fields& f = solver.fields();
    const int n = f.n.z;
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i)
                f.density(i, j, k) =
                    1.0f + 0.5f * std::cos(float(std::numbers::pi) * (k + 0.5f) / n);
    const int steps = 20;
    const float dt = 0.05f;  // one second in all
    for (int step = 0; step < steps; ++step) solver.substep(dt);
    const double k = std::numbers::pi / 1.0;
    const double expected = 0.5 * std::exp(-0.01 * k * k * steps * dt);  // 0.452
    // Implicit Euler and the discrete Laplacian decay a little slower than
    // the continuum: within 1% of the decay, nowhere near the 0.5 of no diffusion.
    EXPECT_NEAR(cosineAmplitude(f.density, 3, 4), expected, 0.01 * (0.5 - expected) + 5e-4);
    double mean = 0;
    for (int kk = 0; kk < n; ++kk) mean += f.density(3, 4, kk);
    EXPECT_NEAR(mean / n, 1.0, 1e-5);
}

TEST(Viscosity, ShearLayerDecaysAtTheViscousRate) {
    // u = cos(pi z / L) in an open box: divergence-free, unchanged by the
    // advection along x, so only viscosity changes it.
    auto amplitudeAfter = [](float viscosity) {
        Scene s = quietScene({0.25f, 0.25f, 1}, 32, Boundary::Open);
        s.domain.boundary[kZMin] = s.domain.boundary[kZMax] = Boundary::Wall;
        s.physics.viscosity = viscosity;
        Solver solver(s);
        Fields& f = solver.fields();
        for (int k = 0; k < f.n.z; ++k)
            for (int j = 0; j < f.n.y; ++j)
                for (int i = 0; i <= f.n.x; ++i)
                    f.u(i, j, k) = 0.2f * std::cos(float(std::numbers::pi) * (k + 0.5f) / f.n.z);
        for (int step = 0; step < 20; ++step) solver.substep(0.05f);
        return cosineAmplitude(f.u, 4, 4);
    };
    EXPECT_NEAR(amplitudeAfter(0.0f), 0.2, 1e-6);
    const double k = std::numbers::pi;
    const double expected = 0.2 * std::exp(-0.02 * k * k * 1.0);  // 0.164
    EXPECT_NEAR(amplitudeAfter(0.02f), expected, 0.01 * (0.2 - expected) + 2e-4);
}

TEST(Emitters, EmitOnlyInTheirFrames) {
    Scene s = quietScene({1, 1, 1}, 16, Boundary::Wall);
    EmitterSettings e;
    e.center = {0.5f, 0.5f, 0.5f};
    e.radius = 0.2f;
    e.frames = {3, 4};
    s.emitters.push_back(e);
    Solver solver(s);
    auto densityAtCentre = [&] { return solver.fields().density(8, 8, 8); };
    solver.advanceFrame(1);
    EXPECT_EQ(densityAtCentre(), 0.0f);
    solver.advanceFrame(2);
    EXPECT_EQ(densityAtCentre(), 0.0f);
    solver.advanceFrame(3);
    EXPECT_EQ(densityAtCentre(), 1.0f);
    // After its last frame it stops: with dissipation the smoke fades instead of being renewed.
    Scene fading = s;
    fading.physics.densityDissipation = 2.0f;
    Solver later(fading);
    for (int frame = 1; frame <= 6; ++frame) later.advanceFrame(frame);
    EXPECT_LT(later.fields().density(8, 8, 8), std::exp(-2.0f * 2.0f / 24.0f) + 1e-4f);
    EXPECT_GT(later.fields().density(8, 8, 8), 0.5f);
}

}  // namespace
}  // namespace plume
