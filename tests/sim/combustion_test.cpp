// Fire: fuel burns when hot, into heat, smoke, expansion and flame, at rates
// per second that do not depend on the substep.
#include <gtest/gtest.h>

#include <cmath>

#include "core/parallel.h"
#include "io/solver_state.h"
#include "sim/combustion.h"
#include "sim/pressure/projection.h"
#include "sim/solver.h"
#include "support/run.h"

namespace plume {
namespace {

Fields fuelBox(float fuel, float temperature) {
    Fields f({8, 8, 8}, 0.1f);
    f.enableFire();
    f.fuel.fill(fuel);
    f.temperature.fill(temperature);
    return f;
}

double sum(const ScalarGrid& g) {
    double s = 0;
    for (float v : g.values()) s += v;
    return s;
}

TEST(Combustion, FuelBelowIgnitionDoesNotBurn) {
    PhysicsSettings p;
    p.ignitionTemperature = 0.5f;
    Fields f = fuelBox(1.0f, 0.49f);
    f.flame.fill(1.0f);
    EXPECT_EQ(burn(f, p, 0.05f), 0.0);
    EXPECT_EQ(sum(f.fuel), 512.0);
    EXPECT_EQ(sum(f.density), 0.0);
    EXPECT_EQ(sum(f.expansion), 0.0);
    EXPECT_NEAR(f.flame(3, 3, 3), std::exp(-p.flameCooling * 0.05f), 1e-6f);  // cooling only
}

TEST(Combustion, BurntFuelBecomesSmokeHeatAndExpansion) {
    PhysicsSettings p;
    p.burnRate = 4.0f;
    p.flameSmoke = 0.5f;
    p.flameHeat = 3.0f;
    p.flameExpansion = 2.0f;
    Fields f = fuelBox(0.8f, 1.0f);
    const float dt = 0.02f;
    const double burnt = burn(f, p, dt);
    const double expected = 512 * 0.8 * (1.0 - std::exp(-4.0 * dt));
    EXPECT_NEAR(burnt, expected, 1e-4 * expected);
    // What went is what was made, per unit, cell by cell.
    const float used = 0.8f - f.fuel(2, 2, 2);
    EXPECT_NEAR(f.density(2, 2, 2), p.flameSmoke * used, 1e-6f);
    EXPECT_NEAR(f.temperature(2, 2, 2) - 1.0f, p.flameHeat * used, 1e-6f);
    EXPECT_NEAR(f.expansion(2, 2, 2), p.flameExpansion * used / dt, 1e-4f);
    EXPECT_NEAR(sum(f.density), p.flameSmoke * burnt, 1e-4);
    EXPECT_EQ(f.flame(2, 2, 2), 0.8f);  // the burning fuel's amount
}

TEST(Combustion, RatesDoNotDependOnTheSubstep) {
    PhysicsSettings p;
    p.flameHeat = 0.0f;  // keep the temperature (and the ignition) fixed
    Fields one = fuelBox(1.0f, 1.0f), ten = fuelBox(1.0f, 1.0f);
    burn(one, p, 0.1f);
    for (int s = 0; s < 10; ++s) burn(ten, p, 0.01f);
    EXPECT_NEAR(one.fuel(1, 1, 1), std::exp(-p.burnRate * 0.1f), 1e-6f);
    EXPECT_NEAR(ten.fuel(1, 1, 1), one.fuel(1, 1, 1), 1e-6f);
    EXPECT_NEAR(ten.density(1, 1, 1), one.density(1, 1, 1), 1e-6f);
}

TEST(Combustion, FlameCoolsAtItsRate) {
    PhysicsSettings p;
    p.flameCooling = 5.0f;
    Fields f = fuelBox(0.0f, 2.0f);
    f.flame.fill(1.0f);
    for (int s = 0; s < 20; ++s) burn(f, p, 0.01f);
    EXPECT_NEAR(f.flame(4, 4, 4), std::exp(-5.0f * 0.2f), 1e-5f);
}

TEST(Combustion, ExpansionIsTheDivergenceTheProjectionKeeps) {
    Fields f({16, 16, 16}, 0.05f);
    f.enableFire();
    for (int k = 6; k < 10; ++k)
        for (int j = 6; j < 10; ++j)
            for (int i = 6; i < 10; ++i) f.expansion(i, j, k) = 3.0f;  // 1/s
    Projection projection(f.n, {Boundary::Open, Boundary::Open, Boundary::Open, Boundary::Open,
                                Boundary::Open, Boundary::Open},
                          {}, PressureMethod::MGPCG);
    projection.project(f, 0.02f, 1e-6f, 200);
    auto divergence = [&](int i, int j, int k) {
        return ((f.u(i + 1, j, k) - f.u(i, j, k)) + (f.v(i, j + 1, k) - f.v(i, j, k)) +
                (f.w(i, j, k + 1) - f.w(i, j, k))) /
               f.dx;
    };
    EXPECT_NEAR(divergence(7, 7, 7), 3.0f, 1e-3f);
    EXPECT_NEAR(divergence(2, 2, 2), 0.0f, 1e-3f);
    // The gas flows outward from the burning block.
    EXPECT_GT(f.u(10, 8, 8), 0.0f);
    EXPECT_LT(f.u(6, 8, 8), 0.0f);
}

// A hot emitter of fuel in a small open box.
Scene campfire(float fuel) {
    Scene s;
    s.domain.size = {1.0f, 1.0f, 1.5f};
    s.domain.resolution = 24;
    s.domain.boundary.fill(Boundary::Open);
    s.domain.boundary[kZMin] = Boundary::Wall;
    s.solver.sparse = false;  // the tests read the fields in the domain's cells
    EmitterSettings e;
    e.shape = Shape::Box;
    e.center = {0.5f, 0.5f, 0.1f};
    e.size = {0.4f, 0.2f, 0.1f};
    e.density = 0.0f;
    e.temperature = 1.0f;
    e.fuel = fuel;
    s.emitters = {e};
    return s;
}

TEST(Combustion, HotFlamesRise) {
    auto rise = [](float fuel) {
        Solver solver(campfire(fuel));
        for (int frame = 1; frame <= 12; ++frame) solver.advanceFrame(frame);
        const Fields& f = solver.fields();
        double w = 0;
        // The column above the emitter (dx = 1.5 m / 24: cells 8, 8).
        for (int k = 3; k < 20; ++k) w += f.w(8, 8, k);
        return std::pair(w, f.burns() ? sum(f.flame) : 0.0);
    };
    const auto [plain, none] = rise(0.0f);
    const auto [burning, flame] = rise(1.0f);
    EXPECT_EQ(none, 0.0);  // no fuel: no fire grids at all
    EXPECT_GT(flame, 1.0);
    EXPECT_GT(burning, 1.3 * plain);  // the heat of burning lifts it faster
}

TEST(Combustion, BitIdenticalForAnyThreadCountAndResumable) {
    auto run = [](int threads) {
        setThreadCount(threads);
        Solver solver(campfire(1.0f));
        for (int frame = 1; frame <= 4; ++frame) solver.advanceFrame(frame);
        setThreadCount(0);
        return solver.fields();
    };
    const Fields a = run(1), b = run(3);
    EXPECT_EQ(a.fuel.values(), b.fuel.values());
    EXPECT_EQ(a.flame.values(), b.flame.values());
    EXPECT_EQ(a.w.values(), b.w.values());
    // The resume state carries fuel and flame bit for bit.
    const std::string path = (test::scratchDir("combustion_state") / "fire.state").string();
    writeSolverState(path, a, 4, "hash", "fire", nullptr);
    Fields back({a.n.x, a.n.y, a.n.z}, a.dx);
    back.enableFire();
    readSolverState(path, back, nullptr);
    EXPECT_EQ(back.fuel.values(), a.fuel.values());
    EXPECT_EQ(back.flame.values(), a.flame.values());
}

}  // namespace
}  // namespace plume
