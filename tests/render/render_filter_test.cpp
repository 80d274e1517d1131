// render.filter: the tricubic B-spline against trilinear on a magnified voxel
// and on a coarse close-up, Auto's choice, and the B-spline's own weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "core/parallel.h"
#include "render/march/cubic.h"
#include "render/march/empty_space.h"
#include "render/march/filter.h"
#include "render/march/shading_grid.h"
#include "render/renderer.h"

namespace plume {
namespace {

// A camera on -Y looking along +Y at the centre of cell (4, 4, 4) of an 8^3
// grid of 1/8 m voxels; a narrow view, so one voxel spans about 18 pixels.
Scene spikeScene(RenderFilter filter) {
    Scene scene;
    scene.render.width = 160;
    scene.render.height = 21;
    scene.render.step = 0.05f;  // fine steps: the jitter adds no visible noise
    scene.render.albedo = 0.0f;
    scene.render.extinction = 8.0f;
    scene.render.filter = filter;
    scene.camera.position = {0.5625f, -1.5f, 0.5625f};
    scene.camera.lookAt = {0.5625f, 0.5625f, 0.5625f};
    scene.camera.fov = 4.0f;
    scene.camera.given = true;
    return scene;
}

// Optical depth along the middle row, through a single dense voxel.
std::vector<double> spikeScanline(RenderFilter filter) {
    Scene scene = spikeScene(filter);
    ScalarGrid density(8, 8, 8, Vec3f(0.5f), 0.0f);
    density(4, 4, 4) = 1.0f;
    Renderer renderer(scene);
    const LinearImage& image = renderer.trace({&density, nullptr, {0, 0, 0}, 0.125f}, 1);
    std::vector<double> depth;
    const int y = scene.render.height / 2;
    for (int x = 0; x < scene.render.width; ++x)
        depth.push_back(-std::log(double(image.transmittance[size_t(y) * scene.render.width + x])));
    return depth;
}

// The largest jump of the second difference between neighbouring pixels,
// relative to the largest second difference: about 1 where the profile has
// creases (the second difference is a spike at each), small where it is C1
// and smoother.
double secondDifferenceJump(const std::vector<double>& f) {
    std::vector<double> d2;
    for (size_t i = 1; i + 1 < f.size(); ++i) d2.push_back(f[i - 1] - 2.0 * f[i] + f[i + 1]);
    double largest = 0.0, jump = 0.0;
    for (size_t i = 0; i < d2.size(); ++i) {
        largest = std::max(largest, std::fabs(d2[i]));
        if (i > 0) jump = std::max(jump, std::fabs(d2[i] - d2[i - 1]));
    }
    return jump / largest;
}

TEST(RenderFilter, CubicSpikeIsSmoothWhereTrilinearCreases) {
    const std::vector<double> linear = spikeScanline(RenderFilter::Linear);
    const std::vector<double> cubic = spikeScanline(RenderFilter::Cubic);
    EXPECT_GT(secondDifferenceJump(linear), 0.5);
    EXPECT_LT(secondDifferenceJump(cubic), 0.15);

    // One bump: never negative, rising to its peak and falling after it.
    const size_t peak = size_t(std::max_element(cubic.begin(), cubic.end()) - cubic.begin());
    EXPECT_NEAR(double(peak), cubic.size() / 2.0, 2.0);
    EXPECT_GT(cubic[peak], 0.1);
    for (size_t x = 0; x < cubic.size(); ++x) {
        EXPECT_GE(cubic[x], 0.0) << x;
        if (x > 0 && x <= peak) {
            EXPECT_GE(cubic[x], cubic[x - 1] - 1e-6) << x;
        } else if (x > peak) {
            EXPECT_LE(cubic[x], cubic[x - 1] + 1e-6) << x;
        }
    }
}

TEST(RenderFilter, SharpSpikeIsSmoothOverItsBump) {
    // Over the lone voxel's own bump (to within a tenth of a voxel of where
    // it meets 0, 18 pixels either side of its centre) trilinear creases at
    // the peak (1.0) and the sharp filter is smooth: 0.165, the jitter's
    // noise on the interpolating spline's narrower bump (the B-spline over
    // the values is under 0.15 over the whole line, above).
    const std::vector<double> linear = spikeScanline(RenderFilter::Linear);
    const std::vector<double> cubic = spikeScanline(RenderFilter::Sharp);
    const size_t peak = size_t(std::max_element(cubic.begin(), cubic.end()) - cubic.begin());
    EXPECT_NEAR(double(peak), cubic.size() / 2.0, 2.0);
    EXPECT_GT(cubic[peak], 0.1);
    const size_t centre = cubic.size() / 2, half = 16;
    auto bump = [&](const std::vector<double>& f) {
        return std::vector<double>(f.begin() + long(centre - half),
                                   f.begin() + long(centre + half));
    };
    std::printf(
        "spike: second difference's largest jump over its largest, linear %.3f, sharp %.3f\n",
        secondDifferenceJump(bump(linear)), secondDifferenceJump(bump(cubic)));
    EXPECT_GT(secondDifferenceJump(bump(linear)), 0.5);
    EXPECT_LT(secondDifferenceJump(bump(cubic)), 0.25);

    // Never negative: the interpolating spline rings beside so sharp a
    // feature (below 0 from one to two voxels off its centre), and what it
    // reconstructs is clamped at 0. The ring left is where a negative lobe
    // along x meets one along the ray (their product is positive): a faint
    // band a voxel and a half off the centre, 2% of the peak's depth. The
    // bump rises to its peak and falls after it.
    for (size_t x = 0; x < cubic.size(); ++x) {
        EXPECT_GE(cubic[x], 0.0) << x;
        const double offCentre = std::fabs(double(x) + 0.5 - cubic.size() / 2.0) / 18.0;
        if (offCentre > 1.0) {
            EXPECT_LT(cubic[x], 0.03 * cubic[peak]) << x;
        } else if (x > 0 && x <= peak) {
            EXPECT_GE(cubic[x], cubic[x - 1] - 1e-6) << x;
        } else if (x > peak) {
            EXPECT_LE(cubic[x], cubic[x - 1] + 1e-6) << x;
        }
    }
}

TEST(RenderFilter, SharpKeepsAOneVoxelFeature) {
    // The ray through the middle of a lone voxel of density 1: trilinear and
    // the sharp filter reconstruct 1 at its centre, and the sharp filter holds
    // one voxel's worth of it along the ray, and a little more: the clamp at
    // 0 (above) drops the negative lobes beside it, which took 13% off. So
    // the optical depth there is about extinction x dx. The B-spline over the
    // values (cubic) spreads the voxel over the cells around it and keeps
    // (2/3)^2 of it on this ray (0.44), (2/3)^3 at its centre.
    const Scene scene = spikeScene(RenderFilter::Sharp);
    const double expected = double(scene.render.extinction) * 0.125;
    auto peakOf = [&](RenderFilter filter) {
        const std::vector<double> depth = spikeScanline(filter);
        return *std::max_element(depth.begin(), depth.end()) / expected;
    };
    const double sharp = peakOf(RenderFilter::Sharp), cubic = peakOf(RenderFilter::Cubic);
    std::printf(
        "one voxel: depth at its centre, sharp %.3f, cubic %.3f, linear %.3f of "
        "extinction x dx\n",
        sharp, cubic, peakOf(RenderFilter::Linear));
    EXPECT_GE(sharp, 0.9);
    EXPECT_LE(sharp, 1.2);
    EXPECT_NEAR(cubic, 4.0 / 9.0, 0.01);

    // At the voxel's centre itself: its value, where the B-spline over the
    // values gave (2/3)^3.
    const Vec3i n{8, 8, 8};
    std::vector<float> spike(size_t(n.x) * n.y * n.z, 0.0f), coefficients;
    spike[(size_t(4) * n.y + 4) * n.x + 4] = 1.0f;
    bsplineCoefficients(spike.data(), n, coefficients);
    ShadingGrid grid;
    grid.resize(n, 1);
    grid.setCoefficients(coefficients.data(), nullptr, nullptr);
    const Vec3f centre(4.5f, 4.5f, 4.5f);
    std::printf("one voxel: at its centre, sharp %.4f, cubic (the B-spline of the values) %.4f\n",
                grid.cubicDensity(centre), bsplineSample(spike.data(), n, centre));
    EXPECT_GE(grid.cubicDensity(centre), 0.9f);
    EXPECT_NEAR(grid.cubicDensity(centre), 1.0f, 1e-5f);
    EXPECT_NEAR(bsplineSample(spike.data(), n, centre), 8.0f / 27.0f, 1e-6f);
}

// A grid of n cells with smooth values, a lone spike and a step in it.
std::vector<float> testValues(Vec3i n) {
    std::vector<float> values(size_t(n.x) * n.y * n.z);
    for (size_t c = 0; c < values.size(); ++c)
        values[c] = std::sin(0.37f * float(c)) + 1.1f + (c % 13 == 5 ? 3.0f : 0.0f) +
                    (c % size_t(n.x) >= size_t(n.x) / 2 ? 2.0f : 0.0f);
    return values;
}

TEST(RenderFilter, CoefficientsInterpolateEveryCell) {
    // The B-spline over the coefficients passes through every cell's value,
    // at the faces, edges and corners too (the clamped taps read the lines
    // mirrored about the faces, as the prefilter starts them), on lines of
    // one cell up to many.
    for (Vec3i n : {Vec3i{9, 7, 6}, Vec3i{1, 2, 3}, Vec3i{40, 1, 5}, Vec3i{2, 33, 4}}) {
        SCOPED_TRACE(testing::Message() << n.x << "x" << n.y << "x" << n.z);
        const std::vector<float> values = testValues(n);
        std::vector<float> coefficients;
        bsplineCoefficients(values.data(), n, coefficients);
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const Vec3f p(float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f);
                    const float value = values[(size_t(k) * n.y + j) * n.x + i];
                    ASSERT_NEAR(bsplineSample(coefficients.data(), n, p), value, 2e-5f)
                        << i << ", " << j << ", " << k;
                }
        // A constant stays that constant everywhere.
        std::vector<float> constant(values.size(), 0.7f);
        bsplineCoefficients(constant.data(), n, coefficients);
        for (float c : coefficients) ASSERT_NEAR(c, 0.7f, 1e-6f);
    }
}

TEST(RenderFilter, CoefficientsAreTheSameForAnyThreadCount) {
    const Vec3i n{37, 29, 23};
    const std::vector<float> values = testValues(n);
    std::vector<float> one, other;
    setThreadCount(1);
    bsplineCoefficients(values.data(), n, one);
    for (int threads : {2, 3, 7}) {
        setThreadCount(threads);
        bsplineCoefficients(values.data(), n, other);
        EXPECT_EQ(other, one) << threads << " threads";
    }
    setThreadCount(0);
}

Scene closeUpScene(RenderFilter filter);

TEST(RenderFilter, SharpDensityIsNeverNegativeBesideAStep) {
    // Dense smoke (2) filling x < 4 beside clear air: the interpolating spline
    // dips to -0.1 of the step a voxel and a half beyond its last cell, and
    // overshoots by as much inside. Density is clamped at 0; so is the glow.
    const Vec3i n{12, 6, 6};
    std::vector<float> step(size_t(n.x) * n.y * n.z, 0.0f), coefficients;
    for (size_t c = 0; c < step.size(); ++c)
        if (c % size_t(n.x) < 4) step[c] = 2.0f;
    bsplineCoefficients(step.data(), n, coefficients);
    ShadingGrid grid;
    grid.resize(n, 1);
    grid.setCoefficients(coefficients.data(), nullptr, nullptr);
    float lowest = 0.0f, highest = 0.0f;
    for (float x = 0.0f; x <= 12.0f; x += 0.05f) {
        const Vec3f p(x, 3.3f, 2.7f);
        lowest = std::min(lowest, bsplineSample(coefficients.data(), n, p));
        highest = std::max(highest, grid.cubicDensity(p));
        EXPECT_GE(grid.cubicDensity(p), 0.0f) << x;
    }
    EXPECT_LT(lowest, -0.15f);  // there is ringing to clamp
    EXPECT_LT(highest, 2.0f * 1.12f);

    // A frame of it: no pixel more transparent than clear air, none with
    // negative light.
    Scene scene = closeUpScene(RenderFilter::Sharp);
    scene.render.width = scene.render.height = 48;
    ScalarGrid density(n.x, n.y, n.z, Vec3f(0.5f), 0.0f);
    std::copy(step.begin(), step.end(), density.data());
    Renderer renderer(scene);
    const LinearImage& image = renderer.trace({&density, nullptr, {0, 0, 0}, 0.05f}, 1);
    for (float t : image.transmittance) EXPECT_LE(t, 1.0f);
    for (float c : image.rgb) EXPECT_GE(c, 0.0f);
}

TEST(RenderFilter, EmptySpaceSkipsOnlyTheRingingsTail) {
    // Empty-space skipping reads density as the grid holds it: a lookup
    // whose 4x4x4 cells hold none is skipped. The interpolating spline rings
    // further out (a coefficient's weight falls by 0.27 a cell); what is
    // skipped is the ring's tail beyond two cells of the smoke, at worst (a
    // cube with sharp faces) a few hundredths of the smoke's density, and 0
    // along the axis where the skipping starts.
    const Vec3i n{24, 24, 24};
    ScalarGrid density(n.x, n.y, n.z, Vec3f(0.5f), 0.0f);
    for (int k = 8; k < 16; ++k)
        for (int j = 8; j < 16; ++j)
            for (int i = 8; i < 16; ++i) density(i, j, k) = 1.0f;
    std::vector<float> coefficients;
    bsplineCoefficients(density.data(), n, coefficients);
    ShadingGrid grid;
    grid.resize(n, 1);
    grid.setCoefficients(coefficients.data(), nullptr, nullptr);
    EmptySpace empty;
    empty.build(density, 3);
    float skipped = 0.0f, seen = 0.0f;
    for (float z = 0.1f; z < 24.0f; z += 0.25f)
        for (float y = 0.1f; y < 24.0f; y += 0.25f)
            for (float x = 0.1f; x < 24.0f; x += 0.25f) {
                const GridPoint g = grid.gridPoint({x, y, z});
                const float rho = grid.cubicDensity(g);
                (empty.cubicSeesDensity(g) ? seen : skipped) =
                    std::max(empty.cubicSeesDensity(g) ? seen : skipped, rho);
            }
    std::printf("sharp cube of density 1: largest density skipped %.4f, seen %.4f\n", skipped,
                seen);
    EXPECT_LT(skipped, 0.04f);
    EXPECT_GT(seen, 1.0f);
}

TEST(RenderFilter, BsplineWeightsArePositiveAndSumToOne) {
    for (float t : {0.0f, 0.25f, 0.5f, 0.999f}) {
        float w[4];
        bsplineWeights(t, w);
        EXPECT_NEAR(w[0] + w[1] + w[2] + w[3], 1.0f, 1e-6f);
        for (float wi : w) EXPECT_GE(wi, 0.0f);
    }
    // A constant grid stays constant, edges included (clamped taps), and a
    // ramp along x stays a ramp away from the edges (the B-spline keeps
    // linear functions).
    const Vec3i n{7, 4, 3};
    std::vector<float> constant(size_t(n.x) * n.y * n.z, 0.7f), ramp(constant.size());
    for (size_t c = 0; c < ramp.size(); ++c) ramp[c] = float(c % n.x);
    for (Vec3f p : {Vec3f(0.1f, 0.2f, 0.3f), Vec3f(2.5f, 2.0f, 1.5f), Vec3f(6.9f, 3.9f, 2.9f)})
        EXPECT_NEAR(bsplineSample(constant.data(), n, p), 0.7f, 1e-6f);
    for (float x : {2.0f, 3.3f, 4.5f})
        EXPECT_NEAR(bsplineSample(ramp.data(), n, Vec3f{x, 1.0f, 1.0f}), x - 0.5f, 1e-5f);
}

// The B-spline one axis at a time with scalar weights, as render/march/cubic.h
// computed it before the axes went four-wide.
float bsplineReference(const float* data, Vec3i n, Vec3f pGrid) {
    int cell[3];
    float w[3][4];
    for (int a = 0; a < 3; ++a) {
        const float x = std::clamp(pGrid[a] - 0.5f, 0.0f, float(n[a] - 1));
        const float f = std::floor(x);
        cell[a] = int(f);
        bsplineWeights(x - f, w[a]);
    }
    float rows[4] = {};
    for (int k = 0; k < 4; ++k) {
        const int z = std::clamp(cell[2] - 1 + k, 0, n.z - 1);
        float y[4] = {};
        for (int j = 0; j < 4; ++j) {
            const int yj = std::clamp(cell[1] - 1 + j, 0, n.y - 1);
            for (int i = 0; i < 4; ++i) {
                const int x = std::clamp(cell[0] - 1 + i, 0, n.x - 1);
                y[i] += w[1][j] * data[(size_t(z) * n.y + yj) * n.x + x];
            }
        }
        for (int i = 0; i < 4; ++i) rows[i] += w[2][k] * y[i];
    }
    return (w[0][0] * rows[0] + w[0][1] * rows[1]) + (w[0][2] * rows[2] + w[0][3] * rows[3]);
}

TEST(RenderFilter, FourWideLookupMatchesOneAxisAtATimeBitForBit) {
    // Inside, at every edge and corner, beyond the grid and at the last
    // cell centre, where trilinear steps one cell lower than the B-spline.
    const Vec3i n{9, 7, 6};
    std::vector<float> data(size_t(n.x) * n.y * n.z);
    for (size_t c = 0; c < data.size(); ++c) data[c] = std::sin(0.37f * float(c)) + 1.1f;
    ShadingGrid grid;
    grid.resize(n, 3);
    grid.setCoefficients(data.data(), nullptr, nullptr);  // all positive: no clamp
    std::vector<Vec3f> points;
    for (float x : {-1.0f, 0.2f, 0.5f, 1.3f, 2.75f, 4.5f, 7.9f, 8.5f, 9.0f, 11.0f})
        for (float y : {0.0f, 1.6f, 3.5f, 6.5f, 6.99f})
            for (float z : {0.4f, 2.2f, 5.5f, 7.0f}) points.push_back({x, y, z});
    for (Vec3f p : points) {
        SCOPED_TRACE(testing::Message() << p.x << ", " << p.y << ", " << p.z);
        EXPECT_EQ(bsplineSample(data.data(), n, p), bsplineReference(data.data(), n, p));
        const GridPoint g = grid.gridPoint(p);
        EXPECT_EQ(grid.cubicDensity(g), bsplineReference(data.data(), n, p));
        const Stencil a = grid.weights(p).stencil, b = grid.weights(g).stencil;
        EXPECT_EQ(a.at, b.at);
        EXPECT_EQ(a.dx, b.dx);
        EXPECT_EQ(a.dy, b.dy);
        EXPECT_EQ(a.dz, b.dz);
        EXPECT_EQ(a.fx, b.fx);
        EXPECT_EQ(a.fy, b.fy);
        EXPECT_EQ(a.fz, b.fz);
    }
}

TEST(RenderFilter, SmoothSourceIsTheBsplineOfEachLightChannel) {
    // Inside, at the edges and beyond them: lane c of the smooth source is the
    // B-spline of channel c (summed in another order, so not to the bit).
    const Vec3i n{9, 7, 6};
    const size_t cells = size_t(n.x) * n.y * n.z;
    ShadingGrid grid;
    grid.resize(n, 3);
    std::vector<float> channel[3];
    for (int c = 0; c < 3; ++c) {
        channel[c].resize(cells);
        for (size_t i = 0; i < cells; ++i)
            channel[c][i] = std::sin(0.37f * float(i) + float(c)) + 1.1f;
    }
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const size_t at = (size_t(k) * n.y + j) * n.x + i;
                float* out = grid.source(i, j, k);
                for (int c = 0; c < 3; ++c) out[c] = channel[c][at];
                out[3] = 0.0f;
            }
    for (float x : {-1.0f, 0.2f, 1.3f, 4.5f, 8.5f, 11.0f})
        for (float y : {0.0f, 1.6f, 3.5f, 6.99f})
            for (float z : {0.4f, 2.2f, 5.5f}) {
                SCOPED_TRACE(testing::Message() << x << ", " << y << ", " << z);
                const simd::F4 source = grid.smoothSourceAt(grid.gridPoint({x, y, z}));
                for (int c = 0; c < 3; ++c)
                    EXPECT_NEAR(source[c], bsplineReference(channel[c].data(), n, {x, y, z}),
                                1e-5f);
                EXPECT_EQ(source[3], 0.0f);
            }
}

