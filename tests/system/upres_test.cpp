// Upres (sim/upres): the scalars on a grid `factor` times finer than the
// velocity's, stirred by wavelet turbulence where the base grid cannot
// resolve its own energy. It must hold the fine grid where the smoke is, add
// detail the base grid lacks (and none without the turbulence's cause), give
// the same bits for any thread count, and write the fine scalars to the cache
// at their voxel size beside the base velocity.
#include "sim/upres/upres.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "core/parallel.h"
#include "io/vdb_cache.h"
#include "run/memory_check.h"
#include "scene/loader.h"
#include "sim/solver.h"
#include "sim/upres/pattern_weights.h"
#include "sim/upres/unresolved_speed.h"
#include "sim/upres/wavelet_noise.h"
#include "support/run.h"
#include "support/scene_errors.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

using test::kSourceDir;

// bench.toml's plume at 32^3: a sphere of hot smoke near the floor rising
// through open sides, gently (plume's default buoyancy and cooling), so in
// 12 frames it is a narrow column below the ceiling.
Scene smallPlume(const std::vector<std::string>& more = {}) {
    std::vector<std::string> sets = {"domain.resolution=32", "upres.factor=2",
                                     "physics.buoyancy_heat=0.5",
                                     "physics.temperature_dissipation=0.5"};
    sets.insert(sets.end(), more.begin(), more.end());
    return loadScene(kSourceDir + "/scenes/bench.toml", sets);
}

// Runs `frames` frames of the scene with upres and returns the fine scalars.
Fields bake(const Scene& scene, int frames) {
    Solver solver(scene);
    Upres upres(scene);
    for (int frame = 1; frame <= frames; ++frame) {
        solver.advanceFrame(frame);
        upres.advance(UpresInput::fromParts(solver.islandFields()), frame);
    }
    return upres.fine();
}

double mass(const ScalarGrid& g, double cellVolume) {
    double m = 0.0;
    for (size_t n = 0; n < g.size(); ++n) m += g[n];
    return m * cellVolume;
}

// Mean |discrete Laplacian| of the density over the cells that hold smoke,
// per unit of mean density: how much structure there is at the cells' scale.
double roughness(const ScalarGrid& g) {
    double sum = 0.0, held = 0.0;
    long count = 0;
    for (int k = 1; k < g.nz() - 1; ++k)
        for (int j = 1; j < g.ny() - 1; ++j)
            for (int i = 1; i < g.nx() - 1; ++i) {
                const float c = g(i, j, k);
                if (c < 0.05f) continue;
                const float lap = g(i - 1, j, k) + g(i + 1, j, k) + g(i, j - 1, k) +
                                  g(i, j + 1, k) + g(i, j, k - 1) + g(i, j, k + 1) - 6.0f * c;
                sum += std::fabs(lap);
                held += c;
                ++count;
            }
    return count ? sum / held : 0.0;
}

TEST(Upres, WaveletNoiseIsBandLimitedAndItsCurlIsDivergenceFree) {
    const WaveletNoise& noise = WaveletNoise::instance();
    // Unit variance, zero mean over the tile's samples.
    double sum = 0.0, sumSq = 0.0;
    const int n = WaveletNoise::kTile;
    for (int k = 0; k < n; k += 3)
        for (int j = 0; j < n; j += 3)
            for (int i = 0; i < n; i += 3) {
                const double v =
                    noise.value(Vec3f(float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f));
                sum += v;
                sumSq += v * v;
            }
    const double count = std::pow(double(n / 3 + 1), 3.0);
    EXPECT_NEAR(sum / count, 0.0, 0.05);
    // (The quadratic B-spline smooths the tile's unit-variance samples.)
    EXPECT_GT(sumSq / count, 0.05);
    // Band-limited: averaging over blocks of 4 samples (what a grid 4 times
    // coarser holds) leaves little of it.
    double coarseSq = 0.0;
    for (int k = 0; k < n; k += 4)
        for (int j = 0; j < n; j += 4)
            for (int i = 0; i < n; i += 4) {
                double block = 0.0;
                for (int c = 0; c < 4; ++c)
                    for (int b = 0; b < 4; ++b)
                        for (int a = 0; a < 4; ++a)
                            block += noise.value(Vec3f(float(i + a) + 0.5f, float(j + b) + 0.5f,
                                                       float(k + c) + 0.5f));
                coarseSq += (block / 64.0) * (block / 64.0);
            }
    EXPECT_LT(coarseSq / std::pow(double(n / 4), 3.0), 0.05 * sumSq / count);
    // The curl's divergence by central differences is small against its size.
    double div = 0.0, size = 0.0;
    const float h = 0.01f;
    for (int s = 0; s < 200; ++s) {
        const Vec3f p(float(s) * 0.37f, float(s) * 0.61f + 3.0f, float(s) * 0.23f + 7.0f);
        const Vec3f c = noise.curl(p);
        const float d = (noise.curl(p + Vec3f(h, 0, 0)).x - noise.curl(p - Vec3f(h, 0, 0)).x +
                         noise.curl(p + Vec3f(0, h, 0)).y - noise.curl(p - Vec3f(0, h, 0)).y +
                         noise.curl(p + Vec3f(0, 0, h)).z - noise.curl(p - Vec3f(0, 0, h)).z) /
                        (2.0f * h);
        div += std::fabs(d);
        size += length(c);
    }
    EXPECT_LT(div, 0.02 * size);
}

