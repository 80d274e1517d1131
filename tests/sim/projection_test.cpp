#include "sim/pressure/projection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/parallel.h"
#include "sim/pressure/multigrid.h"
#include "sim/pressure/pcg.h"
#include "sim/pressure/poisson_kernels.h"

namespace plume {
namespace {

constexpr float kTolerance = 1e-4f;
// Float rounding of the face updates (m/s), on top of tolerance * before.
constexpr float kRounding = 2e-5f;

// A reproducible value in [-1, 1) from an index and a seed.
float noise(uint64_t n, uint64_t seed) {
    uint64_t x = n * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull + 1;
    x ^= x >> 30, x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27, x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return float(x >> 40) / float(1 << 23) - 1.0f;
}

void randomize(ScalarGrid& g, uint64_t seed) {
    for (size_t n = 0; n < g.size(); ++n) g[n] = noise(n, seed);
}

Fields randomFields(Vec3i n, uint64_t seed) {
    Fields f(n, 0.1f);
    randomize(f.u, seed);
    randomize(f.v, seed + 1);
    randomize(f.w, seed + 2);
    return f;
}

void addSphere(Fields& f, Vec3f centre, float radius) {
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                Vec3f p{i + 0.5f, j + 0.5f, k + 0.5f};
                if (length(p - centre) < radius) f.solid(i, j, k) = 1;
            }
}

std::string methodName(PressureMethod m) {
    return m == PressureMethod::SOR ? "sor" : (m == PressureMethod::PCG ? "pcg" : "mgpcg");
}

int maxIterationsFor(PressureMethod m) { return m == PressureMethod::SOR ? 20000 : 500; }

using Sides = std::array<Boundary, 6>;
constexpr Boundary W = Boundary::Wall, O = Boundary::Open, I = Boundary::Inflow;

// Every face on a wall or touching a solid is exactly 0; inflow faces carry
// the inflow velocity's normal component.
void expectBoundaryFaces(const Fields& f, const Sides& sides, Vec3f inflow) {
    auto solid = [&](int i, int j, int k) { return f.solid.inside(i, j, k) && f.solid(i, j, k); };
    int checked = 0;
    for (int axis = 0; axis < 3; ++axis) {
        const ScalarGrid& c = f.component(axis);
        for (int k = 0; k < c.nz(); ++k)
            for (int j = 0; j < c.ny(); ++j)
                for (int i = 0; i < c.nx(); ++i) {
                    int idx[3] = {i, j, k};
                    int below[3] = {i, j, k};
                    below[axis] -= 1;
                    const int pos = idx[axis], last = f.n[axis];
                    if (solid(i, j, k) || solid(below[0], below[1], below[2])) {
                        ASSERT_EQ(c(i, j, k), 0.0f)
                            << "solid face " << axis << " " << i << "," << j << "," << k;
                        ++checked;
                        continue;
                    }
                    for (int end = 0; end < 2; ++end) {
                        if (pos != (end ? last : 0)) continue;
                        Boundary b = sides[2 * axis + end];
                        if (b == Boundary::Wall) {
                            ASSERT_EQ(c(i, j, k), 0.0f);
                            ++checked;
                        }
                        if (b == Boundary::Inflow) {
                            ASSERT_EQ(c(i, j, k), inflow[axis]);
                            ++checked;
                        }
                    }
                }
    }
    EXPECT_GT(checked, 0);
}

// ---- maxDivergence ----------------------------------------------------------

TEST(ProjectionDivergence, MeasuresAKnownField) {
    Fields f({6, 5, 4}, 0.5f);
    // u = 0.25 * i: every cell has divergence 0.25 (m/s, times dx).
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 5; ++j)
            for (int i = 0; i <= 6; ++i) f.u(i, j, k) = 0.25f * i;
    EXPECT_FLOAT_EQ(Projection::maxDivergence(f), 0.25f);
    // A source of 2 on one w-face: the cell below gains +2, the one above -2.
    f.w(2, 3, 2) = 2.0f;
    EXPECT_FLOAT_EQ(Projection::maxDivergence(f), 2.25f);
    // Solid cells are not fluid, their divergence does not count.
    f.solid(2, 3, 1) = 1;
    EXPECT_FLOAT_EQ(Projection::maxDivergence(f), 1.75f);
    f.solid(2, 3, 2) = 1;
    EXPECT_FLOAT_EQ(Projection::maxDivergence(f), 0.25f);
}

