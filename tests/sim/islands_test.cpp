// A sparse solve holds a box per cluster of smoke (an island): smoke far
// apart is solved as if each puff were alone, islands that grow into each
// other become one, and the state of several resumes bit for bit.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>

#include "io/solver_state.h"
#include "scene/loader.h"
#include "sim/active_box.h"
#include "sim/solver.h"
#include "support/scene_errors.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

using test::kSourceDir;

// Two bench.toml plumes `apart` metres apart along x in a 12 x 4 x 2 m open
// box (192x64x32 cells), the first 2 m from the min side.
Scene twoPlumes(float apart, const std::string& more = "physics.wind=[0.0, 0.0, 0.0]") {
    return loadScene(kSourceDir + "/tests/bench/two_plumes.toml",
                     {"domain.size=[12.0, 4.0, 2.0]", "domain.resolution=192",
                      "emitter[1].center=[2.0, 2.0, 0.3]",
                      "emitter[2].center=[" + std::to_string(2.0f + apart) + ", 2.0, 0.3]", more});
}

std::string str(const Box3i& b) {
    auto v = [](Vec3i p) {
        return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ", " + std::to_string(p.z) +
               ")";
    };
    return "[" + v(b.lo) + ", " + v(b.hi) + ")";
}

// The islands' contract (sim/solver.h): no two islands' boxes touch or
// overlap. Half-open boxes of cells touch when their closed extents meet on
// every axis: a shared face, edge or corner, with no still air between.
testing::AssertionResult islandsApart(const Solver& solver) {
    const std::vector<Box3i> boxes = solver.islandBoxes();
    for (size_t a = 0; a < boxes.size(); ++a)
        for (size_t b = a + 1; b < boxes.size(); ++b) {
            const Box3i &p = boxes[a], &q = boxes[b];
            bool meet = true;
            for (int axis = 0; axis < 3; ++axis)
                meet = meet && p.lo[axis] <= q.hi[axis] && q.lo[axis] <= p.hi[axis];
            if (meet)
                return testing::AssertionFailure()
                       << "islands " << a << " " << str(p) << " and " << b << " " << str(q)
                       << (p.lo.x < q.hi.x && q.lo.x < p.hi.x && p.lo.y < q.hi.y &&
                                   q.lo.y < p.hi.y && p.lo.z < q.hi.z && q.lo.z < p.hi.z
                               ? " overlap"
                               : " touch");
        }
    return testing::AssertionSuccess();
}

double volume(const Box3i& b) {
    return double(b.hi.x - b.lo.x) * double(b.hi.y - b.lo.y) * double(b.hi.z - b.lo.z);
}

// Whether `part` (a solve of one box) holds the values `all` (fields over a
// box around it, in domain cells) holds there, bit for bit.
bool sameBitsWithin(const ScalarGrid& all, Vec3i allOffset, const ScalarGrid& part,
                    Vec3i partOffset) {
    const Vec3i s{partOffset.x - allOffset.x, partOffset.y - allOffset.y,
                  partOffset.z - allOffset.z};
    for (int k = 0; k < part.nz(); ++k)
        for (int j = 0; j < part.ny(); ++j)
            if (std::memcmp(&all(s.x, j + s.y, k + s.z), &part(0, j, k),
                            size_t(part.nx()) * sizeof(float)) != 0)
                return false;
    return true;
}

// 8 m apart (128 cells, a whole number of tiles), each plume's island is the
// other moved along x, so each is solved exactly as a plume alone would be.
TEST(Islands, SmokeApartIsSolvedAsIfAlone) {
    const Scene two = twoPlumes(8.0f);
    Scene one = two;
    one.emitters.pop_back();
    Solver both(two), alone(one);
    const std::vector<Box3i> first = both.islandBoxes();
    ASSERT_EQ(first.size(), 2u) << "two emitters apart, two islands";
    for (int frame = 1; frame <= 24; ++frame) {
        both.advanceFrame(frame);
        alone.advanceFrame(frame);
        ASSERT_TRUE(islandsApart(both)) << "frame " << frame;
    }
    const std::vector<Box3i> islands = both.islandBoxes();
    ASSERT_EQ(islands.size(), 2u);
    EXPECT_EQ(islands[0], alone.activeBox());
    EXPECT_GT(islands[0].hi.z, first[0].hi.z) << "the islands should have grown with the smoke";
    const Fields& all = std::as_const(both).fields();
    const Fields& a = alone.fields();
    EXPECT_TRUE(sameBitsWithin(all.density, all.offset, a.density, a.offset));
    EXPECT_TRUE(sameBitsWithin(all.temperature, all.offset, a.temperature, a.offset));
    EXPECT_TRUE(sameBitsWithin(all.w, all.offset, a.w, a.offset));
    // The other plume is the same smoke, 128 cells along.
    EXPECT_TRUE(sameBitsWithin(all.density, all.offset, a.density,
                               {a.offset.x + 128, a.offset.y, a.offset.z}));
    // What the solve holds: the two islands, not the box around both.
    EXPECT_LT(volume(islands[0]) + volume(islands[1]), 0.6 * volume(both.activeBox()));
    // Between them the air is still.
    const int between = (islands[0].hi.x + islands[1].lo.x) / 2 - all.offset.x;
    EXPECT_EQ(all.density(between, 16 - all.offset.y, 8 - all.offset.z), 0.0f);
}

