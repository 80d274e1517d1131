// The sparse solve (solver.sparse, sim/active_box.h): the solver holds a box
// around the smoke and its sources. It must make the smoke a dense solve
// makes, follow the smoke as it rises, be the same for any thread count, resume
// bit for bit, and write caches in the domain's voxels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

#include "core/parallel.h"
#include "io/solver_state.h"
#include "io/vdb_cache.h"
#include "scene/loader.h"
#include "sim/active_box.h"
#include "sim/solver.h"
#include "support/scene_errors.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

using test::kSourceDir;

// bench.toml's plume (an open box, a sphere of hot smoke near the floor) in a
// domain twice as wide as tall (96x96x48 cells), where most of the air stays
// still; plume's default buoyancy and cooling, so in 40 frames its head is
// still below the ceiling.
Scene wideScene(bool sparse) {
    return loadScene(kSourceDir + "/scenes/bench.toml",
                     {"domain.size=[6.0, 6.0, 3.0]", "domain.resolution=96",
                      "physics.buoyancy_heat=0.5", "physics.temperature_dissipation=0.5",
                      "emitter[1].center=[3.0, 3.0, 0.3]", "emitter[1].radius=0.2",
                      std::string("solver.sparse=") + (sparse ? "true" : "false")});
}

double boxVolume(const Box3i& b) {
    return double(b.hi.x - b.lo.x) * double(b.hi.y - b.lo.y) * double(b.hi.z - b.lo.z);
}

struct Moments {
    double mass = 0, x = 0, y = 0, z = 0;  // total density; centroid in domain cells
};

Moments moments(const Fields& f) {
    Moments m;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                const double d = f.density(i, j, k);
                m.mass += d;
                m.x += d * (i + f.offset.x + 0.5);
                m.y += d * (j + f.offset.y + 0.5);
                m.z += d * (k + f.offset.z + 0.5);
            }
    m.x /= m.mass, m.y /= m.mass, m.z /= m.mass;
    return m;
}