TEST(RenderFilter, SmoothSourceReadsTheFireThroughCatmullRom) {
    // The fourth lane (a fire's light) interpolates: at every cell centre it
    // is the cell's value, where the B-spline gives a lone peak a third.
    const Vec3i n{8, 8, 8};
    ShadingGrid grid;
    grid.resize(n, 1);
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i)
                grid.source(i, j, k)[3] = i == 4 && j == 3 && k == 4 ? 1.0f : 0.1f * float(i + j);
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const float expected = grid.source(i, j, k)[3];
                const Vec3f p(float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f);
                EXPECT_NEAR(grid.smoothSourceAt(grid.gridPoint(p))[3], expected, 1e-5f)
                    << i << ", " << j << ", " << k;
            }
}

TEST(RenderFilter, AutoPicksCubicCloseUpAndLinearFarAway) {
    ScalarGrid density(64, 64, 64, Vec3f(0.5f), 0.0f);
    const VolumeView volume{&density, nullptr, {0, 0, 0}, 2.0f / 64};  // 2 m, centre (1, 1, 1)
    CameraSettings camera;
    camera.lookAt = {1, 1, 1};
    camera.fov = 40.0f;
    camera.position = {1, -3, 1};  // 4 m away: a voxel spans about 7.7 pixels at 720p
    EXPECT_NEAR(pixelsPerVoxel(camera, 720, volume), 7.7f, 0.1f);
    EXPECT_TRUE(useCubicFilter(RenderFilter::Auto, camera, 720, volume));
    EXPECT_FALSE(useCubicFilter(RenderFilter::Linear, camera, 720, volume));
    EXPECT_TRUE(useCubicFilter(RenderFilter::Sharp, camera, 720, volume));
    EXPECT_FALSE(useCubicFilter(RenderFilter::Auto, camera, 120, volume));  // a small image
    camera.position = {1, -30, 1};  // 31 m away: a voxel is under one pixel
    EXPECT_FALSE(useCubicFilter(RenderFilter::Auto, camera, 720, volume));
    EXPECT_TRUE(useCubicFilter(RenderFilter::Cubic, camera, 720, volume));

    // The renderer follows the choice: Auto draws what the filter it picks draws.
    auto render = [](RenderFilter filter, float distance) {
        Scene scene = spikeScene(filter);
        scene.render.albedo = 0.9f;
        scene.lights = {LightSettings{}};
        scene.camera.position.y = 0.5625f - distance;
        ScalarGrid spike(8, 8, 8, Vec3f(0.5f), 0.0f);
        spike(4, 4, 4) = 1.0f;
        spike(3, 4, 4) = 0.5f;
        return Renderer(scene).renderLinear({&spike, nullptr, {0, 0, 0}, 0.125f}, 1);
    };
    EXPECT_EQ(render(RenderFilter::Auto, 2.0f), render(RenderFilter::Cubic, 2.0f));
    EXPECT_NE(render(RenderFilter::Auto, 2.0f), render(RenderFilter::Linear, 2.0f));
    EXPECT_EQ(render(RenderFilter::Auto, 200.0f), render(RenderFilter::Linear, 200.0f));
}

