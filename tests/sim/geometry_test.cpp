// Shape transforms (rotation, scale), surface emitters and the turbulence force.
#include <gtest/gtest.h>

#include <cmath>

#include "core/parallel.h"
#include "core/transform.h"
#include "scene/loader.h"
#include "sim/emitters.h"
#include "sim/fields.h"
#include "sim/forces.h"
#include "sim/obstacles.h"
#include "support/scene_errors.h"

namespace plume {
namespace {

// 40^3 cells over 2 m: cell centres at odd multiples of 0.025 m, so no
// shape face below (at multiples of 0.05 m plus 0.01) lands on one.
Fields grid40() { return Fields({40, 40, 40}, 0.05f); }

ObstacleSettings box(Vec3f size, Vec3f rotation = {0, 0, 0}, Vec3f scale = {1, 1, 1}) {
    ObstacleSettings o;
    o.shape = Shape::Box;
    o.center = {1.01f, 0.99f, 1.0f};
    o.size = size;
    o.rotation = rotation;
    o.scale = scale;
    return o;
}

// Cells whose solid flag differs between two rasterisations.
int differingCells(const std::vector<ObstacleSettings>& a, const std::vector<ObstacleSettings>& b,
                   int* solidCells = nullptr) {
    Fields fa = grid40(), fb = grid40();
    rasterizeObstacles(fa, a);
    rasterizeObstacles(fb, b);
    int differ = 0, solid = 0;
    for (size_t n = 0; n < fa.solid.size(); ++n) {
        differ += fa.solid[n] != fb.solid[n];
        solid += fa.solid[n];
    }
    if (solidCells) *solidCells = solid;
    return differ;
}

TEST(Transform, EulerOrderIsBlenders) {
    // 90 degrees about x takes local +y to world +z.
    Transform x90({0, 0, 0}, {90, 0, 0}, {1, 1, 1});
    EXPECT_NEAR(x90.toWorld({0, 1, 0}).z, 1.0f, 1e-6f);
    // R = Rz * Ry * Rx: x first. +z -> (Rx) -y -> (Rz) +x; the other order would give -y.
    Transform t({0, 0, 0}, {90, 0, 90}, {1, 1, 1});
    EXPECT_NEAR(t.toWorld({0, 0, 1}).x, 1.0f, 1e-6f);
    EXPECT_NEAR(t.toWorld({1, 0, 0}).y, 1.0f, 1e-6f);  // Rx leaves +x; Rz: +x -> +y
    // toLocal undoes toWorld, scale included.
    Transform s({0.5f, 0, 1}, {10, 20, 30}, {1, 2, 3});
    Vec3f back = s.toLocal(s.toWorld({0.3f, -0.2f, 0.7f}));
    EXPECT_NEAR(back.x, 0.3f, 1e-6f);
    EXPECT_NEAR(back.y, -0.2f, 1e-6f);
    EXPECT_NEAR(back.z, 0.7f, 1e-6f);
}

TEST(Geometry, RotatedBoxSwapsExtents) {
    int solid = 0;
    EXPECT_EQ(differingCells({box({0.82f, 0.42f, 0.42f}, {0, 0, 90})}, {box({0.42f, 0.82f, 0.42f})},
                             &solid),
              0);
    EXPECT_GT(solid, 1000);
    // And a rotation that is not a quarter turn really turns it.
    EXPECT_GT(
        differingCells({box({0.82f, 0.42f, 0.42f}, {0, 0, 45})}, {box({0.82f, 0.42f, 0.42f})}),
        100);
}

TEST(Geometry, ScaleNumberAndArray) {
    Scene s = parseScene("[[obstacle]]\nscale = 2\n[[obstacle]]\nscale = [1, 2, 3]\n", "s.toml");
    EXPECT_EQ(s.obstacles[0].scale, Vec3f(2.0f));
    EXPECT_EQ(s.obstacles[1].scale, Vec3f(1, 2, 3));
    // A scaled box is the box of the scaled size.
    EXPECT_EQ(differingCells({box({0.21f, 0.42f, 0.42f}, {0, 0, 0}, {4, 2, 1})},
                             {box({0.84f, 0.84f, 0.42f})}),
              0);
    ObstacleSettings small, big;
    small.radius = 0.2f;
    small.scale = Vec3f(2.0f);
    big.radius = 0.4f;
    EXPECT_EQ(differingCells({small}, {big}), 0);
}

TEST(Geometry, ScaleErrors) {
    using test::parseError;
    EXPECT_EQ(parseError("[[obstacle]]\nscale = [1, 2]\n"),
              "s.toml:2:9: error: 'obstacle[1].scale' must be a number or an array of 3 numbers, "
              "got 2 elements");
    EXPECT_EQ(parseError("[[emitter]]\nscale = 0\n"),
              "s.toml:2:9: error: 'emitter[1].scale' = 0 is out of range (0, inf)");
    EXPECT_EQ(parseError("[[emitter]]\nscale = \"big\"\n"),
              "s.toml:2:9: error: 'emitter[1].scale' must be a number or an array of 3 numbers, "
              "got a string");
    EXPECT_EQ(parseError("[[obstacle]]\nscale = [1, -2, 1]\n"),
              "s.toml:2:13: error: 'obstacle[1].scale' element 2 = -2 is out of range (0, inf)");
    EXPECT_EQ(parseError("[[obstacle]]\nshape = \"mesh\"\n"),
              "s.toml:1:1: error: 'obstacle[1].file' is required for shape = \"mesh\"");
}

TEST(Geometry, SurfaceEmitterIsAShell) {
    EmitterSettings e;
    e.center = {1, 1, 1};
    e.radius = 0.5f;
    e.mode = EmitMode::Surface;
    e.thickness = 0.1f;
    Fields f = grid40();
    applyEmitters(f, {e}, 1, 0.0);
    float deepest = 0.0f, onSurface = 0.0f;
    for (int k = 0; k < 40; ++k)
        for (int j = 0; j < 40; ++j)
            for (int i = 0; i < 40; ++i) {
                Vec3f p = Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * 0.05f;
                float r = length(p - e.center);
                if (r < 0.35f) deepest = std::max(deepest, f.density(i, j, k));
                if (std::fabs(r - 0.5f) < 0.01f)
                    onSurface = std::max(onSurface, f.density(i, j, k));
            }
    EXPECT_EQ(deepest, 0.0f);  // nothing deep inside
    EXPECT_EQ(onSurface, 1.0f);
}

TEST(Geometry, NoiseScaleDefaultIsTodays) {
    // noise_scale 0 means a third of the emitter's size: giving that size is the same.
    EmitterSettings a;
    a.noise = 0.8f;
    EmitterSettings b = a;
    b.noiseScale = 2.0f * a.radius / 3.0f;
    Fields fa = grid40(), fb = grid40();
    applyEmitters(fa, {a}, 1, 0.3);
    applyEmitters(fb, {b}, 1, 0.3);
    double diff = 0;
    for (size_t n = 0; n < fa.density.size(); ++n) diff += std::fabs(fa.density[n] - fb.density[n]);
    EXPECT_LT(diff, 1e-3);
    b.noiseScale = 0.05f;  // and another scale changes the pattern
    fb = grid40();
    applyEmitters(fb, {b}, 1, 0.3);
    diff = 0;
    for (size_t n = 0; n < fa.density.size(); ++n) diff += std::fabs(fa.density[n] - fb.density[n]);
    EXPECT_GT(diff, 1.0);
}

// Divergence of the faces of f in each cell, 1/s.
float maxDivergence(const Fields& f) {
    float m = 0.0f;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i)
                m = std::max(m, std::fabs((f.u(i + 1, j, k) - f.u(i, j, k)) +
                                          (f.v(i, j + 1, k) - f.v(i, j, k)) +
                                          (f.w(i, j, k + 1) - f.w(i, j, k))) /
                                    f.dx);
    return m;
}

TEST(Turbulence, DivergenceFreeAndDeterministic) {
    // Away from the walls (whose faces it leaves alone) the force has no divergence.
    setThreadCount(1);
    Fields f = grid40();
    addTurbulence(f, 5.0f, 0.3f, 1.25, 0.1f);
    Fields inner({38, 38, 38}, f.dx);
    for (int k = 0; k < 38; ++k)
        for (int j = 0; j < 38; ++j)
            for (int i = 0; i < 39; ++i) {
                inner.u(i, j, k) = f.u(i + 1, j + 1, k + 1);
                inner.v(j, i, k) = f.v(j + 1, i + 1, k + 1);
                inner.w(j, k, i) = f.w(j + 1, k + 1, i + 1);
            }
    float speed = 0.0f;
    for (float x : f.u.values()) speed = std::max(speed, std::fabs(x));
    EXPECT_GT(speed, 0.05f);
    EXPECT_LT(maxDivergence(inner), 1e-4f * speed / f.dx);

    // The same at any thread count, and it evolves in time.
    setThreadCount(3);
    Fields g = grid40();
    addTurbulence(g, 5.0f, 0.3f, 1.25, 0.1f);
    setThreadCount(0);
    EXPECT_EQ(g.u.values(), f.u.values());
    Fields later = grid40();
    addTurbulence(later, 5.0f, 0.3f, 2.0, 0.1f);
    EXPECT_NE(later.u.values(), f.u.values());
}

// The size of the swirls in the u faces of f (those inside the walls): the
// lag, in metres, at which their autocorrelation (averaged along x, y and z)
// first falls to one half, interpolated between whole cells.
double correlationLength(const Fields& f) {
    const ScalarGrid& u = f.u;
    const Vec3i lo{1, 0, 0}, hi{u.nx() - 1, u.ny(), u.nz()};
    double mean = 0, count = 0;
    for (int k = lo.z; k < hi.z; ++k)
        for (int j = lo.y; j < hi.y; ++j)
            for (int i = lo.x; i < hi.x; ++i) mean += u(i, j, k), ++count;
    mean /= count;
    auto correlation = [&](int lag) {
        double sum = 0, pairs = 0;
        for (int axis = 0; axis < 3; ++axis) {
            const Vec3i d{axis == 0 ? lag : 0, axis == 1 ? lag : 0, axis == 2 ? lag : 0};
            for (int k = lo.z; k + d.z < hi.z; ++k)
                for (int j = lo.y; j + d.y < hi.y; ++j)
                    for (int i = lo.x; i + d.x < hi.x; ++i) {
                        sum += (u(i, j, k) - mean) * (u(i + d.x, j + d.y, k + d.z) - mean);
                        ++pairs;
                    }
        }
        return sum / pairs;
    };
    const double variance = correlation(0);
    double previous = 1.0;
    for (int lag = 1; lag < f.n.x / 2; ++lag) {
        const double c = correlation(lag) / variance;
        if (c < 0.5) return (lag - 1 + (previous - 0.5) / (previous - c)) * f.dx;
        previous = c;
    }
    return f.n.x / 2 * f.dx;
}

// physics.turbulence_scale sets the size of the swirls: three times the scale
// gives swirls about three times as large (the same strength otherwise).
TEST(Turbulence, ScaleSetsTheSizeOfTheSwirls) {
    auto force = [](float scale) {
        Fields f({64, 64, 64}, 1.0f / 32.0f);  // 2 m
        addTurbulence(f, 5.0f, scale, 1.25, 0.1f);
        return f;
    };
    const Fields small = force(0.1f), large = force(0.3f);
    EXPECT_NE(small.u.values(), large.u.values());
    const double smallSize = correlationLength(small), largeSize = correlationLength(large);
    EXPECT_GT(smallSize, 1.5 * small.dx) << "the small swirls should span cells";
    EXPECT_GT(largeSize, 2.0 * smallSize)
        << "swirls of scale 0.1 m: " << smallSize << " m; of 0.3 m: " << largeSize << " m";
    EXPECT_LT(largeSize, 4.0 * smallSize);
}

}  // namespace
}  // namespace plume
