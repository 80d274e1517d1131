// render.motion_blur: smoke smeared along its velocity, keyed solids along
// their motion, over a shutter centred on the frame; nothing changes at 0.
#include "render/march/motion_blur.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/parallel.h"
#include "io/vdb_cache.h"
#include "render/renderer.h"
#include "support/run.h"

namespace plume {
namespace {

constexpr int kW = 96, kH = 64;
constexpr int kN = 32;
constexpr float kDx = 1.0f / kN;

Scene viewScene() {
    Scene s;
    s.domain.size = {1, 1, 1};
    s.domain.resolution = kN;
    s.time.fps = 24;
    s.render.width = kW;
    s.render.height = kH;
    s.camera.position = {0.5f, -2.0f, 0.5f};
    s.camera.lookAt = {0.5f, 0.5f, 0.5f};
    s.camera.fov = 35.0f;
    s.camera.given = true;
    s.lights = {LightSettings{}};
    return s;
}

// A small cube of smoke at the domain's centre.
ScalarGrid cube(float rho) {
    ScalarGrid g(kN, kN, kN);
    for (int k = 13; k < 19; ++k)
        for (int j = 13; j < 19; ++j)
            for (int i = 13; i < 19; ++i) g(i, j, k) = rho;
    return g;
}

// Columns and rows of the image where anything covers at least 2%.
void coverage(const LinearImage& f, int& width, int& height, double& total) {
    int x0 = kW, x1 = -1, y0 = kH, y1 = -1;
    total = 0;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const float a = 1.0f - f.transmittance[size_t(y) * kW + x];
            total += a;
            if (a > 0.02f)
                x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y),
                y1 = std::max(y1, y);
        }
    width = x1 - x0 + 1;
    height = y1 - y0 + 1;
}

TEST(MotionBlur, SmokeSmearsAlongItsVelocityOnly) {
    // Thin (an optical depth of 0.15 across), so coverage adds up linearly.
    const ScalarGrid density = cube(0.02f);
    // 4.8 m/s along x: 0.2 m (6.4 cells, 8 pixels) in a whole-frame shutter at 24 fps.
    ScalarGrid u(kN + 1, kN, kN, {0.0f, 0.5f, 0.5f}, 4.8f);
    ScalarGrid v(kN, kN + 1, kN, {0.5f, 0.0f, 0.5f}), w(kN, kN, kN + 1, {0.5f, 0.5f, 0.0f});
    VolumeView view{&density, nullptr, {0, 0, 0}, kDx, {&u, &v, &w}};

    Scene s = viewScene();
    Renderer sharp(s);
    const LinearImage still = sharp.trace(view, 1);
    int w0, h0, w1, h1;
    double a0, a1;
    coverage(still, w0, h0, a0);
    s.render.motionBlur = 1.0f;
    Renderer blurred(s);
    const LinearImage moving = blurred.trace(view, 1);
    coverage(moving, w1, h1, a1);
    // Wider along x by most of the path (its faint ends fall under the
    // threshold), no taller; the smoke is spread, not made.
    EXPECT_GE(w1, w0 + 5);
    EXPECT_EQ(h1, h0);
    EXPECT_NEAR(a1, a0, 0.1 * a0);

    // Still air: the blur leaves the smoke where it is, exactly.
    u.fill(0.0f);
    EXPECT_EQ(blurred.trace(view, 1).rgb, still.rgb);
}

TEST(MotionBlur, BlurAlongVelocityAveragesThePath) {
    // A single bright cell moving 4 cells over the shutter along y becomes a
    // streak of the same total.
    ScalarGrid density(16, 16, 16);
    density(8, 8, 8) = 1.0f;
    ScalarGrid u(17, 16, 16, {0.0f, 0.5f, 0.5f});
    ScalarGrid v(16, 17, 16, {0.5f, 0.0f, 0.5f}, 4.0f);
    ScalarGrid w(16, 16, 17, {0.5f, 0.5f, 0.0f});
    const VolumeView view{&density, nullptr, {0, 0, 0}, 1.0f, {&u, &v, &w}};
    ScalarGrid d, t, t2;
    const VolumeView out = blurAlongVelocity(view, 1.0f, d, t, t2);
    EXPECT_EQ(out.density, &d);
    // The grid grows by what the path can reach past it, and moves its
    // origin so the cells stay where they were.
    const int pad = (d.nx() - 16) / 2;
    EXPECT_GE(pad, 2);
    EXPECT_EQ(out.origin, Vec3f(float(-pad)));
    double sum = 0, offAxis = 0;
    int lit = 0;
    for (int k = 0; k < d.nz(); ++k)
        for (int j = 0; j < d.ny(); ++j)
            for (int i = 0; i < d.nx(); ++i) {
                sum += d(i, j, k);
                if (i != 8 + pad || k != 8 + pad) offAxis += d(i, j, k);
                lit += d(i, j, k) > 0.0f;
            }
    const int c = 8 + pad;
    EXPECT_NEAR(sum, 1.0, 0.02);
    EXPECT_EQ(offAxis, 0.0);
    EXPECT_GE(lit, 4);                                   // spread over the path...
    EXPECT_LT(d(c, c, c), 0.5f);                         // ...so the peak drops
    EXPECT_NEAR(d(c, c - 1, c), d(c, c + 1, c), 1e-6f);  // centred on the frame
}

