// Solver::snapshot / restore, the state behind bake --resume: a solver
// restored from a snapshot goes on bit for bit as the one it was taken from.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <tuple>

#include "core/error.h"
#include "scene/loader.h"
#include "sim/solver.h"

namespace plume {
namespace {

const std::string kGolden = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/";

bool sameBits(const ScalarGrid& a, const ScalarGrid& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

void expectSameState(const Fields& a, const Fields& b) {
    EXPECT_TRUE(sameBits(a.u, b.u));
    EXPECT_TRUE(sameBits(a.v, b.v));
    EXPECT_TRUE(sameBits(a.w, b.w));
    EXPECT_TRUE(sameBits(a.density, b.density));
    EXPECT_TRUE(sameBits(a.temperature, b.temperature));
    EXPECT_EQ(a.solid.values(), b.solid.values());
    EXPECT_EQ(a.time, b.time);
}

// Each pressure method, and each way a substep advances the velocity: the
// reflection's second projection starts from the first's pressure, and the
// next substep from the second's, which the snapshot holds.
class SolverSnapshotTest : public testing::TestWithParam<std::tuple<const char*, const char*>> {};

TEST_P(SolverSnapshotTest, RestoredSolverContinuesBitForBit) {
    const auto [pressure, advection] = GetParam();
    const Scene scene = loadScene(kGolden + "obstacle.toml",
                                  {std::string("solver.pressure=\"") + pressure + "\"",
                                   std::string("solver.advection=\"") + advection + "\""});
    Solver straight(scene);
    for (int frame = 1; frame <= 5; ++frame) straight.advanceFrame(frame);

    Solver stopped(scene);
    for (int frame = 1; frame <= 3; ++frame) stopped.advanceFrame(frame);
    const SolverSnapshot state = stopped.snapshot();

    Solver resumed(scene);  // a fresh solver, as a resumed bake has
    resumed.restore(state);
    for (int frame = 4; frame <= 5; ++frame) resumed.advanceFrame(frame);
    expectSameState(straight.fields(), resumed.fields());
}

INSTANTIATE_TEST_SUITE_P(Pressure, SolverSnapshotTest,
                         testing::Combine(testing::Values("mgpcg", "pcg", "sor"),
                                          testing::Values("maccormack", "reflection")));

TEST(SolverSnapshot, RefusesAnotherGridSize) {
    const Scene small = loadScene(kGolden + "rising.toml");
    const Scene large = loadScene(kGolden + "rising.toml", {"domain.resolution=32"});
    Solver solver(small);
    EXPECT_THROW(solver.restore(Solver(large).snapshot()), RunError);
}

}  // namespace
}  // namespace plume
