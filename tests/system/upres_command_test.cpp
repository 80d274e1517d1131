// plume upres: upres on its own, from an existing cache. Its promise: from an
// exact cache (output.vdb_precision = "exact") the fine frames are the ones a
// bake with upres writes, bit for bit; from a half-float cache, close ones.
// Bad input is one line and exit status 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

#include "io/vdb_cache.h"
#include "support/run.h"
#include "support/scene_errors.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

using test::kSourceDir;

const std::string kBench = kSourceDir + "/scenes/bench.toml";
const std::string kSmall = " --set domain.resolution=24 --set time.frames=6";

std::string framePath(const test::TempDir& dir, const std::string& folder,
                      const std::string& name, int frame) {
    char file[64];
    std::snprintf(file, sizeof file, "/%s_%04d.vdb", name.c_str(), frame);
    return dir.file(folder) + file;
}

bool sameBits(const ScalarGrid& a, const ScalarGrid& b) {
    return a.nx() == b.nx() && a.ny() == b.ny() && a.nz() == b.nz() &&
           std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

bool sameBits(const Grid3<Vec3f>& a, const Grid3<Vec3f>& b) {
    if (a.nx() != b.nx() || a.ny() != b.ny() || a.nz() != b.nz()) return false;
    for (size_t n = 0; n < a.size(); ++n)
        if (std::memcmp(&a[n], &b[n], sizeof(Vec3f)) != 0) return false;
    return true;
}

// Bakes `scene` (with `sets`) inline with upres into A/ and without into B/,
// both exact, runs plume upres on B/ into C/, and expects every frame of C to
// read back as A's.
void expectInlineBits(const std::string& scene, const std::string& name, const std::string& sets,
                      int frames, bool fire) {
    test::TempDir dir("upres_command");
    const std::string bake = "bake '" + scene + "'" + sets + " --set output.vdb_precision=exact";
    test::RunResult r = test::runPlume(bake + " --set upres.factor=2 --vdb A -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume(bake + " --vdb B -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume("upres 'B/" + name + "_####.vdb' --scene '" + scene + "'" + sets +
                           " --factor 2 -o C -q --threads 1",
                       dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    for (int frame = 1; frame <= frames; ++frame) {
        SCOPED_TRACE("frame " + std::to_string(frame));
        const CacheFrame a = readVdbFrame(framePath(dir, "A", name, frame));
        const CacheFrame c = readVdbFrame(framePath(dir, "C", name, frame));
        EXPECT_EQ(c.upresFactor, 2);
        EXPECT_TRUE(c.exact);  // the base cache's precision, the scene not saying
        EXPECT_EQ(a.n, c.n);
        EXPECT_EQ(a.held, c.held);
        EXPECT_EQ(a.dx, c.dx);
        EXPECT_TRUE(sameBits(a.density, c.density));
        EXPECT_TRUE(sameBits(a.temperature, c.temperature));
        EXPECT_TRUE(sameBits(a.velocity, c.velocity));
        EXPECT_EQ(a.burns(), fire);
        EXPECT_EQ(c.burns(), fire);
        if (fire) {
            EXPECT_TRUE(sameBits(a.fuel, c.fuel));
            EXPECT_TRUE(sameBits(a.flame, c.flame));
            // By the last frame the fire has caught: the flames are compared too.
            if (frame == frames) {
                EXPECT_GT(*std::max_element(c.flame.data(), c.flame.data() + c.flame.size()),
                          0.0f);
            }
        }
    }
}

TEST(UpresCommand, AnExactCacheGivesTheInlineUpresBitForBit) {
    expectInlineBits(kBench, "bench", kSmall, 6, false);
}

TEST(UpresCommand, AnExactFireCacheGivesTheInlineUpresBitForBit) {
    expectInlineBits(kSourceDir + "/scenes/campfire.toml", "campfire",
                     " --set domain.resolution=20 --set time.frames=8", 8, true);
}

// L1 distance between two fine density grids, per unit of the first's mass.
double densityDistance(const CacheFrame& a, const CacheFrame& b) {
    double diff = 0.0, mass = 0.0;
    for (size_t n = 0; n < a.density.size(); ++n) {
        diff += std::fabs(a.density[n] - b.density[n]);
        mass += a.density[n];
    }
    return diff / mass;
}

// A half-float cache's velocity is rounded to 11 bits and its values below
// 1e-4 dropped: the fine smoke moves a little differently, by much less than
// the turbulence moves it. Measured (bench at 24^3, frames 2-6): 0.3% to 1.4%
// of the smoke's mass (largest voxel: 7% of the peak at frame 6), against
// 2.4% to 12.5% between upres with and without its turbulence.
TEST(UpresCommand, AHalfFloatCacheGivesACloseResult) {
    test::TempDir dir("upres_command");
    const std::string bake = "bake '" + kBench + "'" + kSmall;
    const std::string inline_ = bake + " --set upres.factor=2 --set output.vdb_precision=exact";
    test::RunResult r = test::runPlume(inline_ + " --vdb A -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume(inline_ + " --set upres.strength=0 --vdb calm -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume(bake + " --vdb B -q", dir.path());  // half floats, the default
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume("upres 'B/bench_####.vdb' --scene '" + kBench + "'" + kSmall +
                           " --set output.vdb_precision=exact -o C -q",
                       dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    for (int frame = 2; frame <= 6; ++frame) {
        const CacheFrame a = readVdbFrame(framePath(dir, "A", "bench", frame));
        const CacheFrame c = readVdbFrame(framePath(dir, "C", "bench", frame));
        const CacheFrame calm = readVdbFrame(framePath(dir, "calm", "bench", frame));
        ASSERT_EQ(a.n, c.n);
        const double half = densityDistance(a, c), turbulence = densityDistance(a, calm);
        EXPECT_LT(half, 0.03) << "frame " << frame;
        EXPECT_LT(half, 0.25 * turbulence) << "frame " << frame << ": turbulence " << turbulence;
        EXPECT_GT(half, 0.0) << "frame " << frame;  // not exact: the test compares something
    }
}

TEST(UpresCommand, WritesOnlyTheFramesAskedForAndRenderVdbDrawsThem) {
    test::TempDir dir("upres_command");
    test::RunResult r = test::runPlume("bake '" + kBench + "'" + kSmall + " --vdb B -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string upres = "upres 'B/bench_####.vdb' --scene '" + kBench + "'" + kSmall;
    r = test::runPlume(upres + " -o C -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    // --frames limits what is written; every frame before still runs.
    r = test::runPlume(upres + " --frames 5-6 -o D -q --threads 2", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(test::listDir(dir.path() / "D"),
              (std::vector<std::string>{"bench_0005.vdb", "bench_0006.vdb"}));
    const CacheFrame c = readVdbFrame(framePath(dir, "C", "bench", 6));
    const CacheFrame d = readVdbFrame(framePath(dir, "D", "bench", 6));
    EXPECT_TRUE(sameBits(c.density, d.density));
    // render-vdb draws the fine cache.
    r = test::runPlume("render-vdb 'C/bench_####.vdb' --scene '" + kBench +
                           "' --set render.width=64 --set render.height=48 --frames 6 --png png "
                           "--no-video -q",
                       dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "png" / "bench_0006.png"));
}

TEST(UpresCommand, BadInputIsOneLineAndStatusTwo) {
    test::TempDir dir("upres_command");
    test::RunResult r = test::runPlume("bake '" + kBench + "'" + kSmall + " --vdb B -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string scene = " --scene '" + kBench + "'" + kSmall;
    auto expectError = [&](const std::string& args, const std::string& says) {
        SCOPED_TRACE(args);
        const test::RunResult e = test::runPlume(args, dir.path());
        EXPECT_EQ(e.status, 2) << e.err;
        EXPECT_NE(e.err.find(says), std::string::npos) << e.err;
        EXPECT_EQ(std::count(e.err.begin(), e.err.end(), '\n'), 1) << e.err;
    };
    // Without --scene (another tool's cache) the velocity grid is still needed.
    expectError("upres 'B/bench_####.vdb' -o C --set output.velocity_name=vel", "'vel'");
    expectError("upres 'nothing/bench_####.vdb' -o C" + scene, "nothing/bench_####.vdb");
    expectError("upres 'B/bench_####.vdb' -o C --factor 5" + scene, "--factor 5");
    expectError("upres 'B/bench_####.vdb' -o C --scene '" + kBench + "'", "domain");
    expectError("upres 'B/bench_####.vdb' -o B" + scene, "overwrite");
    expectError("upres 'B/bench_####.vdb' -o C --frames 4-9" + scene, "frames 1-6");
    // Refused before any output folder is made.
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "C"));
    // An upres cache is not a base cache.
    r = test::runPlume("upres 'B/bench_####.vdb' -o C -q" + scene, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    expectError("upres 'C/bench_####.vdb' -o D" + scene, "already has upres");
    // A frame missing: the run needs every frame from 1.
    std::filesystem::remove(framePath(dir, "B", "bench", 3));
    expectError("upres 'B/bench_####.vdb' -o D" + scene, "frame 3 is missing");
    std::filesystem::remove(framePath(dir, "B", "bench", 1));
    std::filesystem::remove(framePath(dir, "B", "bench", 2));
    expectError("upres 'B/bench_####.vdb' -o D" + scene, "starts at frame 4");
}

}  // namespace
}  // namespace plume
