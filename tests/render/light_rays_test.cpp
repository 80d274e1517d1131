// The light toward every cell by rays (render/light/light_rays.h): the
// optical depth a path tracer's shadow ray would find, toward a sun straight
// above or slanting; the open sky's light where nothing shadows it; the same
// for any thread count.
#include "render/light/light_rays.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "core/parallel.h"
#include "render/light/in_scattering.h"

namespace plume {
namespace {

constexpr int kN = 32;
// Density, the sky's openness, a depth, the sky seen (three).
constexpr int kChannels = 6;
constexpr int kOpen = 1, kDepth = 2, kSeen = 3;
// A slab of density 1 over cells 20 to 27 in z.
constexpr int kSlabLo = 20, kSlabHi = 28;

ShadingGrid slab() {
    ShadingGrid grid;
    grid.resize({kN, kN, kN}, kChannels);
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i)
                grid.cell(grid.cellIndex(i, j, k))[0] = k >= kSlabLo && k < kSlabHi ? 1.0f : 0.0f;
    return grid;
}

const Box3i kWhole{{0, 0, 0}, {kN, kN, kN}};

TEST(LightRays, DepthIsThePathThroughTheSmokeTowardTheLight) {
    constexpr float kSigma = 0.25f;  // per voxel at density 1
    for (const Vec3f direction : {Vec3f(0, 0, -1), normalize(Vec3f(0.3f, -0.2f, -1.0f))}) {
        ShadingGrid grid = slab();
        LightRays rays;
        rays.start(grid, kWhole, kSigma);
        rays.traceDepth(grid, direction, {}, kDepth);
        // Cells whose ray toward the light leaves through the top, far from
        // the sides: the slab's 8 voxels (trilinear ramps keep the integral)
        // over the cosine below it, none above it, part of it inside.
        const float secant = 1.0f / -direction.z;
        for (int k = 4; k < kN - 1; ++k) {
            const float z = float(k) + 0.5f;
            const float through =
                std::clamp(float(kSlabHi) - std::max(z, float(kSlabLo)), 0.0f, 8.0f);
            float expected = kSigma * through * secant;
            if (k == kSlabLo - 1 || k == kSlabLo || k == kSlabHi - 1 || k == kSlabHi) continue;
            const float depth = grid.cell(grid.cellIndex(14, 16, k))[kDepth];
            EXPECT_NEAR(depth, expected, 0.01f * std::max(expected, 1.0f))
                << "cell z " << k << ", direction z " << direction.z;
        }
    }
}

TEST(LightRays, TheOpenSkyIsItsOwnLight) {
    const Environment environment(Vec3f(0.2f, 0.3f, 0.4f));
    std::vector<Vec3f> centres;
    for (int i = 0; i < 24; ++i) {
        const float z = 1.0f - (2.0f * float(i) + 1.0f) / 24.0f, r = std::sqrt(1.0f - z * z);
        centres.push_back({r * std::cos(2.39996323f * float(i)), r * std::sin(2.39996323f * float(i)), z});
    }
    const std::vector<SkyLight> sky = environment.skyLights(centres);
    ShadingGrid grid = slab();
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) grid.cell(grid.cellIndex(i, j, k))[0] = 0.0f;
    LightRays rays;
    rays.start(grid, kWhole, 0.25f);
    rays.traceSky(grid, sky, Vec3f(16.0f, -40.0f, 16.0f), 0.3f, {}, {kOpen, kSeen});
    const float* cell = grid.cell(grid.cellIndex(10, 20, 5));
    EXPECT_NEAR(cell[kOpen], 1.0f, 1e-5f);
    // The phase function over the 24 parts sums to about 1.
    EXPECT_NEAR(cell[kSeen + 1], 0.3f, 0.3f * 0.03f);
    EXPECT_NEAR(cell[kSeen + 2], 0.4f, 0.4f * 0.03f);

    // Under and over a thick slab, about half the sky.
    grid = slab();
    LightRays thick;
    thick.start(grid, kWhole, 4.0f);
    thick.traceSky(grid, sky, Vec3f(16.0f, -40.0f, 16.0f), 0.3f, {}, {kOpen, kSeen});
    for (const int k : {17, 30}) {
        const float open = grid.cell(grid.cellIndex(16, 16, k))[kOpen];
        EXPECT_GT(open, 0.35f) << k;
        EXPECT_LT(open, 0.75f) << k;
    }
}

TEST(LightRays, SameForAnyThreadCount) {
    const int before = threadCount();
    std::vector<float> depth[2];
    for (int t = 0; t < 2; ++t) {
        setThreadCount(t == 0 ? 1 : 4);
        ShadingGrid grid = slab();
        LightRays rays;
        rays.start(grid, {{2, 3, 4}, {30, 29, 31}}, 0.3f);
        rays.traceDepth(grid, normalize(Vec3f(0.5f, 0.7f, -0.4f)), {}, kDepth);
        for (size_t c = 0; c < size_t(kN) * kN * kN; ++c) depth[t].push_back(grid.cell(c)[kDepth]);
    }
    setThreadCount(before);
    EXPECT_EQ(depth[0], depth[1]);
}

}  // namespace
}  // namespace plume
