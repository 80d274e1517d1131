// The AVX2 (eight-wide) kernels against the portable four-wide ones and the
// one-point code: the same bits, or the choice made at run time would change
// frames from one machine to the next.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/simd.h"
#include "sim/advection.h"
#include "sim/pressure/poisson_kernels.h"
#include "sim/solver.h"

namespace plume {
namespace {

// Runs body() with the AVX2 paths allowed or not, and puts them back.
template <typename F>
void withAvx2(bool allow, F&& body) {
    simd::allowAvx2(allow);
    body();
    simd::allowAvx2(true);
}

bool cpuHasAvx2() {
    simd::allowAvx2(true);
    return simd::avx2();
}

// A swirl moving up to about three cells a step, on an awkward grid: rows of
// 37 cells end in a part of an eight-wide block, a four-wide block and single
// points.
Fields swirl() {
    Fields f({37, 21, 27}, 0.05f);
    for (ScalarGrid* g : {&f.u, &f.v, &f.w})
        for (int k = 0; k < g->nz(); ++k)
            for (int j = 0; j < g->ny(); ++j)
                for (int i = 0; i < g->nx(); ++i)
                    (*g)(i, j, k) = 1.1f * std::sin(0.31f * i + 0.17f * k + (g == &f.v)) +
                                    0.6f * std::cos(0.23f * j - 0.41f * k + 2 * (g == &f.w));
    return f;
}

// Each velocity component and a scalar advected by MacCormack through the
// swirl, one field a call (the wide path), with either limiter.
std::vector<ScalarGrid> advectOneByOne(const Fields& f, const ScalarGrid& scalar,
                                       Advector::Limiter limiter) {
    std::vector<ScalarGrid> out;
    Advector advector;
    advector.setVelocity(f, f.dx);
    for (const ScalarGrid* c : {&f.u, &f.v, &f.w, &scalar}) {
        if (c == &scalar) advector.setVelocity(f, f.dx);  // another grid shape
        ScalarGrid dst(c->nx(), c->ny(), c->nz(), c->offset(), -1.0f);
        const ScalarGrid* src[] = {c};
        ScalarGrid* d[] = {&dst};
        advector.advect(AdvectionScheme::MacCormack, src, d, 1, 0.1f, limiter);
        out.push_back(std::move(dst));
    }
    return out;
}

void expectSameBits(const ScalarGrid& a, const ScalarGrid& b, const char* what) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t n = 0; n < a.size(); ++n)
        ASSERT_EQ(std::memcmp(&a[n], &b[n], sizeof(float)), 0)
            << what << ", value " << n << ": " << a[n] << " against " << b[n];
}

TEST(SimdPaths, AdvectionIsTheSameOnEveryPath) {
    if (!cpuHasAvx2()) GTEST_SKIP() << "no AVX2 on this CPU";
    const Fields f = swirl();
    ScalarGrid scalar(f.n.x, f.n.y, f.n.z);
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i)
                scalar(i, j, k) =
                    std::max(0.0f, std::sin(0.4f * i) * std::cos(0.3f * j + 0.2f * k));
    for (Advector::Limiter limiter : {Advector::Limiter::Revert, Advector::Limiter::Clamp}) {
        std::vector<ScalarGrid> wide8, wide4;
        withAvx2(true, [&] { wide8 = advectOneByOne(f, scalar, limiter); });
        withAvx2(false, [&] { wide4 = advectOneByOne(f, scalar, limiter); });
        const char* names[] = {"u", "v", "w", "scalar"};
        for (int c = 0; c < 4; ++c) {
            SCOPED_TRACE(names[c]);
            expectSameBits(wide8[c], wide4[c], "eight-wide against four-wide");
            const ScalarGrid& src = c < 3 ? f.component(c) : scalar;
            size_t moved = 0;
            for (size_t n = 0; n < src.size(); ++n) moved += wide8[c][n] != src[n];
            EXPECT_GT(moved, src.size() / 2) << "it should have moved";
        }
        // Two scalars a call take other code: the same trace, no bounds kept.
        if (limiter != Advector::Limiter::Clamp) continue;
        Advector advector;
        advector.setVelocity(f, f.dx);
        ScalarGrid one(f.n.x, f.n.y, f.n.z, Vec3f(0.5f), -1.0f), copy = one;
        const ScalarGrid* src[] = {&scalar, &scalar};
        ScalarGrid* d[] = {&one, &copy};
        advector.advect(AdvectionScheme::MacCormack, src, d, 2, 0.1f, limiter);
        expectSameBits(wide4[3], one, "one field against two");
    }
}

