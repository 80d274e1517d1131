// render.adaptive: where a voxel spans several pixels the frame traces a
// sparse grid of them and fills the rest by interpolation where their
// neighbours agree (render/march/pixel_tracer.cpp). What it draws is what tracing
// every pixel draws, to within the march's own noise; solids keep their
// edges; and it is the same frame for any thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/parallel.h"
#include "render/march/filter.h"
#include "render/renderer.h"

namespace plume {
namespace {

constexpr int kN = 32;  // cells over the 1 m domain
constexpr float kDx = 1.0f / kN;

// Lit puffs close up: a voxel spans about four pixels.
Scene closeScene(int width, int height) {
    Scene s;
    s.domain.size = {1, 1, 1};
    s.domain.resolution = kN;
    s.render.width = width;
    s.render.height = height;
    s.render.filter = RenderFilter::Cubic;
    s.camera.position = {0.5f, -2.0f, 0.5f};
    s.camera.lookAt = {0.5f, 0.5f, 0.5f};
    s.camera.fov = 40.0f;
    s.camera.given = true;
    LightSettings sun;
    sun.direction = {-0.5f, 0.3f, -0.8f};
    LightSettings lamp;
    lamp.type = LightType::Point;
    lamp.position = {1.5f, -0.5f, 1.2f};
    lamp.intensity = 2.0f;
    s.lights = {sun, lamp};
    return s;
}

// Two Gaussian puffs with a ripple, so the light has gradients, shadows and
// a silhouette to follow.
ScalarGrid puffs() {
    ScalarGrid g(kN, kN, kN);
    const Vec3f centres[2] = {{0.4f, 0.5f, 0.42f}, {0.62f, 0.45f, 0.62f}};
    const float radii[2] = {0.24f, 0.18f};
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) {
                const Vec3f p = Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * kDx;
                float d = 0.0f;
                for (int c = 0; c < 2; ++c) {
                    const Vec3f q = p - centres[c];
                    d += std::exp(-dot(q, q) / (radii[c] * radii[c]));
                }
                const float ripple =
                    0.8f + 0.2f * std::sin(29.0f * p.x) * std::sin(23.0f * p.y + 11.0f * p.z);
                g(i, j, k) = d > 0.05f ? 2.0f * d * ripple : 0.0f;
            }
    return g;
}

struct Frame {
    std::vector<float> rgb, t;
    float luminance(size_t pixel) const {
        return 0.2126f * rgb[pixel * 3] + 0.7152f * rgb[pixel * 3 + 1] +
               0.0722f * rgb[pixel * 3 + 2];
    }
};

Frame trace(Scene s, bool adaptive, const ScalarGrid& density, int frame = 3) {
    s.render.adaptive = adaptive;
    Renderer renderer(s);
    const LinearImage& image = renderer.trace({&density, nullptr, {0, 0, 0}, kDx}, frame);
    return {image.rgb, image.transmittance};
}

// How far a frame is from a reference over the smoke (the reference's
// opacity above 5%): mean |dL| / L, and the RMS of the transmittance's error.
struct Distance {
    double luminance = 0.0, transmittance = 0.0;
};
Distance distance(const Frame& f, const Frame& reference) {
    Distance d;
    int smoke = 0;
    for (size_t p = 0; p < reference.t.size(); ++p) {
        if (reference.t[p] > 0.95f) continue;
        ++smoke;
        const double l = reference.luminance(p);
        d.luminance += std::fabs(double(f.luminance(p)) - l) / std::max(l, 1e-4);
        const double dt = double(f.t[p]) - double(reference.t[p]);
        d.transmittance += dt * dt;
    }
    EXPECT_GT(smoke, 10000);
    d.luminance /= smoke;
    d.transmittance = std::sqrt(d.transmittance / smoke);
    return d;
}

TEST(AdaptivePixels, DrawWhatTracingEveryPixelDraws) {
    // Against a reference of four times the steps (the march converged), the
    // filled frame is as near as makes no visible difference: a B-spline
    // frame samples every ray at its intervals' midpoints (no jitter's noise
    // left for the fill to take out), so the fill's own error is all there is,
    // and it stays under 0.1% of the luminance and 1e-3 of the transmittance.
    const Scene s = closeScene(384, 256);
    const ScalarGrid density = puffs();
    const VolumeView view{&density, nullptr, {0, 0, 0}, kDx};
    ASSERT_EQ(fillStride(pixelsPerVoxel(s.camera, s.render.height, view, 1.5f)), 4);
    Scene fine = s;
    fine.render.step = 0.125f;
    const Frame reference = trace(fine, false, density);
    const Frame full = trace(s, false, density), fill = trace(s, true, density);
    const Distance dFull = distance(full, reference), dFill = distance(fill, reference);
    int differ = 0, smoke = 0;
    for (size_t p = 0; p < full.t.size(); ++p) {
        smoke += full.t[p] <= 0.95f;
        differ += full.t[p] <= 0.95f && fill.rgb[p * 3 + 1] != full.rgb[p * 3 + 1];
    }
    std::printf(
        "against 4x the steps: every pixel traced, mean |dL|/L %.4f, RMS dT %.4f; "
        "adaptive %.4f, %.4f (%d of %d smoke pixels filled or traced otherwise)\n",
        dFull.luminance, dFull.transmittance, dFill.luminance, dFill.transmittance, differ, smoke);
    EXPECT_GT(differ, smoke / 3);  // the frame took the sparse path
    EXPECT_LT(dFill.luminance, 1e-3);
    EXPECT_LT(dFill.transmittance, 1e-3);
    EXPECT_LT(dFull.luminance, 1e-3);
}

TEST(AdaptivePixels, FramesIgnoreTheThreadCount) {
    const Scene s = closeScene(200, 136);  // tiles do not divide the image evenly
    const ScalarGrid density = puffs();
    std::vector<Frame> frames;
    for (int threads : {1, 2, 3, 7}) {
        setThreadCount(threads);
        frames.push_back(trace(s, true, density));
    }
    setThreadCount(0);
    for (size_t n = 1; n < frames.size(); ++n) {
        EXPECT_EQ(frames[n].rgb, frames[0].rgb) << "image " << n;
        EXPECT_EQ(frames[n].t, frames[0].t) << "image " << n;
    }
}

TEST(AdaptivePixels, SolidsKeepTheirEdges) {
    // A ball in front of the smoke and another inside it: every pixel where
    // either covers the pixel wholly or in part is where tracing every pixel
    // has it, and its shading there is the traced shading's.
    Scene s = closeScene(384, 256);
    ObstacleSettings ball;
    ball.shape = Shape::Sphere;
    ball.center = {0.45f, 0.15f, 0.5f};
    ball.radius = 0.12f;
    ball.color = {0.6f, 0.5f, 0.4f};
    ObstacleSettings inside = ball;
    inside.center = {0.62f, 0.45f, 0.6f};
    inside.radius = 0.1f;
    s.obstacles = {ball, inside};
    const ScalarGrid density = puffs();
    const Frame full = trace(s, false, density), fill = trace(s, true, density);
    int covered = 0;
    double sum = 0.0;
    for (size_t p = 0; p < full.t.size(); ++p) {
        const bool solid = full.t[p] == 0.0f;
        EXPECT_EQ(fill.t[p] == 0.0f, solid) << "pixel " << p;
        if (solid) {
            ++covered;
            sum += std::fabs(double(fill.luminance(p)) - double(full.luminance(p))) /
                   std::max(double(full.luminance(p)), 1e-4);
        }
    }
    ASSERT_GT(covered, 1000);
    std::printf("solid pixels %d, mean |dL|/L on them %.4f\n", covered, sum / covered);
    EXPECT_LT(sum / covered, 0.01);
}

// The stride rule (render/march/filter.h): the traced pixels are a voxel or
// less apart, the sparsest such power of two up to kMaxFillStride, every
// pixel traced below two pixels a voxel.
TEST(AdaptivePixels, TheFillStrideIsTheLargestPowerOfTwoAVoxelSpans) {
    for (float ppv = 0.25f; ppv <= 12.0f; ppv += 0.03125f) {
        const int stride = fillStride(ppv);
        EXPECT_EQ(stride & (stride - 1), 0) << ppv << " pixels a voxel";
        EXPECT_LE(stride, kMaxFillStride) << ppv;
        if (ppv < 2.0f) {
            EXPECT_EQ(stride, 1) << ppv;
        }
        if (stride > 1) {
            EXPECT_LE(float(stride), ppv) << ppv;
        }
        if (stride < kMaxFillStride) {
            EXPECT_GT(float(2 * stride), ppv) << ppv;
        }
    }
}

// The same rule in a traced frame: the pixels the adaptive frame traced are
// the ones tracing every pixel gives bit for bit (the same jittered ray);
// no smoke pixel is farther than half a voxel's span from one, so the largest
// gap between traced pixels is at most a voxel, and where a voxel spans two
// pixels or more some are filled.
TEST(AdaptivePixels, TracedPixelsAreAVoxelOrLessApart) {
    const ScalarGrid density = puffs();
    const VolumeView view{&density, nullptr, {0, 0, 0}, kDx};
    const Scene at256 = closeScene(384, 256);
    const float perHeight = pixelsPerVoxel(at256.camera, 256, view, 1.5f) / 256.0f;
    for (float target : {1.5f, 2.5f, 3.5f, 5.0f}) {
        const int height = int(std::lround(target / perHeight));
        const Scene s = closeScene(height * 3 / 2, height);
        const float ppv = pixelsPerVoxel(s.camera, height, view, float(s.render.width) / height);
        const Frame full = trace(s, false, density), fill = trace(s, true, density);
        const int w = s.render.width, h = height;
        auto traced = [&](int x, int y) {
            const size_t p = size_t(y) * w + x;
            return fill.t[p] == full.t[p] && fill.rgb[p * 3] == full.rgb[p * 3] &&
                   fill.rgb[p * 3 + 1] == full.rgb[p * 3 + 1] &&
                   fill.rgb[p * 3 + 2] == full.rgb[p * 3 + 2];
        };
        // Each smoke pixel's distance (in rows or columns) to the nearest
        // traced one, searched up to 8 pixels out.
        constexpr int kReach = 8;
        int farthest = 0, smoke = 0;
        for (int y = kReach; y < h - kReach; ++y)
            for (int x = kReach; x < w - kReach; ++x) {
                if (full.t[size_t(y) * w + x] > 0.95f) continue;
                ++smoke;
                int d = 0;
                while (d <= kReach) {
                    bool found = false;
                    for (int dy = -d; dy <= d && !found; ++dy)
                        for (int dx = -d; dx <= d && !found; ++dx)
                            found =
                                (std::abs(dx) == d || std::abs(dy) == d) && traced(x + dx, y + dy);
                    if (found) break;
                    ++d;
                }
                farthest = std::max(farthest, d);
            }
        const int gap = 2 * farthest;
        std::printf(
            "%.2f pixels a voxel (%dx%d): stride %d, largest gap between traced pixels %d\n", ppv,
            w, h, fillStride(ppv), gap);
        ASSERT_GT(smoke, 1000) << ppv;
        EXPECT_LE(float(gap), std::max(ppv, 1.0f)) << ppv << " pixels a voxel";
        if (ppv >= 2.0f) {
            EXPECT_GE(gap, 2) << ppv << " pixels a voxel: every pixel traced";
        } else {
            EXPECT_EQ(gap, 0) << ppv << " pixels a voxel: a pixel filled";
        }
    }
}

}  // namespace
}  // namespace plume