// ---- every solver -----------------------------------------------------------

class ProjectionSolver : public ::testing::TestWithParam<PressureMethod> {};

TEST_P(ProjectionSolver, MixedSidesWithObstacleBecomeDivergenceFree) {
    const Vec3i n{24, 16, 32};
    const Sides sides{I, O, W, W, W, O};
    const Vec3f inflow{0.7f, 0.2f, -0.3f};
    Fields f = randomFields(n, 11);
    addSphere(f, {11.0f, 8.5f, 15.0f}, 5.0f);
    Projection proj(n, sides, inflow, GetParam());
    proj.enforceBoundaries(f);
    const float before = Projection::maxDivergence(f);
    ASSERT_GT(before, 1.0f);

    SolveStats s = proj.project(f, 0.02f, kTolerance, maxIterationsFor(GetParam()));
    const float after = Projection::maxDivergence(f);
    EXPECT_LE(s.residual, kTolerance);
    EXPECT_GT(s.iterations, 0);
    EXPECT_LE(after, kTolerance * before + kRounding) << "before " << before;
    expectBoundaryFaces(f, sides, inflow);
}

TEST_P(ProjectionSolver, ClosedBoxIsSingularButSolves) {
    const Vec3i n{20, 12, 16};
    const Sides sides{W, W, W, W, W, W};
    Fields f = randomFields(n, 5);
    addSphere(f, {6.0f, 6.0f, 8.0f}, 3.5f);
    Projection proj(n, sides, {}, GetParam());
    proj.enforceBoundaries(f);
    const float before = Projection::maxDivergence(f);
    SolveStats s = proj.project(f, 0.02f, kTolerance, maxIterationsFor(GetParam()));
    EXPECT_LE(s.residual, kTolerance);
    for (const ScalarGrid* g : {&f.u, &f.v, &f.w})
        for (float x : g->values()) ASSERT_TRUE(std::isfinite(x));
    EXPECT_LE(Projection::maxDivergence(f), kTolerance * before + kRounding);
    expectBoundaryFaces(f, sides, {});
    // A second substep warm-starts from the kept pressure and stays finite.
    randomize(f.w, 9);
    s = proj.project(f, 0.02f, kTolerance, maxIterationsFor(GetParam()));
    EXPECT_LE(s.residual, kTolerance);
    EXPECT_LE(Projection::maxDivergence(f), kTolerance * 4.0f + kRounding);
}

TEST_P(ProjectionSolver, EnclosedPocketStaysFinite) {
    // A hollow solid shell inside an open box traps fluid: a singular block.
    const Vec3i n{16, 16, 16};
    Fields f = randomFields(n, 3);
    for (int k = 4; k < 12; ++k)
        for (int j = 4; j < 12; ++j)
            for (int i = 4; i < 12; ++i)
                f.solid(i, j, k) = (i == 4 || i == 11 || j == 4 || j == 11 || k == 4 || k == 11);
    Projection proj(n, {O, O, O, O, W, O}, {}, GetParam());
    proj.enforceBoundaries(f);
    const float before = Projection::maxDivergence(f);
    SolveStats s = proj.project(f, 0.02f, kTolerance, maxIterationsFor(GetParam()));
    EXPECT_LE(s.residual, kTolerance);
    for (const ScalarGrid* g : {&f.u, &f.v, &f.w})
        for (float x : g->values()) ASSERT_TRUE(std::isfinite(x));
    EXPECT_LE(Projection::maxDivergence(f), kTolerance * before + kRounding);
}

