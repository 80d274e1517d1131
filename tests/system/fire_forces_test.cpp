// The flame's forces: physics.flame_vorticity (more confinement where it
// burns), physics.flame_disturbance (random pushes in blocks) and
// physics.flame_shredding (the velocity across the flame's edge stretched).
// Each is checked first on a known field, where it must make the change it
// documents and nothing outside the flame, then in a burning scene, where it
// must change the flow and stay the same for any thread count. Each test
// fails when its force is a no-op.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/parallel.h"
#include "scene/describe.h"
#include "sim/forces.h"
#include "sim/solver.h"
#include "support/run.h"
#include "support/scene_errors.h"

namespace plume {
namespace {

// --- Helpers -----------------------------------------------------------------

// Fire fields of n^3 cells, still, at temperature 0, with no flame.
Fields fireFields(int n, float dx) {
    Fields f({n, n, n}, dx);
    f.enableFire();
    return f;
}

// Calls fn(i, j, k) for every cell.
template <typename F>
void forCells(const Fields& f, F&& fn) {
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) fn(i, j, k);
}

// Calls fn(axis, i, j, k, im, jm, km) for every interior face (between two cells).
template <typename F>
void forInteriorFaces(const Fields& f, F&& fn) {
    for (int axis = 0; axis < 3; ++axis) {
        const int di = axis == 0, dj = axis == 1, dk = axis == 2;
        for (int k = dk; k < f.n.z; ++k)
            for (int j = dj; j < f.n.y; ++j)
                for (int i = di; i < f.n.x; ++i) fn(axis, i, j, k, i - di, j - dj, k - dk);
    }
}

// The curl of the centred velocity at an interior cell, 1/s.
Vec3f curlAt(const Fields& f, int i, int j, int k) {
    const float h = 0.5f / f.dx;
    auto c = [&](int a, int b, int d) { return f.centredVelocity(a, b, d); };
    const Vec3f dX = c(i + 1, j, k) - c(i - 1, j, k), dY = c(i, j + 1, k) - c(i, j - 1, k),
                dZ = c(i, j, k + 1) - c(i, j, k - 1);
    return {(dY.z - dZ.y) * h, (dZ.x - dX.z) * h, (dX.y - dY.x) * h};
}

// The temperature gradient's direction at an interior cell (0 where flat).
Vec3f temperatureNormal(const Fields& f, int i, int j, int k) {
    const ScalarGrid& t = f.temperature;
    const Vec3f g{t(i + 1, j, k) - t(i - 1, j, k), t(i, j + 1, k) - t(i, j - 1, k),
                  t(i, j, k + 1) - t(i, j, k - 1)};
    const float len = length(g);
    return len > 0.0f ? g / len : Vec3f(0.0f);
}

bool interior(const Fields& f, int i, int j, int k) {
    return i > 0 && j > 0 && k > 0 && i < f.n.x - 1 && j < f.n.y - 1 && k < f.n.z - 1;
}

// A bed of hot fuel in a small open box (the Combustion tests' campfire),
// with the flame forces as given.
Scene burningScene(float fuel = 1.0f) {
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

Fields run(const Scene& s, int frames, int threads = 0) {
    setThreadCount(threads);
    Solver solver(s);
    for (int frame = 1; frame <= frames; ++frame) solver.advanceFrame(frame);
    setThreadCount(0);
    return solver.fields();
}

// --- physics.flame_vorticity ----------------------------------------------------

// A Gaussian vortex about the z axis (the Vorticity tests' field), with the
// flame 1 in the half x >= 16 and none in the other half.
Fields vortexHalfAflame(float flame) {
    Fields f = fireFields(32, 0.1f);
    auto swirl = [](float x, float y, int axis) {
        const float rx = x - 16, ry = y - 16, g = std::exp(-(rx * rx + ry * ry) / 36.0f);
        return axis == 0 ? -ry * g : rx * g;
    };
    for (int k = 0; k < 32; ++k)
        for (int j = 0; j <= 32; ++j)
            for (int i = 0; i <= 32; ++i) {
                if (j < 32) f.u(i, j, k) = swirl(float(i), j + 0.5f, 0);
                if (i < 32) f.v(i, j, k) = swirl(i + 0.5f, float(j), 1);
            }
    forCells(f, [&](int i, int j, int k) { f.flame(i, j, k) = i >= 16 ? flame : 0.0f; });
    return f;
}

TEST(FireForces, FlameVorticityScalesTheConfinementWhereItBurnsOnly) {
    // epsilon 0.5 everywhere; with flame_vorticity 1 it is 1.5 where the flame
    // is 1: the force there three times as large, elsewhere the same bits.
    const float dt = 0.05f;
    ScratchArena scratch;
    const Fields start = vortexHalfAflame(1.0f);
    Fields plain = start, flaming = start, over = vortexHalfAflame(7.0f);
    addVorticityConfinement(plain, 0.5f, 0.0f, dt, scratch);
    addVorticityConfinement(flaming, 0.5f, 1.0f, dt, scratch);
    addVorticityConfinement(over, 0.5f, 1.0f, dt, scratch);
    int outside = 0, inside = 0;
    forInteriorFaces(start, [&](int axis, int i, int j, int k, int im, int, int) {
        const float before = start.component(axis)(i, j, k);
        const float a = plain.component(axis)(i, j, k) - before;
        const float b = flaming.component(axis)(i, j, k) - before;
        if (i < 16 && im < 16) {  // both cells out of the flame
            ASSERT_EQ(flaming.component(axis)(i, j, k), plain.component(axis)(i, j, k));
            ++outside;
        } else if (im >= 16 && std::fabs(a) > 1e-5f) {  // both cells in it
            ASSERT_NEAR(b, 3.0f * a, 1e-3f * std::fabs(a) + 1e-7f) << axis << " " << i << "," << j;
            ++inside;
        }
        // The flame counts at most 1: a flame of 7 confines as a flame of 1.
        ASSERT_EQ(over.component(axis)(i, j, k), flaming.component(axis)(i, j, k));
    });
    EXPECT_GT(outside, 1000);
    EXPECT_GT(inside, 1000);
}

TEST(FireForces, FlameVorticityIsNothingWithoutFire) {
    Fields f({16, 16, 8}, 0.1f), g({16, 16, 8}, 0.1f);
    forCells(f, [&](int i, int j, int k) { f.u(i, j, k) = std::sin(0.7f * j) + 0.1f * k; });
    g = f;
    ScratchArena scratch;
    addVorticityConfinement(f, 0.0f, 3.0f, 0.05f, scratch);
    EXPECT_EQ(f.u.values(), g.u.values());
}

TEST(FireForces, FlameVorticityStirsABurningScene) {
    // Measured (24^3, 8 frames, vorticity 0.3): flame_vorticity 6 raises the
    // enstrophy (mean |curl|^2) over the burning cells from 163 to 222 1/s^2,
    // x1.37; the test asks for x1.2.
    auto enstrophy = [](float flameVorticity) {
        Scene s = burningScene();
        s.physics.vorticity = 0.3f;
        s.physics.flameVorticity = flameVorticity;
        const Fields f = run(s, 8);
        double sum = 0;
        int cells = 0;
        forCells(f, [&](int i, int j, int k) {
            if (!interior(f, i, j, k) || f.flame(i, j, k) < 0.1f) return;
            const Vec3f w = curlAt(f, i, j, k);
            sum += dot(w, w);
            ++cells;
        });
        return sum / std::max(cells, 1);
    };
    const double off = enstrophy(0.0f), on = enstrophy(6.0f);
    std::printf("flame enstrophy: off %.3g, on %.3g (x%.3g)\n", off, on, on / off);
    EXPECT_GT(on, 1.2 * off);
}

// --- physics.flame_disturbance --------------------------------------------------

// A still box of fire fields with the flame 1 in the cube [8, 24)^3 of 32^3.
Fields flameCube(Vec3i offset = {}, int n = 32) {
    Fields f = fireFields(n, 0.05f);
    f.offset = offset;
    f.origin = Vec3f(float(offset.x), float(offset.y), float(offset.z)) * f.dx;
    forCells(f, [&](int i, int j, int k) {
        const int a = i + offset.x, b = j + offset.y, c = k + offset.z;
        const bool in = a >= 8 && a < 24 && b >= 8 && b < 24 && c >= 8 && c < 24;
        f.flame(i, j, k) = in ? 1.0f : 0.0f;
    });
    return f;
}

// The change of the centred velocity at each cell.
std::vector<Vec3f> centredChange(const Fields& after, const Fields& before) {
    std::vector<Vec3f> d;
    forCells(after, [&](int i, int j, int k) {
        d.push_back(after.centredVelocity(i, j, k) - before.centredVelocity(i, j, k));
    });
    return d;
}

TEST(FireForces, DisturbancePushesInTheFlameOnlyAtItsStrength) {
    ScratchArena scratch;
    const float strength = 4.0f, scale = 0.2f, dt = 0.02f;
    const Fields start = flameCube();
    Fields f = start;
    addFlameDisturbance(f, strength, scale, 0.3, dt, scratch);
    // Out of the flame (faces with neither cell burning): not a bit moved.
    int moved = 0;
    double pushed = 0;
    forInteriorFaces(start, [&](int axis, int i, int j, int k, int im, int jm, int km) {
        const float d = f.component(axis)(i, j, k) - start.component(axis)(i, j, k);
        if (start.flame(i, j, k) == 0.0f && start.flame(im, jm, km) == 0.0f) {
            ASSERT_EQ(d, 0.0f) << axis << " " << i << "," << j << "," << k;
        }
        ASSERT_LE(std::fabs(d), strength * dt * 1.0001f);
        moved += d != 0.0f;
        pushed += std::fabs(d);
    });
    EXPECT_GT(moved, 3 * 16 * 16 * 15);
    // Deep in the flame each cell is pushed at most the strength (a blend of
    // two unit directions), and on the whole a good part of it.
    double mean = 0;
    int cells = 0;
    forCells(f, [&](int i, int j, int k) {
        if (i < 10 || i >= 22 || j < 10 || j >= 22 || k < 10 || k >= 22) return;
        const Vec3f a = (f.centredVelocity(i, j, k) - start.centredVelocity(i, j, k)) / dt;
        for (int axis = 0; axis < 3; ++axis) EXPECT_LE(std::fabs(a[axis]), strength * 1.0001f);
        mean += length(a);
        ++cells;
    });
    mean /= cells;
    std::printf("mean push %.3g m/s^2 of %.3g\n", mean, strength);
    EXPECT_GT(mean, 0.3 * strength);
    EXPECT_GT(pushed, 0.0);
}

TEST(FireForces, DisturbanceRenewsSmoothlyAndIsPerSecond) {
    ScratchArena scratch;
    const float strength = 4.0f, scale = 0.2f, dt = 0.01f;
    const double period = std::sqrt(2.0 * scale / strength);  // a layer's life
    const Fields start = flameCube();
    auto pushAt = [&](double time, float step) {
        Fields f = start;
        addFlameDisturbance(f, strength, scale, time, step, scratch);
        return centredChange(f, start);
    };
    auto distance = [](const std::vector<Vec3f>& a, const std::vector<Vec3f>& b) {
        double d = 0, n = 0;
        for (size_t c = 0; c < a.size(); ++c) d += length(a[c] - b[c]), n += length(a[c]);
        return d / n;
    };
    const auto now = pushAt(0.3, dt);
    // Renewed: three layers on, another pattern (as different as two random
    // patterns: about 1); a hundredth of a layer on, nearly the same.
    EXPECT_GT(distance(pushAt(0.3 + 3 * period, dt), now), 0.5);
    EXPECT_LT(distance(pushAt(0.3 + 0.01 * period, dt), now), 0.05);
    // Two half substeps push as one whole, to the blend's curvature.
    Fields halves = start;
    addFlameDisturbance(halves, strength, scale, 0.3, 0.5f * dt, scratch);
    addFlameDisturbance(halves, strength, scale, 0.3 + 0.5 * dt, 0.5f * dt, scratch);
    EXPECT_LT(distance(centredChange(halves, start), now), 0.01);
}

TEST(FireForces, DisturbanceBlocksAreTheWorldsOnAnyIsland) {
    ScratchArena scratch;
    // An island holding the cells from (4, 6, 8) on sees the same blocks and
    // the same pushes, bit for bit, as the whole domain there.
    const Vec3i offset{4, 6, 8};
    Fields whole = flameCube(), island = flameCube(offset, 20);
    island.domainCells = whole.n;
    addFlameDisturbance(whole, 4.0f, 0.15f, 0.7, 0.02f, scratch);
    addFlameDisturbance(island, 4.0f, 0.15f, 0.7, 0.02f, scratch);
    int compared = 0;
    forInteriorFaces(island, [&](int axis, int i, int j, int k, int, int, int) {
        ASSERT_EQ(island.component(axis)(i, j, k),
                  whole.component(axis)(i + offset.x, j + offset.y, k + offset.z))
            << axis << " " << i << "," << j << "," << k;
        ++compared;
    });
    EXPECT_GT(compared, 20000);
}

TEST(FireForces, DisturbanceChangesAFireTheSameForAnyThreadCount) {
    Scene s = burningScene();
    const Fields off = run(s, 6);
    s.physics.flameDisturbance = 20.0f;
    s.physics.flameDisturbanceScale = 0.15f;
    const Fields one = run(s, 6, 1), two = run(s, 6, 2);
    EXPECT_EQ(one.u.values(), two.u.values());
    EXPECT_EQ(one.v.values(), two.v.values());
    EXPECT_EQ(one.w.values(), two.w.values());
    EXPECT_EQ(one.flame.values(), two.flame.values());
    // And it did something: the horizontal flow in the fire is stirred.
    // Measured (24^3, 6 frames, 20 m/s^2 in blocks of 0.15 m): the mean
    // |u| + |v| over burning cells goes from 0.244 to 0.479 m/s (x1.96); the
    // test asks for x1.3.
    auto sideways = [](const Fields& f) {
        double sum = 0;
        int cells = 0;
        forCells(f, [&](int i, int j, int k) {
            if (f.flame(i, j, k) < 0.1f) return;
            const Vec3f c = f.centredVelocity(i, j, k);
            sum += std::fabs(c.x) + std::fabs(c.y);
            ++cells;
        });
        return sum / std::max(cells, 1);
    };
    std::printf("sideways speed in the flame: off %.3g, on %.3g m/s\n", sideways(off),
                sideways(one));
    EXPECT_GT(sideways(one), 1.3 * sideways(off));
}

TEST(FireForces, FlameForcesLeaveSmokeAlone) {
    // A scene that burns nothing has no flame: the three keys change no bit.
    Scene s = burningScene(0.0f);
    s.emitters[0].density = 1.0f;
    const Fields plain = run(s, 3);
    s.physics.flameVorticity = 5.0f;
    s.physics.flameDisturbance = 20.0f;
    s.physics.flameShredding = 10.0f;
    const Fields keyed = run(s, 3);
    EXPECT_EQ(plain.w.values(), keyed.w.values());
    EXPECT_EQ(plain.density.values(), keyed.density.values());
}

// --- physics.flame_shredding ----------------------------------------------------

// Temperature rising along x, a uniform flow (1, 0.5, -0.25) m/s, and the flame
// `edge` in the slab x in [10, 20), 1 (its full core) for x >= 20, 0 below 10.
Fields shreddingField(float edge) {
    Fields f = fireFields(32, 0.05f);
    f.u.fill(1.0f), f.v.fill(0.5f), f.w.fill(-0.25f);
    forCells(f, [&](int i, int j, int k) {
        f.temperature(i, j, k) = 0.1f * i;
        f.flame(i, j, k) = i < 10 ? 0.0f : (i < 20 ? edge : 1.0f);
    });
    return f;
}

TEST(FireForces, ShreddingStretchesTheFlowAcrossTheFlamesEdge) {
    const float rate = 3.0f, dt = 0.05f;
    const Fields start = shreddingField(0.5f);  // weight 4 * 0.5 * 0.5 = 1
    Fields f = start;
    ScratchArena scratch;
    addFlameShredding(f, rate, dt, scratch);
    // In the edge the component along the gradient (x) grows by
    // exp(rate dt); across it (y, z) nothing moves. Outside the flame and in
    // its full core: not a bit.
    const float grown = std::expm1(rate * dt);
    for (int k = 1; k < 31; ++k)
        for (int j = 1; j < 31; ++j)
            for (int i = 1; i < 32; ++i) {
                const float du = f.u(i, j, k) - start.u(i, j, k);
                if (i >= 11 && i < 20) {
                    ASSERT_NEAR(du, grown, 1e-5f) << i;
                }
                if (i < 10 || i > 20) {
                    ASSERT_EQ(du, 0.0f) << i;
                }
            }
    EXPECT_EQ(f.v.values(), start.v.values());
    EXPECT_EQ(f.w.values(), start.w.values());
    // The weight falls off either side of the edge's middle: a flame of 0.1
    // or 0.9 stretches at 0.36 of the rate.
    Fields thin = shreddingField(0.1f);
    addFlameShredding(thin, rate, dt, scratch);
    EXPECT_NEAR(thin.u(15, 15, 15) - 1.0f, std::expm1(0.36f * rate * dt), 1e-5f);
}

TEST(FireForces, ShreddingIsPerSecond) {
    // Ten substeps of dt / 10 stretch as one of dt: exp(rate dt) either way.
    const float rate = 3.0f, dt = 0.05f;
    ScratchArena scratch;
    Fields one = shreddingField(0.5f), ten = one;
    addFlameShredding(one, rate, dt, scratch);
    for (int s = 0; s < 10; ++s) addFlameShredding(ten, rate, 0.1f * dt, scratch);
    EXPECT_NEAR(one.u(15, 15, 15), std::exp(rate * dt), 1e-5f);
    EXPECT_NEAR(ten.u(15, 15, 15), one.u(15, 15, 15), 1e-5f);
}

TEST(FireForces, ShreddingMovesAFireAlongItsTemperatureGradient) {
    // Measured (24^3, 8 frames): the mean |u . N| (N the temperature
    // gradient's direction) over the flame's edge cells (flame 0.1 to 0.9)
    // goes from 0.673 to 0.938 m/s with flame_shredding 8 (x1.39; 0.753 with
    // 4, 1.29 with 16); the test asks for x1.2. Deterministic for any thread
    // count, as the others.
    auto across = [](float shredding, int threads) {
        Scene s = burningScene();
        s.physics.flameShredding = shredding;
        const Fields f = run(s, 8, threads);
        double sum = 0;
        int cells = 0;
        forCells(f, [&](int i, int j, int k) {
            const float phi = f.flame(i, j, k);
            if (!interior(f, i, j, k) || phi < 0.1f || phi > 0.9f) return;
            sum += std::fabs(dot(f.centredVelocity(i, j, k), temperatureNormal(f, i, j, k)));
            ++cells;
        });
        return std::pair(sum / std::max(cells, 1), f);
    };
    const auto [off, plain] = across(0.0f, 0);
    const auto [on, one] = across(8.0f, 1);
    const auto [again, two] = across(8.0f, 2);
    std::printf("|u . N| at the flame's edge: off %.3g, on %.3g m/s\n", off, on);
    EXPECT_GT(on, 1.2 * off);
    EXPECT_EQ(one.w.values(), two.w.values());
    EXPECT_EQ(on, again);
}

TEST(FireForces, AllThreeOnASparseSolveAreTheSameForAnyThreadCount) {
    // The islands of a sparse solve, each force on: the same bits with 1 and 2
    // threads, and not the flow without them.
    Scene s = burningScene();
    s.solver.sparse = true;
    const Fields plain = run(s, 6);
    s.physics.flameVorticity = 3.0f;
    s.physics.flameDisturbance = 15.0f;
    s.physics.flameShredding = 4.0f;
    const Fields one = run(s, 6, 1), two = run(s, 6, 2);
    EXPECT_EQ(one.u.values(), two.u.values());
    EXPECT_EQ(one.w.values(), two.w.values());
    EXPECT_EQ(one.flame.values(), two.flame.values());
    EXPECT_NE(one.w.values(), plain.w.values());
}

// --- Scene keys -----------------------------------------------------------------

TEST(SceneFireForces, KeysLoadSetDescribeAndReject) {
    const std::string text =
        "[physics]\nflame_vorticity = 2.5\nflame_disturbance = 8.0\n"
        "flame_disturbance_scale = 0.25\nflame_shredding = 1.5\n[[emitter]]\nfuel = 1.0\n";
    const Scene s = parseScene(text, "s.toml", {"physics.flame_shredding=3"});
    EXPECT_EQ(s.physics.flameVorticity, 2.5f);
    EXPECT_EQ(s.physics.flameDisturbance, 8.0f);
    EXPECT_EQ(s.physics.flameDisturbanceScale, 0.25f);
    EXPECT_EQ(s.physics.flameShredding, 3.0f);  // --set wins
    // Off by default.
    const Scene plain = parseScene("[[emitter]]\n", "s.toml", {});
    EXPECT_EQ(plain.physics.flameVorticity, 0.0f);
    EXPECT_EQ(plain.physics.flameDisturbance, 0.0f);
    EXPECT_EQ(plain.physics.flameShredding, 0.0f);
    // plume check writes them, and what it writes reads back.
    const std::string described = describeScene(s);
    for (const char* line : {"flame_vorticity = 2.5", "flame_disturbance = 8.0",
                             "flame_disturbance_scale = 0.25", "flame_shredding = 3.0"})
        EXPECT_NE(described.find(line), std::string::npos) << line << "\n" << described;
    // Bad values: the one-line error at the file's line.
    EXPECT_EQ(test::parseError("[physics]\nflame_shredding = -1.0\n"),
              "s.toml:2:19: error: 'physics.flame_shredding' = -1 is out of range [0, 100]");
    EXPECT_EQ(test::setError("physics.flame_disturbance_scale=0"),
              "--set physics.flame_disturbance_scale=0: error: "
              "'physics.flame_disturbance_scale' = 0 is out of range (0, inf)");
    EXPECT_EQ(test::setError("physics.flame_vorticity=fast"),
              "--set physics.flame_vorticity=fast: error: 'physics.flame_vorticity' must be a "
              "number, got a string");
}

TEST(SceneFireForces, PlumeCheckRejectsABadValueWithExitTwo) {
    const std::filesystem::path dir = test::scratchDir("fire_forces_check");
    {
        std::ofstream scene(dir / "bad.toml");
        scene << "[physics]\nflame_vorticity = 1.0\nflame_disturbance = -3.0\n[[emitter]]\nfuel = "
                 "1.0\n";
    }
    const test::RunResult r = test::runPlume("check bad.toml", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "bad.toml:3:21: error: 'physics.flame_disturbance' = -3 is out of range [0, 1000]\n");
}

}  // namespace
}  // namespace plume