TEST(Upres, UnresolvedSpeedIsZeroForAUniformFlowAndNotForAShear) {
    ScalarGrid uniform[3], shear[3];
    for (int a = 0; a < 3; ++a) {
        uniform[a] = ScalarGrid(16, 16, 16, Vec3f(0.5f), a == 2 ? 1.5f : 0.0f);
        shear[a] = ScalarGrid(16, 16, 16);
    }
    // Streaks two cells wide, moving and still: its energy all in the finest band.
    for (int k = 0; k < 16; ++k)
        for (int j = 0; j < 16; ++j)
            for (int i = 0; i < 16; ++i) shear[2](i, j, k) = (i / 2) % 2 ? 1.0f : 0.0f;
    ScalarGrid out;
    unresolvedSpeed(uniform, out);
    float most = 0.0f;
    for (size_t n = 0; n < out.size(); ++n) most = std::max(most, std::fabs(out[n]));
    EXPECT_LT(most, 0.01f * 1.5f);  // the filters' rounded taps leave a trace
    unresolvedSpeed(shear, out);
    double mean = 0.0;
    for (size_t n = 0; n < out.size(); ++n) mean += out[n];
    EXPECT_GT(mean / double(out.size()), 0.1);
}

TEST(Upres, TheFineGridIsFactorTimesFinerWhereTheSmokeIs) {
    const Scene scene = smallPlume();
    Solver solver(scene);
    Upres upres(scene);
    for (int frame = 1; frame <= 12; ++frame) {
        solver.advanceFrame(frame);
        upres.advance(UpresInput::fromParts(solver.islandFields()), frame);
    }
    const Fields& base = solver.fields();
    const Fields& fine = upres.fine();
    EXPECT_FLOAT_EQ(fine.dx, base.dx / 2.0f);
    EXPECT_EQ(fine.n.x, 2 * upres.box().size().x);
    EXPECT_EQ(fine.n.z, 2 * upres.box().size().z);
    EXPECT_EQ(fine.domainSize().x, 2 * base.domainSize().x);
    // Only around the smoke: the plume is narrow, the domain is not.
    EXPECT_LT(upres.box().volume(),
              0.7 * double(base.domainSize().x) * base.domainSize().y * base.domainSize().z);
    // As much smoke as the base holds, give or take what the finer advection
    // keeps and the turbulence spreads.
    const double fineMass = mass(fine.density, std::pow(double(fine.dx), 3.0));
    const double baseMass = mass(base.density, std::pow(double(base.dx), 3.0));
    EXPECT_GT(fineMass, 0.7 * baseMass);
    EXPECT_LT(fineMass, 1.3 * baseMass);
    // Where the fine smoke is, in the world: its centre of mass within two base
    // cells of the base's.
    auto centreZ = [](const Fields& f) {
        double m = 0.0, z = 0.0;
        for (int k = 0; k < f.n.z; ++k)
            for (int j = 0; j < f.n.y; ++j)
                for (int i = 0; i < f.n.x; ++i) {
                    m += f.density(i, j, k);
                    z += f.density(i, j, k) * (f.origin.z + (k + 0.5) * f.dx);
                }
        return z / m;
    };
    EXPECT_NEAR(centreZ(fine), centreZ(base), 2.0 * base.dx);
}

TEST(Upres, TheTurbulenceAddsDetailAndNothingWithoutStrength) {
    const Fields calm = bake(smallPlume({"upres.strength=0"}), 16);
    const Fields stirred = bake(smallPlume({"upres.strength=1"}), 16);
    const double smooth = roughness(calm.density), rough = roughness(stirred.density);
    // Detail, but of the spectrum's slope: the second octave (half the size)
    // weaker than the first. Measured 1.38 times the calm roughness; with
    // the octaves' weights swapped, 1.68.
    EXPECT_GT(rough, 1.1 * smooth) << "calm " << smooth << ", stirred " << rough;
    EXPECT_LT(rough, 1.55 * smooth) << "calm " << smooth << ", stirred " << rough;
    std::printf("roughness: calm %.5f, stirred %.5f (%.3f times)\n", smooth, rough, rough / smooth);
}