// A coarse close-up: a rippled Gaussian puff in an n^3 grid (1 m), lit by a
// sun from the side and the sky, seen so close that a voxel spans about 18
// pixels. Smooth at the scale of a voxel, so whatever the Laplacian finds
// there is the reconstruction's.
ScalarGrid rippledPuff(int n = 20) {
    ScalarGrid density(n, n, n, Vec3f(0.5f), 0.0f);
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                const Vec3f p((float(i) + 0.5f) / n - 0.5f, (float(j) + 0.5f) / n - 0.5f,
                              (float(k) + 0.5f) / n - 0.5f);
                const float ripple =
                    0.85f + 0.15f * std::sin(23.0f * p.x) * std::sin(19.0f * p.y + 7.0f * p.z);
                density(i, j, k) = 1.5f * std::exp(-dot(p, p) / (0.3f * 0.3f)) * ripple;
            }
    return density;
}

// The close-up's luminance, density read through `filter`: the sum of four
// frames, as each jitters its samples afresh and the Laplacian would find
// that noise before the creases; binned 2x2 and marched in fine steps for the
// same reason (at twice the step the ratio below is 0.78 and 0.98).
struct CloseUp {
    int width = 0, height = 0;
    std::vector<double> luminance;
    std::vector<float> transmittance;  // of frame 1
};