// Four fields in one call, each in its own region (so a row's parts start and
// end inside eight-wide blocks, and leave gaps), by either scheme: the same
// bits on either path, all together or in place one after another.
TEST(SimdPaths, SeveralFieldsInOneCallAreTheSameOnEveryPath) {
    if (!cpuHasAvx2()) GTEST_SKIP() << "no AVX2 on this CPU";
    const Fields f = swirl();
    std::vector<ScalarGrid> fields(4, ScalarGrid(f.n.x, f.n.y, f.n.z));
    const float background[] = {0.0f, 0.3f, 0.0f, 0.0f};
    const Vec3f centres[] = {{9, 7, 8}, {13, 11, 12}, {27, 14, 19}, {21, 6, 20}};
    for (int c = 0; c < 4; ++c)
        for (int k = 0; k < f.n.z; ++k)
            for (int j = 0; j < f.n.y; ++j)
                for (int i = 0; i < f.n.x; ++i) {
                    const Vec3f d = Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) - centres[c];
                    fields[c](i, j, k) =
                        background[c] + std::max(0.0f, 1.0f - dot(d, d) / (4.5f * 4.5f));
                }
    for (AdvectionScheme scheme : {AdvectionScheme::SemiLagrangian, AdvectionScheme::MacCormack}) {
        SCOPED_TRACE(scheme == AdvectionScheme::MacCormack ? "MacCormack" : "semi-Lagrangian");
        auto run = [&](bool allow, bool inPlace) {
            std::vector<ScalarGrid> out =
                inPlace ? fields
                        : std::vector<ScalarGrid>(
                              4, ScalarGrid(f.n.x, f.n.y, f.n.z, Vec3f(0.5f), -1.0f));
            withAvx2(allow, [&] {
                Advector advector;
                advector.setVelocity(f, f.dx);
                const ScalarGrid* src[] = {&fields[0], &fields[1], &fields[2], &fields[3]};
                ScalarGrid* dst[] = {&out[0], &out[1], &out[2], &out[3]};
                if (inPlace) std::copy(dst, dst + 4, src);
                advector.advect(scheme, src, dst, 4, 0.1f, Advector::Limiter::Clamp, background);
            });
            return out;
        };
        for (bool inPlace : {false, true}) {
            SCOPED_TRACE(inPlace ? "in place" : "together");
            const std::vector<ScalarGrid> wide8 = run(true, inPlace), wide4 = run(false, inPlace);
            for (int c = 0; c < 4; ++c) {
                expectSameBits(wide8[c], wide4[c], "eight-wide against four-wide");
                size_t moved = 0;
                for (size_t n = 0; n < fields[c].size(); ++n) moved += wide8[c][n] != fields[c][n];
                EXPECT_GT(moved, 100u) << "field " << c << " should have moved";
            }
        }
    }
}