bool sameBits(const ScalarGrid& a, const ScalarGrid& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(SparseSolve, MakesTheSmokeADenseSolveMakesInAFractionOfTheCells) {
    Solver dense(wideScene(false)), sparse(wideScene(true));
    const Box3i first = sparse.activeBox();
    for (int frame = 1; frame <= 40; ++frame) {
        dense.advanceFrame(frame);
        sparse.advanceFrame(frame);
    }
    ASSERT_GT(sparse.activeBox().hi.z, first.hi.z) << "the box should have grown by now";
    const Moments d = moments(dense.fields()), s = moments(sparse.fields());
    EXPECT_NEAR(s.mass / d.mass, 1.0, 0.02);
    EXPECT_NEAR(s.x, d.x, 0.5);
    EXPECT_NEAR(s.y, d.y, 0.5);
    // (0.05 cells apart when measured; losing the velocity where the box
    // grows puts the sparse plume 4.6 cells lower with 16% less smoke.)
    EXPECT_NEAR(s.z, d.z, 0.5) << "the sparse plume rises as far as the dense one";
    // The plume's box (its mushroom cap spreading) is under half the domain.
    const Box3i box = sparse.activeBox();
    EXPECT_LT(boxVolume(box), 0.5 * boxVolume(dense.activeBox()));
    EXPECT_EQ(sparse.fields().n.x, box.hi.x - box.lo.x);
    EXPECT_EQ(sparse.fields().offset, box.lo);
}

double total(const ScalarGrid& g) {
    double sum = 0;
    for (float v : g.values()) sum += v;
    return sum;
}

// Every field moves with the box: the fire golden scene in a box twice as
// tall, whose box grows as the flames rise, and its fuel and flame must come
// along (a resize that dropped them left no fire after it).
TEST(SparseSolve, TheFireMovesWithTheBox) {
    const std::string path = kSourceDir + "/tests/golden/scenes/fire.toml";
    const std::vector<std::string> tall{"domain.size=[1.0, 1.0, 2.4]", "domain.resolution=48"};
    std::vector<std::string> denseSets = tall;
    denseSets.push_back("solver.sparse=false");
    Solver dense(loadScene(path, denseSets)), sparse(loadScene(path, tall));
    const Vec3i first = sparse.fields().n;
    for (int frame = 1; frame <= 24; ++frame) {
        dense.advanceFrame(frame);
        sparse.advanceFrame(frame);
    }
    ASSERT_FALSE(sparse.fields().n == first) << "the box should have changed by frame 24";
    const Fields &d = dense.fields(), &s = sparse.fields();
    ASSERT_TRUE(s.burns());
    EXPECT_NEAR(total(s.fuel) / total(d.fuel), 1.0, 0.05);
    EXPECT_NEAR(total(s.flame) / total(d.flame), 1.0, 0.05);
    EXPECT_NEAR(total(s.density) / total(d.density), 1.0, 0.05);
}

TEST(SparseSolve, TheBoxFollowsTheSmokeWithRoomToSpare) {
    const Scene scene = wideScene(true);
    const Vec3i cells = scene.domain.cells();
    Solver solver(scene);
    const int firstTop = solver.activeBox().hi.z;
    int lastTop = 0;
    for (int frame = 1; frame <= 48; ++frame) {
        solver.advanceFrame(frame);
        const Box3i box = solver.activeBox();
        const Box3i smoke = scalarActivity(solver.fields(), scene.physics.ambientTemperature);
        ASSERT_FALSE(smoke.empty());
        // The smoke keeps clear of every side of the box that is inside the
        // domain: the box is fitted before each substep with room for what
        // the substep carries it (cfl cells), so after it at least the two
        // cells a blend reads past a sample are left.
        const int room = 2;
        for (int a = 0; a < 3; ++a) {
            if (box.lo[a] > 0) {
                EXPECT_GE(smoke.lo[a], room) << "frame " << frame << ", axis " << a;
            }
            if (box.hi[a] < cells[a]) {
                EXPECT_LE(smoke.hi[a], (box.hi[a] - box.lo[a]) - room)
                    << "frame " << frame << ", axis " << a;
            }
            EXPECT_EQ(box.lo[a] % kTileCells, 0);
        }
        EXPECT_GE(box.hi.z, lastTop) << "the box grows upward with the plume";
        lastTop = box.hi.z;
    }
    EXPECT_GE(lastTop, firstTop + 2 * kTileCells) << "the box grew with the rising smoke";
}

// What the margin around the smoke is for (sim/solver.cpp, fitIslands): a box
// is fitted before each substep so that the smoke lies ceil(cfl) + 2 cells
// inside every side of it within the domain. A substep at the CFL limit
// carries the smoke ceil(cfl) cells (cfl cells of travel, the blend reaching
// into the cell beyond), so after it two cells of still air are left between
// the smoke and the box's side: the cells a blend reads past a sample, so no
// sample near the smoke reads the box's edge, beyond which the air is assumed
// still. Smoke carried at the limit itself (a wind as fast as the smoke, at a
// cfl of 2.5 so a substep ends between cells) comes as close as that, and no
// closer, whenever the box is tight; a margin a cell smaller lets it into those
// two cells.
TEST(SparseSolve, ASubstepAtTheCflLimitLeavesTheMarginsTwoCellsOfStillAir) {
    constexpr float kSpeed = 4.0f;  // m/s along x: the wind, the emitter's, the whole flow
    const std::string wind = "[" + std::to_string(kSpeed) + ", 0.0, 0.0]";
    const Scene scene =
        loadScene(kSourceDir + "/scenes/bench.toml",
                  {"domain.size=[4.0, 1.0, 1.0]", "domain.resolution=128", "time.cfl=2.5",
                   "physics.buoyancy_heat=0.0", "physics.buoyancy_density=0.0",
                   "physics.wind=" + wind, "emitter[1].center=[0.5, 0.5, 0.5]",
                   "emitter[1].radius=0.1", "emitter[1].velocity=" + wind});
    const Vec3i cells = scene.domain.cells();
    const float ambient = scene.physics.ambientTemperature;
    Solver solver(scene);
    solver.fields().u.fill(kSpeed);  // the air already moves with the wind
    solver.advanceFrame(1);          // frame 1 switches the emitter on

    // The least still air between the smoke and a side of an island inside
    // the domain, in cells.
    auto room = [&] {
        int least = 1 << 30;
        const std::vector<Box3i> boxes = solver.islandBoxes();
        const std::vector<const Fields*> fields = solver.islandFields();
        for (size_t n = 0; n < boxes.size(); ++n) {
            const Box3i smoke = scalarActivity(*fields[n], ambient);
            if (smoke.empty()) continue;
            for (int a = 0; a < 3; ++a) {
                if (boxes[n].lo[a] > 0) least = std::min(least, smoke.lo[a]);
                if (boxes[n].hi[a] < cells[a])
                    least = std::min(least, (boxes[n].hi[a] - boxes[n].lo[a]) - smoke.hi[a]);
            }
        }
        return least;
    };
    int closest = room(), substeps = 0;
    ASSERT_GE(closest, 2) << "after frame 1";
    // Substeps as advanceFrame sizes them at the limit: cfl cells at the
    // largest speed, until the box reaches the domain's far side.
    while (solver.activeBox().hi.x < cells.x && substeps < 100) {
        const float speed = solver.maxSpeed();
        ASSERT_NEAR(speed, kSpeed, 0.01f * kSpeed) << "the smoke should move with the wind";
        solver.substep(scene.time.cfl * scene.domain.dx() / speed);
        ++substeps;
        const int left = room();
        ASSERT_GE(left, 2) << "substep " << substeps << ": smoke " << left
                           << " cells from the side of its box";
        closest = std::min(closest, left);
    }
    EXPECT_GT(substeps, 20) << "the smoke should have crossed most of the domain";
    EXPECT_EQ(closest, 2) << "the smoke should have come as close to a side as the margin lets it";
}

TEST(SparseSolve, SameForAnyThreadCount) {
    const Scene scene = wideScene(true);
    Fields result[2];
    Box3i boxes[2];
    for (int t = 0; t < 2; ++t) {
        setThreadCount(t == 0 ? 1 : 3);
        Solver solver(scene);
        for (int frame = 1; frame <= 8; ++frame) solver.advanceFrame(frame);
        result[t] = solver.fields();
        boxes[t] = solver.activeBox();
    }
    setThreadCount(0);
    EXPECT_EQ(boxes[0], boxes[1]);
    EXPECT_TRUE(sameBits(result[0].density, result[1].density));
    EXPECT_TRUE(sameBits(result[0].w, result[1].w));
}

TEST(SparseSolve, ResumesFromItsStateFileBitForBit) {
    const Scene scene = wideScene(true);
    // Stop just after the box first moved, and go on a few frames.
    Solver straight(scene);
    const Box3i first = straight.activeBox();
    int stop = 0;
    for (int frame = 1; frame <= 60 && !stop; ++frame) {
        straight.advanceFrame(frame);
        if (!(straight.activeBox() == first)) stop = frame + 1;
    }
    ASSERT_GT(stop, 0) << "the box never moved";
    straight.advanceFrame(stop);

    test::TempDir dir("plume_sparse_resume");
    const std::string path = (dir.path() / "wide.resume").string();
    {
        Solver stopped(scene);
        for (int frame = 1; frame <= stop; ++frame) stopped.advanceFrame(frame);
        const Grid3<double> pressure = stopped.projection().warmStart();
        writeSolverState(path, stopped.fields(), stop, "hash", "wide", &pressure);
    }
    Solver resumed(scene);  // a fresh solver holds the box it starts with
    SolverSnapshot state = resumed.snapshot();
    readSolverState(path, state.fields, &state.pressure);
    resumed.restore(state);
    for (int frame = stop + 1; frame <= stop + 4; ++frame) {
        resumed.advanceFrame(frame);
        straight.advanceFrame(frame);
    }
    EXPECT_EQ(resumed.activeBox(), straight.activeBox());
    EXPECT_TRUE(sameBits(resumed.fields().density, straight.fields().density));
    EXPECT_TRUE(sameBits(resumed.fields().u, straight.fields().u));
    EXPECT_TRUE(sameBits(resumed.fields().temperature, straight.fields().temperature));
}

TEST(SparseSolve, CachesTheDomainsVoxels) {
    const Scene scene = wideScene(true);
    Solver solver(scene);
    for (int frame = 1; frame <= 6; ++frame) solver.advanceFrame(frame);
    const Fields& f = solver.fields();
    ASSERT_NE(f.offset, Vec3i{});
    test::TempDir dir("plume_sparse_cache");
    const std::string path = (dir.path() / "wide_0006.vdb").string();
    writeVdbFrame(path, f, 6, "wide", CacheOptions{false, "velocity", 0.0f});
    // Read back over the domain: the smoke sits where the box held it.
    const CacheFrame c = readVdbFrame(path, "velocity");
    EXPECT_EQ(c.n, scene.domain.cells());
    EXPECT_NEAR(c.origin.x, 0.0f, 1e-6f);
    size_t compared = 0;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                const float d = f.density(i, j, k);
                if (d == 0.0f) continue;
                ASSERT_EQ(c.density(i + f.offset.x, j + f.offset.y, k + f.offset.z), d);
                ++compared;
            }
    EXPECT_GT(compared, 100u);
}

}  // namespace
}  // namespace plume