Scene closeUpScene(RenderFilter filter) {
    Scene scene;
    scene.render.width = 128;
    scene.render.height = 128;
    scene.render.step = 0.05f;
    scene.render.extinction = 10.0f;
    scene.render.filter = filter;
    scene.camera.position = {0.45f, -0.5f, 0.55f};
    scene.camera.lookAt = {0.5f, 0.5f, 0.45f};
    scene.camera.fov = 20.0f;
    scene.camera.given = true;
    scene.lights = {LightSettings{}};
    scene.lights[0].direction = {0.8f, 0.3f, -0.5f};
    return scene;
}

CloseUp closeUp(RenderFilter filter, const ScalarGrid& density) {
    const Scene scene = closeUpScene(filter);
    const VolumeView volume{&density, nullptr, {0, 0, 0}, 0.05f};
    EXPECT_GT(pixelsPerVoxel(scene.camera, scene.render.height, volume), 15.0f);
    Renderer renderer(scene);
    constexpr int kFrames = 4, kBin = 2;
    CloseUp out;
    out.width = scene.render.width / kBin;
    out.height = scene.render.height / kBin;
    out.luminance.assign(size_t(out.width) * out.height, 0.0);
    out.transmittance.assign(out.luminance.size(), 0.0f);
    for (int frame = 1; frame <= kFrames; ++frame) {
        const LinearImage& image = renderer.trace(volume, frame);
        for (int y = 0; y < image.height; ++y)
            for (int x = 0; x < image.width; ++x) {
                const size_t pixel = size_t(y) * image.width + x;
                const float* c = &image.rgb[pixel * 3];
                const size_t bin = size_t(y / kBin) * out.width + x / kBin;
                out.luminance[bin] += 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
                // The bin's most transparent pixel.
                if (frame == 1)
                    out.transmittance[bin] =
                        std::max(out.transmittance[bin], image.transmittance[pixel]);
            }
    }
    return out;
}