// The Poisson kernels on a grid with awkward rows (29 cells: an eight-wide
// block, a four-wide one and single cells) and solids.
TEST(SimdPaths, PoissonKernelsAreTheSameOnEveryPath) {
    if (!cpuHasAvx2()) GTEST_SKIP() << "no AVX2 on this CPU";
    const Vec3i n{29, 13, 11};
    std::vector<uint8_t> solid(size_t(n.x) * n.y * n.z, 0);
    for (int k = 3; k < 7; ++k)
        for (int j = 4; j < 9; ++j)
            for (int i = 9; i < 14; ++i) solid[(size_t(k) * n.y + j) * n.x + i] = 1;
    PoissonGrid g;
    g.build(n, {true, false, false, true, false, true}, solid.data());
    std::vector<float> b(g.paddedSize(), 0.0f), x0 = b;
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const size_t c = g.index(i, j, k);
                if (!g.unknown(c)) continue;
                b[c] = std::sin(0.7f * i + 0.3f * j) * std::cos(0.5f * k + 0.1f * i);
                x0[c] = 0.3f * std::cos(0.9f * j - 0.4f * k + 0.2f * i);
            }
    struct Out {
        std::vector<float> smoothed, relaxed, r, rFromDouble, y;
        float rMax, rMaxFromDouble;
        double xy;
    };
    auto run = [&](bool allow) {
        Out o;
        withAvx2(allow, [&] {
            o.smoothed = x0;
            smoothColour(g, o.smoothed.data(), b.data(), 0);
            smoothColour(g, o.smoothed.data(), b.data(), 1);
            o.relaxed = x0;
            smoothColour(g, o.relaxed.data(), b.data(), 1, 1.7f);
            o.r.assign(g.paddedSize(), 0.0f);
            o.rMax = residual(g, x0.data(), b.data(), o.r.data());
            const std::vector<double> xd(x0.begin(), x0.end());
            o.rFromDouble.assign(g.paddedSize(), 0.0f);
            o.rMaxFromDouble = residual(g, xd.data(), b.data(), o.rFromDouble.data());
            o.y.assign(g.paddedSize(), 0.0f);
            o.xy = applyAndDot(g, x0.data(), o.y.data());
        });
        return o;
    };
    const Out a = run(true), c = run(false);
    auto same = [](const std::vector<float>& u, const std::vector<float>& v, const char* what) {
        ASSERT_EQ(u.size(), v.size());
        for (size_t i = 0; i < u.size(); ++i)
            ASSERT_EQ(std::memcmp(&u[i], &v[i], sizeof(float)), 0) << what << ", value " << i;
    };
    same(a.smoothed, c.smoothed, "Gauss-Seidel");
    same(a.relaxed, c.relaxed, "over-relaxed");
    same(a.r, c.r, "residual");
    same(a.rFromDouble, c.rFromDouble, "residual of a double iterate");
    same(a.y, c.y, "A x");
    EXPECT_EQ(std::memcmp(&a.rMax, &c.rMax, sizeof(float)), 0);
    EXPECT_EQ(std::memcmp(&a.rMaxFromDouble, &c.rMaxFromDouble, sizeof(float)), 0);
    EXPECT_EQ(std::memcmp(&a.xy, &c.xy, sizeof(double)), 0);
    EXPECT_NE(a.smoothed, x0);
    EXPECT_GT(a.rMax, 0.0f);
}

// A few substeps of a plume (advection, the pressure solve and the rest) give
// the same fields on either path.
TEST(SimdPaths, SolverGivesTheSameFieldsOnEveryPath) {
    if (!cpuHasAvx2()) GTEST_SKIP() << "no AVX2 on this CPU";
    Scene s;
    s.domain.size = {1.0f, 1.0f, 1.4f};
    s.domain.resolution = 27;  // 27 x 27 x 37 cells: awkward row lengths
    s.domain.boundary.fill(Boundary::Open);
    s.time.fps = 24;
    EmitterSettings e;
    e.center = {0.5f, 0.45f, 0.25f};
    e.radius = 0.15f;
    e.velocity = {0.2f, 0.1f, 1.0f};
    s.emitters.push_back(e);
    auto run = [&](bool allow) {
        Fields out;
        withAvx2(allow, [&] {
            Solver solver(s);
            for (int frame = 1; frame <= 5; ++frame) solver.advanceFrame(frame);
            out = solver.fields();
        });
        return out;
    };
    const Fields a = run(true), b = run(false);
    ASSERT_EQ(a.n, b.n);
    expectSameBits(a.u, b.u, "u");
    expectSameBits(a.v, b.v, "v");
    expectSameBits(a.w, b.w, "w");
    expectSameBits(a.density, b.density, "density");
    expectSameBits(a.temperature, b.temperature, "temperature");
}

}  // namespace
}  // namespace plume