TEST_P(ProjectionSolver, BitIdenticalForAnyThreadCount) {
    const Vec3i n{40, 24, 56};  // large enough to be split over threads
    auto run = [&](int threads) {
        setThreadCount(threads);
        Fields f = randomFields(n, 21);
        addSphere(f, {20.0f, 12.0f, 20.0f}, 7.0f);
        Projection proj(n, {W, O, W, W, I, O}, {0, 0, 1.5f}, GetParam());
        proj.project(f, 0.02f, kTolerance, maxIterationsFor(GetParam()));
        setThreadCount(0);
        return f;
    };
    // setThreadCount runs the solve in an arena of that many slots, so each
    // count splits the slabs differently (core_test checks that it does).
    const Fields a = run(1);
    for (int threads : {2, 3, 7}) {
        const Fields b = run(threads);
        EXPECT_TRUE(a.u.values() == b.u.values()) << threads << " threads";
        EXPECT_TRUE(a.v.values() == b.v.values()) << threads << " threads";
        EXPECT_TRUE(a.w.values() == b.w.values()) << threads << " threads";
    }
}

TEST_P(ProjectionSolver, ZeroDivergenceReturnsAtOnce) {
    const Vec3i n{8, 8, 8};
    Fields f(n, 0.1f);
    for (float& x : f.w.values()) x = 1.0f;  // uniform flow: no divergence
    Projection proj(n, {O, O, O, O, O, O}, {}, GetParam());
    SolveStats s = proj.project(f, 0.02f, kTolerance, 100);
    EXPECT_EQ(s.iterations, 0);
    EXPECT_EQ(s.residual, 0.0f);
    EXPECT_EQ(f.w(3, 3, 3), 1.0f);
}

TEST_P(ProjectionSolver, StopsAtMaxIterations) {
    const Vec3i n{32, 32, 32};
    Fields f = randomFields(n, 8);
    Projection proj(n, {W, W, W, W, W, O}, {}, GetParam());
    SolveStats s = proj.project(f, 0.02f, 1e-7f, 3);
    EXPECT_LE(s.iterations, 3);
    EXPECT_GT(s.residual, 1e-7f);
}

INSTANTIATE_TEST_SUITE_P(Projection, ProjectionSolver,
                         ::testing::Values(PressureMethod::SOR, PressureMethod::PCG,
                                           PressureMethod::MGPCG),
                         [](const auto& info) { return methodName(info.param); });

TEST(ProjectionSolvers, AgreeOnTheProjectedVelocity) {
    // The projection is unique: every method must land on the same field.
    const Vec3i n{20, 16, 24};
    const Sides sides{I, O, W, O, W, O};
    std::vector<Fields> results;
    for (PressureMethod m : {PressureMethod::SOR, PressureMethod::PCG, PressureMethod::MGPCG}) {
        Fields f = randomFields(n, 17);
        addSphere(f, {10.0f, 8.0f, 12.0f}, 4.0f);
        Projection proj(n, sides, {1.0f, 0, 0}, m);
        proj.project(f, 0.02f, 1e-6f, maxIterationsFor(m) * 4);
        results.push_back(std::move(f));
    }
    float worst = 0.0f;
    for (size_t r = 1; r < results.size(); ++r)
        for (int axis = 0; axis < 3; ++axis) {
            const auto& a = results[0].component(axis).values();
            const auto& b = results[r].component(axis).values();
            for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
        }
    EXPECT_LT(worst, 1e-3f);
}

// ---- multigrid ----------------------------------------------------------------

// Random right-hand side on the unknowns of g.
PaddedField randomRhs(const PoissonGrid& g, uint64_t seed) {
    PaddedField b(g.paddedSize(), 0.0f);
    for (int k = 0; k < g.nz(); ++k)
        for (int j = 0; j < g.ny(); ++j)
            for (int i = 0; i < g.nx(); ++i) {
                size_t n = g.index(i, j, k);
                if (g.unknown(n)) b[n] = noise(n, seed);
            }
    return b;
}