// The five-point Laplacian of a close-up's luminance (0 on the border bins).
std::vector<double> laplacian(const CloseUp& c) {
    const int w = c.width, h = c.height;
    std::vector<double> out(c.luminance.size(), 0.0);
    for (int y = 1; y + 1 < h; ++y)
        for (int x = 1; x + 1 < w; ++x) {
            const double* l = &c.luminance[size_t(y) * w + x];
            out[size_t(y) * w + x] = l[-1] + l[1] + l[-w] + l[w] - 4.0 * l[0];
        }
    return out;
}

// The Laplacian less its mean over the (2 radius + 1)^2 bins around (over
// the inner bins, where the window meets the border): what is left of a
// curvature that changes slowly across the frame, the puff's own, is near
// 0, while a crease, a line a bin or two wide, keeps most of its height.
std::vector<double> withoutSlowCurvature(const std::vector<double>& lap, int w, int h, int radius) {
    std::vector<double> out(lap.size(), 0.0);
    for (int y = 1; y + 1 < h; ++y)
        for (int x = 1; x + 1 < w; ++x) {
            double sum = 0.0;
            int count = 0;
            for (int v = std::max(1, y - radius); v <= std::min(h - 2, y + radius); ++v)
                for (int u = std::max(1, x - radius); u <= std::min(w - 2, x + radius); ++u) {
                    sum += lap[size_t(v) * w + u];
                    ++count;
                }
            out[size_t(y) * w + x] = lap[size_t(y) * w + x] - sum / count;
        }
    return out;
}

