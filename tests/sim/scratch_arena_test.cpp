// The scratch arena: stages borrow the same bytes in turn, a lease that
// outgrows it keeps its earlier buffers in place, and the solver's arena is
// as large as its hungriest stage, not the sum of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "core/scratch_arena.h"
#include "scene/loader.h"
#include "sim/advection.h"
#include "sim/forces.h"
#include "sim/pressure/projection.h"
#include "sim/solver.h"
#include "support/scene_errors.h"

namespace plume {
namespace {

using test::kSourceDir;

bool aligned(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) % ScratchArena::kAlignment == 0;
}

TEST(ScratchArena, LeasesReuseTheSameBytes) {
    ScratchArena arena;
    float* a = nullptr;
    double* b = nullptr;
    {
        ScratchArena::Lease lease(arena);
        a = lease.take<float>(1000);
        b = lease.take<double>(10);
        EXPECT_TRUE(aligned(a) && aligned(b));
        EXPECT_GE(reinterpret_cast<std::byte*>(b), reinterpret_cast<std::byte*>(a + 1000));
        EXPECT_TRUE(std::all_of(a, a + 1000, [](float v) { return v == 0.0f; }));  // new: zeroed
        std::fill(a, a + 1000, 7.0f);
    }
    const std::uint64_t held = arena.capacity();
    {
        ScratchArena::Lease lease(arena);
        int* c = lease.take<int>(500);  // the next stage: the same bytes, no new block
        EXPECT_EQ(static_cast<void*>(c), static_cast<void*>(a));
    }
    EXPECT_EQ(arena.capacity(), held);
}

TEST(ScratchArena, AGrowingLeaseKeepsItsBuffersAndTheNextGetsOneBlock) {
    ScratchArena arena;
    {
        ScratchArena::Lease lease(arena);
        lease.take<float>(16);
    }
    float* first = nullptr;
    {
        ScratchArena::Lease lease(arena);
        first = lease.take<float>(16);
        first[3] = 42.0f;
        float* big = lease.take<float>(1 << 20);  // does not fit: a block of its own
        big[0] = 1.0f;
        EXPECT_EQ(first[3], 42.0f) << "an earlier buffer of the lease moved or was cleared";
        EXPECT_TRUE(aligned(big));
    }
    const std::uint64_t peak = arena.peak();
    EXPECT_GE(peak, (std::uint64_t(1) << 20) * sizeof(float));
    {
        ScratchArena::Lease lease(arena);  // merged: one block the size of the largest lease
        EXPECT_EQ(arena.capacity(), peak);
        float* a = lease.take<float>(16);
        float* b = lease.take<float>(1 << 20);
        EXPECT_EQ(reinterpret_cast<std::byte*>(b) - reinterpret_cast<std::byte*>(a),
                  std::ptrdiff_t(ScratchArena::rounded(16 * sizeof(float))));
    }
    EXPECT_EQ(arena.capacity(), peak);
}

TEST(ScratchArena, OneLeaseAtATime) {
    ScratchArena arena;
    ScratchArena::Lease lease(arena);
    EXPECT_THROW(ScratchArena::Lease second(arena), std::logic_error);
}

// A solver whose box changed size releases its arena: the next leases size
// it for the new box alone, smaller as well as larger, instead of taking an
// extra block beside the old one (and keeping the old size forever).
TEST(ScratchArena, ReleaseLetsTheNextLeasesSizeItAnew) {
    ScratchArena arena;
    {
        ScratchArena::Lease lease(arena);
        lease.take<float>(40000);
    }
    EXPECT_EQ(arena.capacity(), ScratchArena::rounded(160000));
    arena.release();
    EXPECT_EQ(arena.capacity(), 0u);
    {
        ScratchArena::Lease lease(arena);
        lease.take<float>(80000);
        EXPECT_EQ(arena.capacity(), ScratchArena::rounded(320000));  // not 160000 + 320000
    }
    arena.release();
    {
        ScratchArena::Lease lease(arena);
        lease.take<float>(20000);
        lease.take<float>(20000);
    }
    {
        ScratchArena::Lease lease(arena);  // merges the two blocks
    }
    EXPECT_EQ(arena.capacity(), 2 * ScratchArena::rounded(80000));  // smaller than before
    ScratchArena::Lease lease(arena);
    EXPECT_THROW(arena.release(), std::logic_error);
}

// Between frames the solver hands its scratch pages back: the block stays,
// its pages read back as zeros (which the next stage overwrites anyway).
TEST(ScratchArena, ReturnedPagesComeBackZeroed) {
    ScratchArena arena;
    constexpr size_t kCount = 1 << 20;  // 4 MiB: whole pages
    float* first = nullptr;
    {
        ScratchArena::Lease lease(arena);
        first = lease.take<float>(kCount);
        std::fill(first, first + kCount, 7.0f);
    }
    const std::uint64_t held = arena.capacity();
    arena.returnPages();
    EXPECT_EQ(arena.capacity(), held);
    ScratchArena::Lease lease(arena);
    float* again = lease.take<float>(kCount);
    EXPECT_EQ(again, first);
    // All but the pages the block shares with the allocator are zero now.
    const size_t zeros = size_t(std::count(again, again + kCount, 0.0f));
    EXPECT_GT(zeros, kCount - 2048);
    EXPECT_THROW(arena.returnPages(), std::logic_error);
}

// Advection, confinement and the pressure solve each take a grid's worth of
// scratch; the solver holds the largest of them once, and its estimate says so.
TEST(ScratchArena, SolverHoldsItsHungriestStageOnly) {
    const Scene scene = loadScene(kSourceDir + "/scenes/plume.toml",
                                  {"domain.resolution=32", "physics.vorticity=0.3", "solver.sparse=false"});
    Solver solver(scene);
    solver.advanceFrame(1);
    const Vec3i n = scene.domain.cells();
    const std::uint64_t advection =
        std::max(Advector::scratchBytesFor(n, 1, scene.solver.advection),
                 Advector::scratchBytesFor(n, 2, scene.solver.advection));
    const std::uint64_t vorticity = vorticityScratchBytes(n);
    const std::uint64_t pressure = Projection::scratchBytesFor(n, scene.solver.pressure);
    const std::uint64_t hungriest = std::max({advection, vorticity, pressure});
    EXPECT_EQ(Solver::scratchBytesFor(scene), hungriest);
    EXPECT_EQ(solver.scratchBytes(), hungriest);
    EXPECT_LT(solver.scratchBytes(), advection + vorticity + pressure);
}

}  // namespace
}  // namespace plume
