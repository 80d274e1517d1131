// [shaping]: block disturbance and shredding for all smoke (sim/shaping.h).
// Each is checked on a known field for what it documents: the same velocity
// change at any resolution, nothing at or above the cutoff, the rotational
// mode's kinetic energy, the edge's stretch; then in a bake, the same bits
// for any thread count. Each fails when its force is a no-op.
#include "sim/shaping.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/noise.h"
#include "core/parallel.h"
#include "sim/solver.h"
#include "support/scene_errors.h"

namespace plume {
namespace {

// n^3 still cells over a metre, smoke of `density` everywhere.
Fields smokeBox(int n, float density) {
    Fields f({n, n, n}, 1.0f / float(n));
    f.density.fill(density);
    return f;
}

ShapingSettings disturbance(float strength, float block, int octaves = 1) {
    ShapingSettings s;
    s.disturbance = strength;
    s.disturbanceBlock = block;
    s.disturbanceOctaves = octaves;
    return s;
}

// Sum of u^2 + v^2 + w^2 over every face.
double faceEnergy(const Fields& f) {
    double e = 0.0;
    for (const ScalarGrid* g : {&f.u, &f.v, &f.w})
        for (float x : g->values()) e += double(x) * double(x);
    return e;
}

// The variance of the centred velocity over the interior cells, m^2/s^2.
double velocityVariance(const Fields& f) {
    double sum[3] = {0, 0, 0}, squares = 0.0;
    long count = 0;
    for (int k = 1; k < f.n.z - 1; ++k)
        for (int j = 1; j < f.n.y - 1; ++j)
            for (int i = 1; i < f.n.x - 1; ++i) {
                const Vec3f v = f.centredVelocity(i, j, k);
                for (int a = 0; a < 3; ++a) {
                    sum[a] += v[a];
                    squares += double(v[a]) * v[a];
                }
                ++count;
            }
    double mean2 = 0.0;
    for (double s : sum) mean2 += (s / count) * (s / count);
    return squares / count - mean2;
}

TEST(Shaping, DisturbanceChangesTheVelocityAsMuchAt64As128Cells) {
    // Blocks in metres and a push in m/s^2: the same spread of velocity at
    // any cell size, up to the faces that average two blocks.
    const ShapingSettings s = disturbance(4.0f, 0.2f, 2);
    const float dt = 0.02f;
    double variance[2];
    for (int r = 0; r < 2; ++r) {
        Fields f = smokeBox(r == 0 ? 64 : 128, 0.5f);
        ScratchArena scratch;
        addDisturbance(f, s, 0.3, dt, scratch);
        variance[r] = velocityVariance(f);
    }
    std::printf("variance of the velocity change: %.6g at 64 cells, %.6g at 128\n", variance[0],
                variance[1]);
    // A push of 4 and 2 m/s^2 over 0.02 s: about (0.09 m/s)^2 over the blocks.
    EXPECT_GT(variance[1], 1e-3);
    EXPECT_NEAR(variance[0] / variance[1], 1.0, 0.10);
}

TEST(Shaping, DisturbanceLeavesSmokeAtTheCutoffAlone) {
    // Density rising along x from 0 to 2 with a cutoff of 1: no face of a
    // cell at or above it moves; below it the push fades toward the cutoff.
    const int n = 32;
    Fields f({n, n, n}, 1.0f / n);
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) f.density(i, j, k) = 2.0f * (i + 0.5f) / n;
    ShapingSettings s = disturbance(6.0f, 0.25f);
    s.disturbanceCutoff = 1.0f;
    ScratchArena scratch;
    addDisturbance(f, s, 0.1, 0.04f, scratch);
    double thin = 0.0;
    for (int k = 1; k < n - 1; ++k)
        for (int j = 1; j < n - 1; ++j)
            for (int i = 1; i < n - 1; ++i) {
                const bool dense = f.density(i, j, k) >= 1.0f;
                const float faces[6] = {f.u(i, j, k), f.u(i + 1, j, k), f.v(i, j, k),
                                        f.v(i, j + 1, k), f.w(i, j, k), f.w(i, j, k + 1)};
                for (float x : faces) {
                    if (dense) ASSERT_EQ(x, 0.0f) << "a face of cell " << i << "," << j << "," << k;
                    else thin += std::fabs(x);
                }
            }
    EXPECT_GT(thin, 1.0) << "the thin smoke was not pushed";
}

TEST(Shaping, RotationalDisturbanceKeepsTheKineticEnergyAndStillAirStill) {
    const int n = 32;
    Fields f = smokeBox(n, 0.5f);
    // A flow of hashed values, so there is motion to turn.
    for (ScalarGrid* g : {&f.u, &f.v, &f.w}) {
        std::vector<float>& x = g->values();
        for (size_t c = 0; c < x.size(); ++c)
            x[c] = noise_detail::lattice(int(c), int(c % 7), g == &f.u ? 1 : g == &f.v ? 2 : 3);
    }
    const Fields before = f;
    ShapingSettings s = disturbance(8.0f, 0.2f, 2);
    s.disturbanceRotational = true;
    ScratchArena scratch;
    addDisturbance(f, s, 0.3, 0.04f, scratch);
    const double e0 = faceEnergy(before), e1 = faceEnergy(f);
    std::printf("kinetic energy %.9g before, %.9g after (%.2g)\n", e0, e1, e1 / e0 - 1.0);
    EXPECT_LT(std::fabs(e1 / e0 - 1.0), 1e-6);
    double moved = 0.0;
    for (size_t c = 0; c < f.w.values().size(); ++c)
        moved = std::max(moved, double(std::fabs(f.w.values()[c] - before.w.values()[c])));
    EXPECT_GT(moved, 0.05) << "the rotational push turned nothing";

    Fields still = smokeBox(n, 0.5f);
    addDisturbance(still, s, 0.3, 0.04f, scratch);
    EXPECT_EQ(faceEnergy(still), 0.0);
}

TEST(Shaping, ShreddingStretchesTheVelocityAcrossTheSmokesEdge) {
    // Density from 0 to 1 and back across x, hotter along x, a wind along x:
    // where the density is 1/2 the wind grows by exp(rate dt) - 1, where it is
    // 0 or 1 not at all.
    const int n = 24;
    Fields f({n, n, n}, 1.0f / n);
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                f.density(i, j, k) = std::clamp((i - 4) / 8.0f, 0.0f, 1.0f);
                f.temperature(i, j, k) = 0.1f * i;
            }
    for (float& u : f.u.values()) u = 0.5f;
    const float rate = 5.0f, dt = 0.04f;
    ScratchArena scratch;
    addShredding(f, rate, dt, scratch);
    const int half = 8;  // density (8 - 4) / 8
    const float expected = 0.5f * std::exp(rate * dt);
    EXPECT_NEAR(f.centredVelocity(half, n / 2, n / 2).x, expected, 0.02f * 0.5f);
    EXPECT_FLOAT_EQ(f.centredVelocity(2, n / 2, n / 2).x, 0.5f);   // no smoke
    EXPECT_FLOAT_EQ(f.centredVelocity(18, n / 2, n / 2).x, 0.5f);  // its full core
}