// The mean absolute value of `a` and of `b` (per-bin maps of two close-ups)
// over the bins where both show smoke (transmittance under 1/2 at the bin
// and its four neighbours).
std::pair<double, double> meanAbsWhereSmoke(const CloseUp& ca, const CloseUp& cb,
                                            const std::vector<double>& a,
                                            const std::vector<double>& b) {
    const int w = ca.width, h = ca.height;
    auto smoke = [&](int x, int y) {
        for (const CloseUp* c : {&ca, &cb})
            for (auto [dx, dy] : {std::pair{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}})
                if (c->transmittance[size_t(y + dy) * w + x + dx] >= 0.5f) return false;
        return true;
    };
    double sa = 0.0, sb = 0.0;
    int count = 0;
    for (int y = 1; y + 1 < h; ++y)
        for (int x = 1; x + 1 < w; ++x) {
            if (!smoke(x, y)) continue;
            sa += std::fabs(a[size_t(y) * w + x]);
            sb += std::fabs(b[size_t(y) * w + x]);
            ++count;
        }
    EXPECT_GT(count, w * h / 2);  // the smoke fills most of the frame
    return {sa / count, sb / count};
}

TEST(RenderFilter, CubicCloseUpHasNoVoxelCreases) {
    // Trilinear density and light draw the voxel lattice as creases: lines of
    // large Laplacian along the voxel faces. The cubic frame's mean
    // |Laplacian| of luminance over the linear frame's, where both show
    // smoke, is 0.72 with density and light through the B-spline, 0.94 with
    // the light blended trilinearly under it. Not lower, as what is left is
    // no crease: with every ray at its intervals' midpoints (as now) the cubic
    // frame's Laplacian is the puff's own curvature, a bowl of one sign over
    // the frame with no lattice in it, 0.65 of the linear frame's; no smooth
    // reconstruction takes it away.
    //
    // So the creases are measured apart from it: the Laplacian less its mean
    // over 9x9 bins (a voxel is about 9 bins). Cubic over linear: 0.05 with
    // the light through the B-spline (0.30 when each ray took a hashed
    // offset: what was left was its noise); 0.96 with the light blended
    // trilinearly. The sharp filter (density through every voxel's value):
    // 0.65 and 0.06.
    const ScalarGrid density = rippledPuff();
    const CloseUp linear = closeUp(RenderFilter::Linear, density);
    for (RenderFilter filter : {RenderFilter::Cubic, RenderFilter::Sharp}) {
        const char* name = filter == RenderFilter::Cubic ? "cubic" : "sharp";
        const CloseUp cubic = closeUp(filter, density);
        const int w = cubic.width, h = cubic.height;
        const std::vector<double> lapCubic = laplacian(cubic), lapLinear = laplacian(linear);
        const auto [all, allLinear] = meanAbsWhereSmoke(cubic, linear, lapCubic, lapLinear);
        constexpr int kVoxelRadius = 4;
        const auto [creases, creasesLinear] =
            meanAbsWhereSmoke(cubic, linear, withoutSlowCurvature(lapCubic, w, h, kVoxelRadius),
                              withoutSlowCurvature(lapLinear, w, h, kVoxelRadius));
        std::printf("mean |Laplacian| of luminance: %s %.4g, linear %.4g, ratio %.3f\n", name, all,
                    allLinear, all / allLinear);
        std::printf("less its mean over a voxel: %s %.4g, linear %.4g, ratio %.3f\n", name, creases,
                    creasesLinear, creases / creasesLinear);
        EXPECT_LT(all / allLinear, 0.8) << name;
        EXPECT_LT(creases / creasesLinear, 0.4) << name;
    }
}