Scene throwScene() {
    Scene s = viewScene();
    ObstacleSettings ball;
    ball.radius = 0.12f;
    ball.center = {0.2f, 0.5f, 0.5f};
    // 0.6 m a frame along x.
    ball.animation.tracks.push_back(
        {"center", {}, {{0.0, {0.2f, 0.5f, 0.5f}}, {1.0, {0.8f, 0.5f, 0.5f}}}});
    s.obstacles = {ball};
    return s;
}

TEST(MotionBlur, KeyedSolidSmearsAlongItsMotion) {
    const ScalarGrid empty(kN, kN, kN);
    const VolumeView view{&empty, nullptr, {0, 0, 0}, kDx};
    Scene s = throwScene();
    s.render.motionBlur = 0.5f;  // frame 0.5 +- 0.25: x from 0.35 to 0.65 m
    Renderer renderer(s);
    int w1, h1, w0, h0;
    double a1, a0;
    coverage(renderer.trace(view, 0), w1, h1, a1);  // frame 0: the ball at rest at its key
    // At rest before its first key (the shutter covers frames -0.25..0.25):
    // it moves only in the second half, so it is wider than sharp.
    s.render.motionBlur = 0.0f;
    Renderer sharp(s);
    coverage(sharp.trace(view, 0), w0, h0, a0);
    EXPECT_GT(w1, w0 + 2);
    EXPECT_NEAR(h1, h0, 1);
    EXPECT_NEAR(a1, a0, 0.1 * a0);
}

TEST(MotionBlur, BitIdenticalForAnyThreadCount) {
    const ScalarGrid density = cube(1.0f);
    ScalarGrid u(kN + 1, kN, kN, {0.0f, 0.5f, 0.5f}, 1.0f);
    ScalarGrid v(kN, kN + 1, kN, {0.5f, 0.0f, 0.5f}, 0.5f), w(kN, kN, kN + 1, {0.5f, 0.5f, 0.0f});
    const VolumeView view{&density, nullptr, {0, 0, 0}, kDx, {&u, &v, &w}};
    Scene s = throwScene();
    s.render.motionBlur = 0.7f;
    auto run = [&](int threads) {
        setThreadCount(threads);
        Renderer r(s);
        LinearImage f = r.trace(view, 0);
        setThreadCount(0);
        return f;
    };
    const LinearImage a = run(1), b = run(3);
    EXPECT_EQ(a.rgb, b.rgb);
    EXPECT_EQ(a.transmittance, b.transmittance);
}

TEST(MotionBlur, CachesCarryTheirVelocityToRenderVdb) {
    // A plume cache frame of a puff moving along x at 3 m/s, read back as
    // render-vdb reads it when motion blur is on.
    Fields f({kN, kN, kN}, kDx);
    f.density = cube(0.5f);
    f.u.fill(3.0f);
    const std::string path = (test::scratchDir("motion_blur_cache") / "puff_0001.vdb").string();
    writeVdbFrame(path, f, 1, "puff", CacheOptions{false, "velocity", 1e-4f});
    const LoadedVolume sharpOnly = readVdbVolume(path);
    EXPECT_FALSE(sharpOnly.hasVelocity);
    const LoadedVolume loaded = readVdbVolume(path, "density", {"vel", "velocity"});
    ASSERT_TRUE(loaded.hasVelocity);
    for (int k = 0; k < loaded.density.nz(); ++k)
        for (int j = 0; j < loaded.density.ny(); ++j)
            for (int i = 0; i < loaded.density.nx(); ++i)
                if (loaded.density(i, j, k) > 0.0f) {
                    ASSERT_NEAR(loaded.velocity[0](i, j, k), 3.0f, 1e-5f);
                    ASSERT_NEAR(loaded.velocity[1](i, j, k), 0.0f, 1e-6f);
                }
    Scene s = viewScene();
    s.render.motionBlur = 1.0f;
    Renderer blurred(s), sharp(s);
    const std::vector<float> a = blurred.trace(loaded.view(), 1).rgb;
    const std::vector<float> b = sharp.trace(sharpOnly.view(), 1).rgb;
    EXPECT_NE(a, b);
}

}  // namespace
}  // namespace plume
