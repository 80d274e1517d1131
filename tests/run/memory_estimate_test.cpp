// The memory estimate: summed from the types that own the buffers, checked
// against what they really allocate, and the refusal of a scene too large.
#include <gtest/gtest.h>
#include <malloc.h>

#include "support/sanitizer.h"
#if PLUME_ASAN
// From the sanitizer runtime (GCC ships no header for it).
extern "C" size_t __sanitizer_get_current_allocated_bytes();
#endif

#include <cstdio>
#include <filesystem>

#include "core/parallel.h"
#include "render/renderer.h"
#include "report/machine_info.h"
#include "run/memory_check.h"
#include "scene/loader.h"
#include "sim/solver.h"
#include "support/scene_errors.h"

namespace plume {
namespace {

using namespace test;

// Bytes the heap holds right now: glibc's count of small blocks in use and
// mmapped ones, or AddressSanitizer's (it replaces malloc, and glibc's
// counters then read 0).
std::uint64_t heapBytes() {
#if PLUME_ASAN
    return __sanitizer_get_current_allocated_bytes();
#else
    const struct mallinfo2 m = mallinfo2();
    return std::uint64_t(m.uordblks) + std::uint64_t(m.hblkhd);
#endif
}

Scene estimateScene(const std::string& overrides) {
    std::vector<std::string> sets;
    std::string rest = overrides;
    for (size_t at; (at = rest.find(' ')) != std::string::npos; rest = rest.substr(at + 1))
        sets.push_back(rest.substr(0, at));
    if (!rest.empty()) sets.push_back(rest);
    sets.push_back("solver.sparse=false");  // the whole domain: what the estimate counts
    return loadScene(kSourceDir + "/scenes/plume.toml", sets);
}

// What a solver really allocates for its scene, once it has run a substep:
// within 5% of the estimate, for each pressure method, with and without
// solids and confinement, and for a fire. Fails when a buffer is added
// without being counted.
TEST(MemoryEstimate, SolverEstimateMatchesItsHeap) {
    setThreadCount(1);  // TBB's worker stacks are not the solver's
    for (const char* sets :
         {"domain.resolution=48 solver.pressure=mgpcg",
          "domain.resolution=48 solver.pressure=pcg physics.vorticity=0",
          "domain.resolution=40 solver.pressure=sor", "domain.resolution=48 emitter[1].fuel=1"}) {
        const Scene scene = estimateScene(sets);
        const std::uint64_t before = heapBytes();
        std::uint64_t used = 0;
        {
            Solver solver(scene);
            solver.advanceFrame(1);
            used = heapBytes() - before;
        }
        const double ratio = double(Solver::bytesFor(scene)) / double(used);
        EXPECT_NEAR(ratio, 1.0, 0.05)
            << sets << ": estimate " << Solver::bytesFor(scene) << " bytes, heap " << used;
    }
    setThreadCount(0);
}

// A sparse solve holds a box: its heap is the estimate for that box, and at
// the start the box is the one around the emitters that `plume check` quotes
// as the first figure.
TEST(MemoryEstimate, SparseSolveEstimateMatchesItsHeap) {
    setThreadCount(1);
    const Scene scene = loadScene(kSourceDir + "/scenes/plume.toml", {"domain.resolution=64"});
    ASSERT_TRUE(scene.solver.sparse);
    ASSERT_EQ(Solver::startCells(scene).size(), 1u);  // one emitter, one island
    const Vec3i start = Solver::startCells(scene)[0], domain = scene.domain.cells();
    EXPECT_LT(std::uint64_t(start.x) * start.y * start.z,
              std::uint64_t(domain.x) * domain.y * domain.z);
    const std::uint64_t before = heapBytes();
    {
        Solver solver(scene);
        solver.advanceFrame(1);
        const std::uint64_t used = heapBytes() - before;
        EXPECT_EQ(solver.fields().n, start);  // the first frame stays in its first box
        const std::uint64_t estimate = Solver::bytesFor(scene, solver.fields().n);
        EXPECT_NEAR(double(estimate) / double(used), 1.0, 0.05)
            << "estimate " << estimate << " bytes, heap " << used;
        EXPECT_LT(estimateMemory(scene).start, estimateMemory(scene).most);
    }
    setThreadCount(0);
}

// Issue 16's budget: a solve of bench.toml (Blender's smoke setup) holds at
// most 60 bytes per cell of its box, counted by the types that own the
// buffers (which the tests above check against the heap). Fails when a stage
// takes a grid-sized buffer of its own instead of sharing the scratch.
TEST(MemoryEstimate, BenchSceneHoldsAtMostSixtyBytesACell) {
    const Scene scene = loadScene(kSourceDir + "/scenes/bench.toml");
    for (const Vec3i box : {Vec3i{64, 64, 64}, Vec3i{96, 88, 112}, Vec3i{128, 128, 128}}) {
        const double cells = double(box.x) * box.y * box.z;
        const double perCell = double(Solver::bytesFor(scene, box)) / cells;
        RecordProperty("bytes_per_cell", std::to_string(perCell));
        EXPECT_LE(perCell, 60.0) << box.x << "x" << box.y << "x" << box.z;
        std::printf("bench.toml, %dx%dx%d: %.1f bytes a held cell\n", box.x, box.y, box.z, perCell);
    }
}

TEST(MemoryEstimate, RendererEstimateMatchesItsHeap) {
    setThreadCount(1);
    Scene scene = estimateScene("domain.resolution=48 render.width=320 render.height=180");
    Solver solver(scene);
    for (int frame = 1; frame <= 12; ++frame) solver.advanceFrame(frame);
    const std::uint64_t before = heapBytes();
    std::uint64_t used = 0;
    {
        Renderer renderer(scene);
        Image image = renderer.render(solver.fields().view(), 12);
        used = heapBytes() - before;
    }
    const std::uint64_t estimate = Renderer::bytesFor(scene, solver.fields().n);
    EXPECT_NEAR(double(estimate) / double(used), 1.0, 0.10)
        << "estimate " << estimate << ", heap " << used;
    setThreadCount(0);
}

TEST(MemoryEstimate, GrowsWithResolutionLightsAndImage) {
    Scene s = parseScene("", "s.toml");
    std::uint64_t previous = 0;
    for (int n : {16, 32, 64, 128, 256}) {
        s.domain.resolution = n;
        const std::uint64_t bytes = estimateMemoryBytes(s);
        EXPECT_GT(bytes, previous) << n;
        previous = bytes;
    }
    const std::uint64_t one = estimateMemoryBytes(s);
    s.lights.push_back(s.lights[0]);
    EXPECT_GT(estimateMemoryBytes(s), one);
    const std::uint64_t two = estimateMemoryBytes(s);
    s.render.width *= 2;
    EXPECT_GT(estimateMemoryBytes(s), two);
}

TEST(MemoryEstimate, ShippedScenesFit) {
    EXPECT_GT(machineMemoryBytes(), 0u);
    for (const auto& entry : std::filesystem::directory_iterator(kSourceDir + "/scenes")) {
        if (entry.path().extension() != ".toml") continue;
        EXPECT_NO_THROW(checkMemory(loadScene(entry.path().string()))) << entry.path();
    }
}

TEST(MemoryEstimate, HugeSceneIsRefused) {
    // 1024^3 cells need over 100 GiB whatever the method: no machine we run on has it.
    Scene s = parseScene("[domain]\nsize = [1, 1, 1]\nresolution = 1024\n", "big.toml");
    if (estimateMemoryBytes(s) <= machineMemoryBytes()) GTEST_SKIP() << "this machine is too big";
    std::string e = errorOf([&] { checkMemory(s); });
    EXPECT_EQ(e.rfind("big.toml: error: scene needs about ", 0), 0u) << e;
    EXPECT_NE(e.find(" GiB (1024x1024x1024 cells) but this machine has "), std::string::npos) << e;
    EXPECT_NE(e.find(" GiB; lower domain.resolution"), std::string::npos) << e;
}

}  // namespace
}  // namespace plume