// The rippled puff over 32 cells, seen by the close-up's camera at 192
// pixels (a voxel spans 17), in one frame of render.step: the frame's
// luminance and its five-point Laplacian, where it shows smoke.
struct DefaultCloseUp {
    std::vector<double> luminance, laplacian;
    std::vector<uint8_t> smoke;  // transmittance under 1/2 at the pixel and its four neighbours
    int size = 0;
};

DefaultCloseUp defaultCloseUp(float step, int frame) {
    constexpr int n = 32, size = 192;
    const ScalarGrid density = rippledPuff(n);
    Scene scene = closeUpScene(RenderFilter::Auto);
    scene.render.width = scene.render.height = size;
    scene.render.step = step;
    const VolumeView volume{&density, nullptr, {0, 0, 0}, 1.0f / n};
    EXPECT_GT(pixelsPerVoxel(scene.camera, size, volume), 15.0f);
    Renderer renderer(scene);
    const LinearImage& image = renderer.trace(volume, frame);
    DefaultCloseUp out;
    out.size = size;
    out.luminance.resize(size_t(size) * size);
    for (size_t p = 0; p < out.luminance.size(); ++p)
        out.luminance[p] = 0.2126 * image.rgb[3 * p] + 0.7152 * image.rgb[3 * p + 1] +
                           0.0722 * image.rgb[3 * p + 2];
    out.laplacian.assign(out.luminance.size(), 0.0);
    out.smoke.assign(out.luminance.size(), 0);
    for (int y = 1; y + 1 < size; ++y)
        for (int x = 1; x + 1 < size; ++x) {
            const size_t p = size_t(y) * size + x;
            const double* l = &out.luminance[p];
            out.laplacian[p] = l[-1] + l[1] + l[-size] + l[size] - 4.0 * l[0];
            out.smoke[p] = image.transmittance[p] < 0.5f && image.transmittance[p - 1] < 0.5f &&
                           image.transmittance[p + 1] < 0.5f &&
                           image.transmittance[p - size] < 0.5f &&
                           image.transmittance[p + size] < 0.5f;
        }
    return out;
}