TEST(PressureMultigrid, VCycleIsSymmetric) {
    // CG needs a symmetric preconditioner: <M x, y> == <x, M y>.
    const Vec3i n{21, 14, 27};
    std::vector<uint8_t> solid(size_t(n.x) * n.y * n.z, 0);
    for (int k = 8; k < 16; ++k)
        for (int j = 3; j < 9; ++j)
            for (int i = 5; i < 12; ++i) solid[(size_t(k) * n.y + j) * n.x + i] = 1;
    PoissonGrid g;
    g.build(n, {false, true, false, false, false, true}, solid.data());
    MultigridPreconditioner mg;
    mg.build(g);
    ASSERT_GE(mg.levelCount(), 3);
    PaddedField x = randomRhs(g, 1), y = randomRhs(g, 2);
    PaddedField mx(g.paddedSize(), 0.0f), my(g.paddedSize(), 0.0f);
    mg.apply(x.data(), mx.data());
    mg.apply(y.data(), my.data());
    double a = dot(g, mx.data(), y.data()), b = dot(g, x.data(), my.data());
    EXPECT_NEAR(a, b, 1e-5 * std::fabs(a)) << a << " vs " << b;
    EXPECT_GT(dot(g, mx.data(), x.data()), 0.0);  // and positive
}

// Iterations mgpcg needs on an n^3 box open at the top, from a random rhs.
int mgpcgIterations(int size) {
    const Vec3i n{size, size, size};
    PoissonGrid g;
    g.build(n, {false, false, false, false, false, true}, nullptr);
    MultigridPreconditioner mg;
    mg.build(g);
    PcgSolver pcg;
    ScratchArena arena;
    ScratchArena::Lease scratch(arena);
    PaddedField b = randomRhs(g, 42);
    std::vector<double> p(g.paddedSize(), 0.0);
    SolveStats s =
        pcg.solve(g, mg, p.data(), b.data(), maxAbs(g, b.data()), kTolerance, 100, scratch);
    EXPECT_LE(s.residual, kTolerance) << size << "^3";
    return s.iterations;
}

TEST(PressureMultigrid, IterationsStayFlatUpTo128) {
    std::vector<int> its;
    for (int size : {32, 64, 128}) its.push_back(mgpcgIterations(size));
    for (int it : its) EXPECT_LE(it, 25);
    const int lo = *std::min_element(its.begin(), its.end());
    const int hi = *std::max_element(its.begin(), its.end());
    EXPECT_LE(hi, 2 * lo) << its[0] << " " << its[1] << " " << its[2];
    RecordProperty("iterations", std::to_string(its[0]) + " " + std::to_string(its[1]) + " " +
                                     std::to_string(its[2]));
}

TEST(PressureMultigrid, IterationsStayFlatAt256Cubed) {
    // Slowest test here (a few seconds, ~1 GB): the largest level count.
    const int small = mgpcgIterations(32);
    const int large = mgpcgIterations(256);
    EXPECT_LE(large, 25);
    EXPECT_LE(large, 2 * small) << small << " at 32^3, " << large << " at 256^3";
}

TEST(PressureMultigrid, OddAndFlatSizesConverge) {
    for (Vec3i n : {Vec3i{40, 24, 56}, Vec3i{64, 64, 100}, Vec3i{5, 1, 3}, Vec3i{33, 2, 17}}) {
        Fields f = randomFields(n, 4);
        Projection proj(n, {W, W, O, W, W, O}, {}, PressureMethod::MGPCG);
        proj.enforceBoundaries(f);
        const float before = Projection::maxDivergence(f);
        SolveStats s = proj.project(f, 0.02f, kTolerance, 100);
        EXPECT_LE(s.residual, kTolerance) << n.x << "x" << n.y << "x" << n.z;
        EXPECT_LE(s.iterations, 30) << n.x << "x" << n.y << "x" << n.z;
        EXPECT_LE(Projection::maxDivergence(f), kTolerance * before + kRounding);
    }
}

}  // namespace
}  // namespace plume