Scene shapedScene() {
    Scene s;
    s.domain.size = {1.0f, 1.0f, 1.5f};
    s.domain.resolution = 24;
    s.domain.boundary.fill(Boundary::Open);
    s.time.frames = 6;
    EmitterSettings e;
    e.center = {0.5f, 0.5f, 0.25f};
    e.radius = 0.15f;
    e.temperature = 2.0f;
    s.emitters.push_back(e);
    s.shaping = disturbance(5.0f, 0.2f, 2);
    s.shaping.disturbanceCutoff = 0.8f;
    s.shaping.shredding = 4.0f;
    return s;
}

TEST(Shaping, ABakeIsTheSameForAnyThreadCountAndOffIsNoShaping) {
    auto bake = [](const Scene& scene, int threads) {
        setThreadCount(threads);
        Solver solver(scene);
        for (int frame = 1; frame <= scene.time.frames; ++frame) solver.advanceFrame(frame);
        setThreadCount(0);
        return solver.fields().density.values();
    };
    const Scene shaped = shapedScene();
    const std::vector<float> one = bake(shaped, 1);
    EXPECT_EQ(one, bake(shaped, 2));
    Scene plain = shaped;
    plain.shaping = {};
    EXPECT_NE(one, bake(plain, 2)) << "[shaping] changed nothing";
}

TEST(Shaping, BadValuesAreOneLineAtTheirPlace) {
    const std::string e = test::parseError("[shaping]\ndisturbance_octaves = 9\n");
    EXPECT_NE(e.find("s.toml:2:"), std::string::npos) << e;
    EXPECT_NE(e.find("shaping.disturbance_octaves"), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_NE(test::parseError("[shaping]\ndisturbance_block = -1\n").find("s.toml:2:"),
              std::string::npos);
}

}  // namespace
}  // namespace plume