TEST(RenderFilter, CloseUpHasNoGrain) {
    // A default frame of a coarse close-up: the B-spline, the fill between
    // pixels four apart, render.step 0.5. Each ray's sums at a hashed offset
    // drew their error as grain, which the fill shaped into blobs four
    // pixels apart: the frame's mean |Laplacian| was 6.5 times that of a
    // march ten times finer, and 1.34 times as large at the traced pixels as
    // between them. At the intervals' midpoints the B-spline's smoke is
    // sampled finely enough that the frame's Laplacian is the puff's own.
    const DefaultCloseUp frame = defaultCloseUp(0.5f, 1), fine = defaultCloseUp(0.05f, 1);
    double all = 0.0, reference = 0.0, traced = 0.0, between = 0.0;
    int count = 0, tracedCount = 0;
    for (size_t p = 0; p < frame.laplacian.size(); ++p) {
        if (!frame.smoke[p] || !fine.smoke[p]) continue;
        const double a = std::fabs(frame.laplacian[p]);
        all += a;
        reference += std::fabs(fine.laplacian[p]);
        ++count;
        const int x = int(p % frame.size), y = int(p / frame.size);
        if (x % 4 == 0 && y % 4 == 0) {
            traced += a;
            ++tracedCount;
        } else {
            between += a;
        }
    }
    ASSERT_GT(count, frame.size * frame.size / 2);
    const double grain = all / reference;
    const double lattice = (traced / tracedCount) / (between / (count - tracedCount));
    std::printf(
        "mean |Laplacian|: step 0.5 %.4g, step 0.05 %.4g, ratio %.3f; traced pixels "
        "against the rest %.3f\n",
        all / count, reference / count, grain, lattice);
    EXPECT_LT(grain, 1.2);
    EXPECT_LT(lattice, 1.1);
    // The same from frame to frame: nothing left to crawl.
    EXPECT_EQ(defaultCloseUp(0.5f, 2).luminance, frame.luminance);
}

TEST(RenderFilter, CubicLightAroundTheSmokeIsThisFramesOwn) {
    // The B-spline reads the light three cells around the smoke (lightApron):
    // a frame of a small blob drawn after a frame full of smoke, whose light
    // filled every cell, is the blob's frame drawn first, bit for bit. The
    // blob's cells 10 to 13 are three from the 8^3 blocks beside its own
    // (cells 7 and 16), which the light is filled in too (EmptySpace).
    ScalarGrid full(20, 20, 20, Vec3f(0.5f), 1.0f), blob(20, 20, 20, Vec3f(0.5f), 0.0f);
    for (int k = 10; k < 14; ++k)
        for (int j = 10; j < 14; ++j)
            for (int i = 10; i < 14; ++i) blob(i, j, k) = 2.0f;
    Scene scene = closeUpScene(RenderFilter::Cubic);
    scene.render.width = scene.render.height = 48;
    scene.render.step = 0.25f;
    const VolumeView fullView{&full, nullptr, {0, 0, 0}, 0.05f};
    const VolumeView blobView{&blob, nullptr, {0, 0, 0}, 0.05f};
    Renderer first(scene), after(scene);
    const std::vector<float> alone = first.trace(blobView, 1).rgb;
    after.trace(fullView, 1);
    EXPECT_EQ(after.trace(blobView, 1).rgb, alone);
}

}  // namespace
}  // namespace plume