// The two noise patterns cross-fade (sim/upres/pattern_weights.h): at every
// phase the squares of their weights sum to one (one strength of stirring),
// each is at zero when it renews, and neither jumps.
TEST(Upres, TheNoisePatternsCrossFadeAtOneStrengthAndRenewUnseen) {
    constexpr double kStep = 1.0 / 1024.0;  // exact in binary: the whole phases are hit
    constexpr double kPiD = 3.14159265358979;
    std::array<float, 2> last = upresPatternWeights(0.0);
    int renewals[2] = {0, 0};
    for (double phase = 0.0; phase <= 4.0; phase += kStep) {
        const std::array<float, 2> w = upresPatternWeights(phase);
        EXPECT_NEAR(w[0] * w[0] + w[1] * w[1], 1.0f, 1e-6f) << "phase " << phase;
        for (int p = 0; p < 2; ++p) {
            EXPECT_GE(w[size_t(p)], 0.0f) << "pattern " << p << ", phase " << phase;
            // sin(pi x) moves at most pi a unit of phase: no step anywhere,
            // renewals included.
            EXPECT_LE(std::fabs(w[size_t(p)] - last[size_t(p)]), kPiD * kStep * 1.001)
                << "pattern " << p << " jumps at phase " << phase;
            // Where its own phase is whole, the pattern renews: its weight is nothing.
            const double own = upresPatternPhase(phase, p);
            if (own == std::floor(own)) {
                ++renewals[p];
                EXPECT_EQ(w[size_t(p)], 0.0f) << "pattern " << p << " renews at phase " << phase;
            }
        }
        last = w;
    }
    EXPECT_EQ(renewals[0], 5);  // phases 0, 1, 2, 3, 4
    EXPECT_EQ(renewals[1], 4);  // 0.5, 1.5, 2.5, 3.5
}

// A keyed emitter crossing the domain: the fine grid's emitters are where
// the substep's pose puts them, so the fine smoke goes where the base smoke
// goes (their centres of mass along the path within half a base cell;
// measured within 0.05 of a cell, and 1.6 to 6.9 cells apart with the
// emitters unposed).
// The emitter gives the smoke none of its own motion (inherit_velocity = 0):
// upres moves its smoke by the frame's last velocity, and a torch's thrust
// (2.6 m/s here) is there only while it passes, so with it the fine trail
// lags (1.8 base cells by frame 12) for a reason that is not the pose.
TEST(Upres, TheFineSmokeFollowsAKeyedEmitter) {
    const Scene scene = parseScene(R"(
[domain]
size = [2.0, 1.0, 1.0]
resolution = 24
boundary = "open"
[time]
frames = 12
[physics]
buoyancy_heat = 0.2
[upres]
factor = 2
[[emitter]]
shape = "sphere"
center = [0.4, 0.5, 0.3]
radius = 0.12
density = 1.0
temperature = 1.0
inherit_velocity = 0.0
[[emitter.key]]
frame = 1
center = [0.4, 0.5, 0.3]
[[emitter.key]]
frame = 12
center = [1.6, 0.5, 0.3]
)",
                                   "keyed.toml");
    ASSERT_TRUE(scene.animated());
    auto centreX = [](const Fields& f) {
        double m = 0.0, x = 0.0;
        for (int k = 0; k < f.n.z; ++k)
            for (int j = 0; j < f.n.y; ++j)
                for (int i = 0; i < f.n.x; ++i) {
                    m += f.density(i, j, k);
                    x += f.density(i, j, k) * (f.origin.x + (i + 0.5) * f.dx);
                }
        return x / m;
    };
    Solver solver(scene);
    Upres upres(scene);
    double start = 0.0;
    for (int frame = 1; frame <= scene.time.frames; ++frame) {
        solver.advanceFrame(frame);
        upres.advance(UpresInput::fromParts(solver.islandFields()), frame);
        const double base = centreX(solver.fields()), fine = centreX(upres.fine());
        if (frame == 1) start = base;
        if (frame % 4 == 0) {
            EXPECT_NEAR(fine, base, 0.5 * solver.fields().dx) << "frame " << frame;
        }
    }
    // The base smoke did cross: the test asks something.
    EXPECT_GT(centreX(solver.fields()) - start, 0.3);
}

// A ball in the plume's way: the fine smoke goes around it as the base smoke
// does, and none shows inside it (the stirring would carry it in).
TEST(Upres, TheFineSmokeStaysOutOfSolids) {
    Scene scene = smallPlume({"upres.strength=4"});
    ObstacleSettings ball;
    ball.shape = Shape::Sphere;
    ball.center = Vec3f(1.0f, 1.0f, 0.85f);
    ball.radius = 0.25f;
    scene.obstacles.push_back(ball);
    const Fields fine = bake(scene, 16);
    double inside = 0.0, near = 0.0;
    for (int k = 0; k < fine.n.z; ++k)
        for (int j = 0; j < fine.n.y; ++j)
            for (int i = 0; i < fine.n.x; ++i) {
                const Vec3f p = fine.origin + Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * fine.dx;
                const float r = length(p - ball.center);
                if (r < ball.radius - fine.dx) inside += fine.density(i, j, k);
                if (r > ball.radius && r < ball.radius + 0.1f) near += fine.density(i, j, k);
            }
    EXPECT_GT(near, 1.0) << "the plume should reach the ball by frame 16";
    EXPECT_EQ(inside, 0.0);
}