// Two fires apart: each island keeps its fuel and flame, and burns as the
// fire alone would, across the islands' growth.
TEST(Islands, FiresApartBurnAsIfAlone) {
    Scene two = twoPlumes(8.0f);
    for (EmitterSettings& e : two.emitters) e.fuel = 1.0f;
    Scene one = two;
    one.emitters.pop_back();
    Solver both(two), alone(one);
    const std::vector<Box3i> first = both.islandBoxes();
    ASSERT_EQ(first.size(), 2u);
    for (int frame = 1; frame <= 16; ++frame) {
        both.advanceFrame(frame);
        alone.advanceFrame(frame);
        ASSERT_TRUE(islandsApart(both)) << "frame " << frame;
    }
    ASSERT_EQ(both.islandBoxes().size(), 2u);
    EXPECT_NE(both.islandBoxes(), first) << "the islands should have grown with the fire";
    const Fields& all = std::as_const(both).fields();
    const Fields& a = alone.fields();
    ASSERT_TRUE(all.burns() && a.burns());
    double flame = 0;
    for (float v : a.flame.values()) flame += v;
    EXPECT_GT(flame, 0.0) << "the fire should burn";
    for (const ScalarGrid* g : {&all.fuel, &all.flame, &all.density}) {
        const ScalarGrid& mine = g == &all.fuel ? a.fuel : g == &all.flame ? a.flame : a.density;
        EXPECT_TRUE(sameBitsWithin(*g, all.offset, mine, a.offset));
        EXPECT_TRUE(sameBitsWithin(*g, all.offset, mine, {a.offset.x + 128, a.offset.y, a.offset.z}));
    }
}

// Two islands at first; one once a wind along x carries the first plume's
// smoke into the tile between them. They are apart after every frame until
// then: two islands whose boxes grow to touch become one at once.
TEST(Islands, IslandsThatMeetBecomeOne) {
    Solver solver(twoPlumes(2.5f, "physics.wind=[1.0, 0.0, 0.0]"));
    ASSERT_EQ(solver.islandBoxes().size(), 2u);
    ASSERT_TRUE(islandsApart(solver));
    int frame = 1;
    for (; frame <= 40 && solver.islandBoxes().size() > 1; ++frame) {
        solver.advanceFrame(frame);
        ASSERT_TRUE(islandsApart(solver)) << "frame " << frame;
    }
    ASSERT_EQ(solver.islandBoxes().size(), 1u) << "still apart after frame " << frame - 1;
    for (int more = 0; more < 4; ++more) solver.advanceFrame(frame++);
    // The one island holds both plumes (at cells 32 and 72 along x) and the
    // air between.
    const Fields& f = solver.fields();
    EXPECT_LE(f.offset.x, 32 - 8);
    EXPECT_GE(f.offset.x + f.n.x, 72 + 8);
    double left = 0, right = 0;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i)
                (i + f.offset.x < 52 ? left : right) += f.density(i, j, k);
    EXPECT_GT(left, 1.0);
    EXPECT_NEAR(left / right, 1.0, 0.05) << "two plumes alike";
}

TEST(Islands, ResumeFromTheirStateFileBitForBit) {
    const Scene scene = twoPlumes(8.0f);
    const int stop = 17;  // the islands grow after it
    Solver straight(scene);
    for (int frame = 1; frame <= stop; ++frame) straight.advanceFrame(frame);
    ASSERT_EQ(straight.islandBoxes().size(), 2u);

    test::TempDir dir("plume_islands_resume");
    const std::string path = (dir.path() / "two.resume").string();
    {
        // As `plume bake` writes it: island after island.
        std::vector<Grid3<double>> pressures;
        for (const Projection* p : straight.islandProjections()) pressures.push_back(p->warmStart());
        std::vector<SolverStatePart> parts;
        for (size_t i = 0; i < pressures.size(); ++i)
            parts.push_back({straight.islandFields()[i], &pressures[i]});
        writeSolverState(path, parts, stop, "hash", "two");
    }
    Solver resumed(scene);
    SolverSnapshot state = resumed.snapshot();
    const SolverState saved = readSolverState(path, state.fields, &state.pressure);
    ASSERT_EQ(saved.islands, straight.islandBoxes());
    state.islands = saved.islands;
    resumed.restore(state);
    const std::vector<Box3i> atStop = straight.islandBoxes();
    for (int frame = stop + 1; frame <= stop + 6; ++frame) {
        resumed.advanceFrame(frame);
        straight.advanceFrame(frame);
        ASSERT_TRUE(islandsApart(resumed)) << "frame " << frame;
    }
    EXPECT_NE(straight.islandBoxes(), atStop) << "the islands should have moved since the stop";
    EXPECT_EQ(resumed.islandBoxes(), straight.islandBoxes());
    const Fields &r = std::as_const(resumed).fields(), &s = std::as_const(straight).fields();
    ASSERT_EQ(r.offset, s.offset);
    ASSERT_EQ(r.n, s.n);
    EXPECT_EQ(std::memcmp(r.density.data(), s.density.data(), r.density.size() * 4), 0);
    EXPECT_EQ(std::memcmp(r.u.data(), s.u.data(), r.u.size() * 4), 0);
    EXPECT_EQ(std::memcmp(r.temperature.data(), s.temperature.data(), r.temperature.size() * 4),
              0);
}

TEST(Islands, ADenseSolveHoldsTheDomain) {
    Scene scene = twoPlumes(8.0f);
    scene.solver.sparse = false;
    Solver solver(scene);
    ASSERT_EQ(solver.islandBoxes().size(), 1u);
    EXPECT_EQ(solver.activeBox(), (Box3i{{0, 0, 0}, scene.domain.cells()}));
}

}  // namespace
}  // namespace plume
