// upres.factor other than 2: the fine voxel is the base voxel over the
// factor, the fine grid the factor times the base box's cells, and the cache
// (a bake's with upres, and plume upres's) holds the fine scalars at that
// voxel size beside the base velocity.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "io/vdb_cache.h"
#include "scene/loader.h"
#include "sim/solver.h"
#include "sim/upres/upres.h"
#include "support/run.h"
#include "support/scene_errors.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

using test::kSourceDir;

const std::string kBench = kSourceDir + "/scenes/bench.toml";
constexpr int kCells = 24;                       // the base grid along each axis
constexpr float kBaseDx = 2.0f / float(kCells);  // bench.toml's domain is 2 m wide

class UpresFactor : public ::testing::TestWithParam<int> {};

TEST_P(UpresFactor, TheFineGridIsFactorTimesFiner) {
    const int factor = GetParam();
    const Scene scene = loadScene(kBench, {"domain.resolution=" + std::to_string(kCells),
                                           "upres.factor=" + std::to_string(factor)});
    Solver solver(scene);
    Upres upres(scene);
    ASSERT_EQ(upres.factor(), factor);
    for (int frame = 1; frame <= 4; ++frame) {
        solver.advanceFrame(frame);
        upres.advance(UpresInput::fromParts(solver.islandFields()), frame);
    }
    const Fields& base = solver.fields();
    const Fields& fine = upres.fine();
    EXPECT_FLOAT_EQ(fine.dx, base.dx / float(factor));
    const Vec3i box = upres.box().size();
    EXPECT_EQ(fine.n.x, factor * box.x);
    EXPECT_EQ(fine.n.y, factor * box.y);
    EXPECT_EQ(fine.n.z, factor * box.z);
    EXPECT_EQ(fine.density.nx(), factor * box.x);
    EXPECT_EQ(fine.density.nz(), factor * box.z);
    EXPECT_EQ(fine.domainSize().x, factor * base.domainSize().x);
    EXPECT_EQ(fine.domainSize().z, factor * base.domainSize().z);
    // The fine box lies where the base box does in the world.
    const Vec3f lo =
        base.domainOrigin() +
        Vec3f(float(upres.box().lo.x), float(upres.box().lo.y), float(upres.box().lo.z)) * base.dx;
    EXPECT_NEAR(fine.origin.x, lo.x, 1e-5f);
    EXPECT_NEAR(fine.origin.z, lo.z, 1e-5f);
    const VolumeView view = upres.view();
    EXPECT_FLOAT_EQ(view.dx, base.dx / float(factor));
}

// The cache's frames: a bake with upres.factor, and plume upres --factor on
// the base cache, both hold the fine scalars at base voxel / factor, the
// velocity on the base voxels, and say the factor.
TEST_P(UpresFactor, TheCachesVoxelFollowsTheFactor) {
    const int factor = GetParam();
    const std::string f = std::to_string(factor);
    test::TempDir dir("upres_factor");
    const std::string bake = "bake '" + kBench +
                             "' --set domain.resolution=" + std::to_string(kCells) +
                             " --set time.frames=3";
    test::RunResult r =
        test::runPlume(bake + " --set upres.factor=" + f + " --vdb A -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume(bake + " --vdb B -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume("upres 'B/bench_####.vdb' --scene '" + kBench +
                           "' --set domain.resolution=" + std::to_string(kCells) + " --factor " +
                           f + " -o C -q",
                       dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* folder : {"A", "C"}) {
        SCOPED_TRACE(folder);
        const std::string path = dir.file(std::string(folder) + "/bench_0003.vdb");
        const CacheFrame frame = readVdbFrame(path);
        EXPECT_EQ(frame.upresFactor, factor);
        EXPECT_NEAR(frame.dx, kBaseDx / float(factor), 1e-6f);
        EXPECT_EQ(frame.velocity.nx(), kCells);  // the base grid's voxels
        EXPECT_EQ(frame.n.x, factor * kCells);
        // As another reader sees it: the density grid's voxel.
        const LoadedVolume v = readVdbVolume(path, "density", {"velocity"});
        EXPECT_NEAR(v.dx, kBaseDx / float(factor), 1e-6f);
    }
}

INSTANTIATE_TEST_SUITE_P(Upres, UpresFactor, ::testing::Values(3, 4));

}  // namespace
}  // namespace plume