TEST(Upres, SameBitsForAnyThreadCount) {
    const Scene scene = smallPlume();
    setThreadCount(1);
    const Fields one = bake(scene, 10);
    setThreadCount(2);
    const Fields two = bake(scene, 10);
    setThreadCount(0);
    ASSERT_EQ(one.density.size(), two.density.size());
    EXPECT_EQ(std::memcmp(one.density.data(), two.density.data(), one.density.size() * 4), 0);
    EXPECT_EQ(
        std::memcmp(one.temperature.data(), two.temperature.data(), one.temperature.size() * 4), 0);
}

TEST(Upres, TheCacheHoldsTheFineScalarsAndTheBaseVelocity) {
    test::TempDir dir("upres");
    const std::string scene = kSourceDir + "/scenes/bench.toml";
    const test::RunResult r =
        test::runPlume("bake '" + scene +
                           "' --set domain.resolution=24 --set time.frames=6 --set upres.factor=2 "
                           "--vdb cache -q",
                       dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string frame = dir.file("cache/bench_0006.vdb");
    const LoadedVolume v = readVdbVolume(frame, "density", {"velocity"});
    const float baseDx = 2.0f / 24.0f;
    EXPECT_NEAR(v.dx, baseDx / 2.0f, 1e-6f);
    const Grid3<Vec3f> velocity = readVdbVelocity(frame);
    EXPECT_EQ(velocity.nx(), 24);  // the base grid's voxels
    // render-vdb draws the fine cache.
    const test::RunResult render = test::runPlume(
        "render-vdb 'cache/bench_####.vdb' --frames 6 --png png --no-video -q", dir.path());
    EXPECT_EQ(render.status, 0) << render.err;
}

TEST(Upres, TheMemoryEstimateCountsTheFineGrids) {
    const Scene off = loadScene(kSourceDir + "/scenes/bench.toml", {"domain.resolution=32"});
    const Scene on = smallPlume();
    const Vec3i n = on.domain.cells();
    const double fineCells = 8.0 * n.x * n.y * n.z;
    const double more = double(estimateMemoryBytes(on)) - double(estimateMemoryBytes(off));
    // At least the fine density, temperature and stirring velocity, and the
    // renderer's grids at the fine size: well over five floats a fine cell.
    EXPECT_GT(more, 5.0 * 4.0 * fineCells);
    EXPECT_LT(more, 40.0 * 4.0 * fineCells);
}

TEST(Upres, AResumedBakeGoesOnBitForBit) {
    test::TempDir dir("upres_resume");
    const std::string bake = "bake '" + kSourceDir +
                             "/scenes/bench.toml' --set domain.resolution=24 --set upres.factor=2 "
                             "--set 'output.vdb_precision=\"exact\"' -q ";
    ASSERT_EQ(test::runPlume(bake + "--set time.frames=7 --vdb whole", dir.path()).status, 0);
    ASSERT_EQ(test::runPlume(bake + "--set time.frames=4 --vdb parts", dir.path()).status, 0);
    const test::RunResult resumed =
        test::runPlume(bake + "--set time.frames=7 --vdb parts --resume", dir.path());
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    for (const char* frame : {"bench_0005.vdb", "bench_0007.vdb"}) {
        const CacheFrame a = readVdbFrame(dir.file(std::string("whole/") + frame));
        const CacheFrame b = readVdbFrame(dir.file(std::string("parts/") + frame));
        ASSERT_EQ(a.density.size(), b.density.size()) << frame;
        EXPECT_EQ(std::memcmp(a.density.data(), b.density.data(), a.density.size() * 4), 0)
            << frame;
        EXPECT_EQ(std::memcmp(a.temperature.data(), b.temperature.data(), a.temperature.size() * 4),
                  0)
            << frame;
    }
    // Without upres's part of the state, a resume says so in one line.
    std::filesystem::remove(dir.file("parts/bench.resume.upres.1"));
    const test::RunResult lost =
        test::runPlume(bake + "--set time.frames=9 --vdb parts --resume", dir.path());
    EXPECT_NE(lost.status, 0);
    EXPECT_NE(lost.err.find("bench.resume.upres.1"), std::string::npos) << lost.err;
}

}  // namespace
}  // namespace plume
