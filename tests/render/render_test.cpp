#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "io/png.h"
#include "render/camera.h"
#include "render/light/light_transmittance.h"
#include "render/renderer.h"
#include "support/run.h"

#define STB_IMAGE_STATIC  // golden_test.cpp has its own copy
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

namespace plume {
namespace {

namespace fs = std::filesystem;

fs::path testDir(const std::string& name) { return test::scratchDir(name); }

// A small scene looking at a 1 m cube from -Y, one distant light.
Scene smallScene(int width = 96, int height = 64) {
    Scene scene;
    scene.render.width = width;
    scene.render.height = height;
    scene.camera.position = {0.5f, -2.0f, 0.5f};
    scene.camera.lookAt = {0.5f, 0.5f, 0.5f};
    scene.camera.fov = 40.0f;
    scene.camera.given = true;
    scene.lights = {LightSettings{}};
    return scene;
}

// Gaussian puffs with a little deterministic ripple, n^3 cells over 1 m.
ScalarGrid puffs(int n, const std::vector<std::pair<Vec3f, float>>& centres) {
    ScalarGrid g(n, n, n);
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                Vec3f p((i + 0.5f) / n, (j + 0.5f) / n, (k + 0.5f) / n);
                float d = 0.0f;
                for (const auto& [c, r] : centres) {
                    Vec3f q = p - c;
                    d += std::exp(-dot(q, q) / (r * r));
                }
                float ripple =
                    0.85f + 0.15f * std::sin(23.0f * p.x) * std::sin(19.0f * p.y + 7.0f * p.z);
                g(i, j, k) = d > 0.05f ? 1.5f * d * ripple : 0.0f;
            }
    return g;
}

Vec3f pixel(const std::vector<float>& linear, int width, int x, int y) {
    size_t n = (size_t(y) * width + x) * 3;
    return {linear[n], linear[n + 1], linear[n + 2]};
}

float luminance(Vec3f c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }

// Mean luminance over a rectangle of pixels.
float meanLuminance(const std::vector<float>& linear, int width, int x0, int y0, int x1, int y1) {
    double sum = 0.0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) sum += luminance(pixel(linear, width, x, y));
    return float(sum / ((x1 - x0) * (y1 - y0)));
}

TEST(Render, EmptyVolumeIsExactlyTheBackground) {
    Scene scene = smallScene();
    ScalarGrid density(16, 16, 16);
    Renderer renderer(scene);
    std::vector<float> linear = renderer.renderLinear({&density, nullptr, {0, 0, 0}, 1.0f / 16}, 1);
    const RenderSettings& r = scene.render;
    for (int y = 0; y < r.height; ++y) {
        float f = 1.0f - (y + 0.5f) / r.height;
        Vec3f expected = r.backgroundBottom + (r.backgroundTop - r.backgroundBottom) * f;
        for (int x = 0; x < r.width; ++x) {
            Vec3f c = pixel(linear, r.width, x, y);
            ASSERT_NEAR(c.x, expected.x, 1e-6f) << x << "," << y;
            ASSERT_NEAR(c.y, expected.y, 1e-6f);
            ASSERT_NEAR(c.z, expected.z, 1e-6f);
        }
    }
}

TEST(Render, SlabTransmittanceIsBeerLambert) {
    // A uniform slab filling the grid, seen straight through along +Y.
    Scene scene = smallScene(32, 32);
    scene.camera.position = {0.5f, -40.0f, 0.5f};
    scene.camera.fov = 0.5f;  // nearly parallel rays through the middle
    scene.render.albedo = 0.0f;
    scene.render.extinction = 3.0f;
    const int n = 24;
    const float dx = 1.0f / n;
    ScalarGrid density(n, n, n, Vec3f(0.5f), 0.4f);
    Renderer renderer(scene);
    std::vector<float> linear = renderer.renderLinear({&density, nullptr, {0, 0, 0}, dx}, 3);
    const float expected = std::exp(-3.0f * 0.4f * 1.0f);
    const RenderSettings& r = scene.render;
    for (int y = 0; y < r.height; ++y) {
        float f = 1.0f - (y + 0.5f) / r.height;
        Vec3f bg = r.backgroundBottom + (r.backgroundTop - r.backgroundBottom) * f;
        for (int x = 0; x < r.width; ++x) {
            Vec3f c = pixel(linear, r.width, x, y);
            EXPECT_NEAR(c.y / bg.y, expected, 0.01f * expected) << x << "," << y;
        }
    }
}

// Light falling straight down through columns of smoke that alternate dense
// and empty, one voxel wide: without spread each column's depth is its own,
// with it the depth passed down is shared with the neighbours, so the
// shadow below holds no grid-scale stripes; spreading moves depth sideways
// but does not lose any.
TEST(LightTransmittance, SpreadSoftensGridScaleStripes) {
    const Vec3i n{16, 16, 24};
    auto depthBelow = [&](float spread, float& total) {
        ShadingGrid grid;
        grid.resize(n, 2);
        for (int k = 8; k < n.z; ++k)  // the columns fill the top two thirds
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) grid.cell(grid.cellIndex(i, j, k))[0] = float(i % 2);
        std::vector<float> scratch;
        sweepDirectionalLight(grid, Box3i{{0, 0, 0}, {n.x, n.y, n.z}}, {0, 0, -1}, 0.1f, spread, 1,
                              scratch);
        // Slice k = 2, well below the smoke, away from the sides.
        total = 0.0f;
        float contrast = 0.0f;
        // Stripes are what sets a cell apart from the mean of its neighbours
        // (a second difference: blind to a smooth slope across the box).
        auto at = [&](int i) { return grid.cell(grid.cellIndex(i, 8, 2))[1]; };
        for (int i = 4; i < 12; ++i) {
            contrast = std::max(contrast, std::fabs(at(i) - 0.5f * (at(i - 1) + at(i + 1))));
            total += at(i);
        }
        return contrast;
    };
    float sharpTotal, softTotal;
    const float sharp = depthBelow(0.0f, sharpTotal);
    const float soft = depthBelow(0.2f, softTotal);
    EXPECT_NEAR(sharp, 1.6f, 0.05f);  // 16 dense voxels at 0.1 each: all or nothing
    EXPECT_LT(soft, 0.01f * sharp);
    EXPECT_NEAR(softTotal, sharpTotal, 0.02f * sharpTotal);
}

TEST(Render, DensityChangesTheImage) {
    Scene scene = smallScene();
    ScalarGrid density = puffs(32, {{{0.5f, 0.5f, 0.5f}, 0.2f}});
    ScalarGrid empty(32, 32, 32);
    Renderer renderer(scene);
    std::vector<float> withSmoke =
        renderer.renderLinear({&density, nullptr, {0, 0, 0}, 1.0f / 32}, 1);
    std::vector<float> without = renderer.renderLinear({&empty, nullptr, {0, 0, 0}, 1.0f / 32}, 1);
    int changed = 0;
    for (size_t n = 0; n < withSmoke.size(); ++n)
        changed += std::fabs(withSmoke[n] - without[n]) > 1e-3f;
    EXPECT_GT(changed, int(withSmoke.size() / 20));
}

TEST(Render, FarSideOfALitBlobIsDarker) {
    // Light travelling +X: the blob's -X half faces the light.
    Scene scene = smallScene();
    scene.lights[0].direction = {1, 0, 0};
    scene.render.ambient = {0, 0, 0};
    scene.render.albedo = 1.0f;
    ScalarGrid density = puffs(32, {{{0.5f, 0.5f, 0.5f}, 0.22f}});
    Renderer renderer(scene);
    std::vector<float> linear = renderer.renderLinear({&density, nullptr, {0, 0, 0}, 1.0f / 32}, 1);
    const int w = scene.render.width, cx = w / 2, cy = scene.render.height / 2;
    float nearSide = meanLuminance(linear, w, cx - 12, cy - 4, cx - 6, cy + 4);
    float farSide = meanLuminance(linear, w, cx + 6, cy - 4, cx + 12, cy + 4);
    EXPECT_GT(nearSide, 2.0f * farSide) << "near " << nearSide << " far " << farSide;
}

TEST(Render, OccluderCastsAShadow) {
    // The same blob on the right, with and without a second blob between it and the light.
    Scene scene = smallScene();
    scene.lights[0].direction = {1, 0, -0.2f};
    scene.render.ambient = {0, 0, 0};
    const Vec3f target{0.72f, 0.5f, 0.5f}, occluder{0.25f, 0.5f, 0.6f};
    ScalarGrid alone = puffs(32, {{target, 0.12f}});
    ScalarGrid shadowed = puffs(32, {{target, 0.12f}, {occluder, 0.12f}});
    Renderer renderer(scene);
    std::vector<float> lit = renderer.renderLinear({&alone, nullptr, {0, 0, 0}, 1.0f / 32}, 1);
    std::vector<float> dark = renderer.renderLinear({&shadowed, nullptr, {0, 0, 0}, 1.0f / 32}, 1);
    // Pixels over the target blob: x = 0.72 m projects to column ~56 of 96.
    const int w = scene.render.width, cy = scene.render.height / 2;
    float litMean = meanLuminance(lit, w, 53, cy - 3, 59, cy + 3);
    float darkMean = meanLuminance(dark, w, 53, cy - 3, 59, cy + 3);
    EXPECT_LT(darkMean, 0.7f * litMean) << "lit " << litMean << " shadowed " << darkMean;
}

TEST(Render, PointLightLightsTheNearSide) {
    Scene scene = smallScene();
    LightSettings light;
    light.type = LightType::Point;
    light.position = {-0.5f, 0.5f, 0.5f};
    light.intensity = 4.0f;
    scene.lights = {light};
    scene.render.ambient = {0, 0, 0};
    ScalarGrid density = puffs(32, {{{0.5f, 0.5f, 0.5f}, 0.22f}});
    Renderer renderer(scene);
    std::vector<float> linear = renderer.renderLinear({&density, nullptr, {0, 0, 0}, 1.0f / 32}, 1);
    const int w = scene.render.width, cx = w / 2, cy = scene.render.height / 2;
    float nearSide = meanLuminance(linear, w, cx - 12, cy - 4, cx - 6, cy + 4);
    float farSide = meanLuminance(linear, w, cx + 6, cy - 4, cx + 12, cy + 4);
    EXPECT_GT(nearSide, 2.0f * farSide) << "near " << nearSide << " far " << farSide;
}

TEST(Render, HotSmokeGlows) {
    Scene scene = smallScene();
    scene.lights.clear();
    scene.render.ambient = {0, 0, 0};
    scene.render.heatGlow = 1.0f;
    scene.render.fireTemperature = 1500.0f;
    ScalarGrid density = puffs(32, {{{0.5f, 0.5f, 0.5f}, 0.2f}});
    ScalarGrid cold(32, 32, 32), hot(32, 32, 32, Vec3f(0.5f), 1.0f);
    Renderer renderer(scene);
    std::vector<float> a = renderer.renderLinear({&density, &cold, {0, 0, 0}, 1.0f / 32}, 1);
    std::vector<float> b = renderer.renderLinear({&density, &hot, {0, 0, 0}, 1.0f / 32}, 1);
    const int w = scene.render.width, cx = w / 2, cy = scene.render.height / 2;
    Vec3f glow = pixel(b, w, cx, cy);
    EXPECT_LT(luminance(pixel(a, w, cx, cy)), 0.05f);
    // About 1 (1500 K at heat_glow 1 through this puff): far above the cold smoke's.
    EXPECT_GT(luminance(glow), 0.9f);
    EXPECT_GT(glow.x, glow.z);  // warm, not blue
}

TEST(Render, FramesIgnoreTheThreadCount) {
    Scene scene = smallScene(80, 48);  // tiles do not divide the image evenly
    ScalarGrid density = puffs(32, {{{0.45f, 0.5f, 0.45f}, 0.18f}, {{0.6f, 0.45f, 0.6f}, 0.15f}});
    ScalarGrid temperature = puffs(32, {{{0.5f, 0.5f, 0.4f}, 0.15f}});
    scene.render.heatGlow = 0.5f;
    LightSettings point;
    point.type = LightType::Point;
    point.position = {1.5f, -0.5f, 1.2f};
    scene.lights.push_back(point);
    point.position = {0.5f, 0.5f, 0.5f};  // inside the smoke: the other method
    scene.lights.push_back(point);
    VolumeView view{&density, &temperature, {0, 0, 0}, 1.0f / 32};
    for (RenderFilter filter : {RenderFilter::Linear, RenderFilter::Cubic, RenderFilter::Sharp}) {
        scene.render.filter = filter;
        Renderer renderer(scene);
        std::vector<std::vector<float>> frames;
        for (int threads : {1, 2, 3, 7}) {
            setThreadCount(threads);
            frames.push_back(renderer.renderLinear(view, 7));
        }
        setThreadCount(0);
        for (size_t n = 1; n < frames.size(); ++n)
            EXPECT_EQ(frames[n], frames[0]) << "filter " << int(filter) << ", image " << n;
    }
}

// The march is built for every CPU and for AVX2 and chosen at run time
// (render/march/ray_marcher.h): both give the same bits, or frames would change
// from one machine to the next.
TEST(Render, FramesIgnoreTheAvx2Path) {
    simd::allowAvx2(true);
    if (!simd::avx2()) GTEST_SKIP() << "this CPU has no AVX2";
    Scene scene = smallScene(80, 48);
    ScalarGrid density = puffs(32, {{{0.45f, 0.5f, 0.45f}, 0.18f}, {{0.6f, 0.45f, 0.6f}, 0.15f}});
    ScalarGrid temperature = puffs(32, {{{0.5f, 0.5f, 0.4f}, 0.15f}});
    scene.render.heatGlow = 0.5f;
    LightSettings point;
    point.type = LightType::Point;
    point.position = {1.5f, -0.5f, 1.2f};
    scene.lights.push_back(point);
    VolumeView view{&density, &temperature, {0, 0, 0}, 1.0f / 32};
    for (RenderFilter filter : {RenderFilter::Linear, RenderFilter::Cubic, RenderFilter::Sharp}) {
        scene.render.filter = filter;
        Renderer renderer(scene);
        const std::vector<float> avx2 = renderer.renderLinear(view, 7);
        simd::allowAvx2(false);
        const std::vector<float> portable = renderer.renderLinear(view, 7);
        simd::allowAvx2(true);
        EXPECT_EQ(avx2, portable) << "filter " << int(filter);
    }
}

// PSNR in dB of a linear image against a reference, peak 1.
double psnr(const std::vector<float>& image, const std::vector<float>& reference) {
    double sum = 0.0;
    for (size_t n = 0; n < image.size(); ++n) {
        const double d = double(image[n]) - double(reference[n]);
        sum += d * d;
    }
    return 10.0 * std::log10(double(image.size()) / std::max(sum, 1e-30));
}

TEST(Render, MarchConvergesWithTheStep) {
    // Lit dense puffs: the default step is within 62 dB of one four times finer,
    // with either filter.
    Scene scene = smallScene(96, 64);
    scene.render.albedo = 0.9f;
    ScalarGrid density = puffs(32, {{{0.45f, 0.5f, 0.45f}, 0.18f}, {{0.6f, 0.45f, 0.6f}, 0.15f}});
    VolumeView view{&density, nullptr, {0, 0, 0}, 1.0f / 32};
    for (RenderFilter filter : {RenderFilter::Linear, RenderFilter::Cubic, RenderFilter::Sharp}) {
        scene.render.filter = filter;
        scene.render.step = 0.5f;
        std::vector<float> coarse = Renderer(scene).renderLinear(view, 2);
        scene.render.step = 0.125f;
        std::vector<float> fine = Renderer(scene).renderLinear(view, 2);
        EXPECT_GT(psnr(coarse, fine), 62.0) << "filter " << int(filter);
    }
}

TEST(Render, JitterFollowsTheFrameNumberOnly) {
    Scene scene = smallScene();
    ScalarGrid density = puffs(32, {{{0.5f, 0.5f, 0.5f}, 0.2f}});
    VolumeView view{&density, nullptr, {0, 0, 0}, 1.0f / 32};
    Renderer renderer(scene);
    std::vector<float> first = renderer.renderLinear(view, 4);
    std::vector<float> again = renderer.renderLinear(view, 4);
    std::vector<float> next = renderer.renderLinear(view, 5);
    EXPECT_EQ(first, again);
    double diff = 0.0;
    int changed = 0;
    for (size_t n = 0; n < first.size(); ++n) {
        diff += std::fabs(first[n] - next[n]);
        changed += first[n] != next[n];
    }
    EXPECT_GT(changed, 100);               // different noise
    EXPECT_LT(diff / first.size(), 0.01);  // but only noise
}

TEST(Render, ToneMappedImageIsNotBanded) {
    // The background gradient spans few 8-bit levels over many rows; dithering
    // must keep every row from being one flat level with hard steps between.
    Scene scene = smallScene(64, 256);
    scene.render.backgroundTop = {0.2f, 0.2f, 0.2f};
    scene.render.backgroundBottom = {0.17f, 0.17f, 0.17f};
    ScalarGrid empty(8, 8, 8);
    Renderer renderer(scene);
    Image image = renderer.render({&empty, nullptr, {0, 0, 0}, 0.125f}, 1);
    int mixedRows = 0;
    for (int y = 0; y < image.height; ++y) {
        bool mixed = false;
        for (int x = 1; x < image.width; ++x) mixed |= image.pixel(x, y)[1] != image.pixel(0, y)[1];
        mixedRows += mixed;
    }
    EXPECT_GT(mixedRows, image.height / 2);
}

TEST(Render, FrameBoxSeesEveryCorner) {
    Vec3f lo{-1, 0.5f, 0}, hi{3, 1.5f, 2};
    const float aspect = 16.0f / 9.0f;
    CameraSettings settings = frameBox(lo, hi, aspect);
    EXPECT_LT(settings.position.y, lo.y);
    EXPECT_FLOAT_EQ(settings.position.x, 1.0f);
    EXPECT_EQ(settings.up, Vec3f(0, 0, 1));
    const float tanV = std::tan(0.5f * settings.fov * 3.14159265f / 180.0f), tanH = tanV * aspect;
    float widest = 0.0f;
    for (int c = 0; c < 8; ++c) {
        Vec3f p{c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z};
        Vec3f q = p - settings.position;  // camera looks along +Y
        EXPECT_LE(std::fabs(q.x) / q.y, tanH);
        EXPECT_LE(std::fabs(q.z - (settings.lookAt.z - settings.position.z)) / q.y, tanV);
        widest = std::max(widest, std::fabs(q.x) / q.y / tanH);
    }
    EXPECT_GT(widest, 0.8f);  // fits snugly, not from far away
}

TEST(Png, WritesWhatItIsGiven) {
    fs::path dir = testDir("png");
    Image image(37, 21);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            uint8_t* p = image.pixel(x, y);
            p[0] = uint8_t(x * 7), p[1] = uint8_t(y * 11), p[2] = uint8_t((x * y) ^ 0x5a);
        }
    std::string path = (dir / "frame.png").string();
    writePng(path, image);
    for (const auto& e : fs::directory_iterator(dir))  // no temporary left (frame.png.tmp.*)
        EXPECT_FALSE(e.path().filename().string().starts_with("frame.png.")) << e.path();
    int w = 0, h = 0, channels = 0;
    unsigned char* pixels = stbi_load(path.c_str(), &w, &h, &channels, 3);
    ASSERT_NE(pixels, nullptr);
    EXPECT_EQ(w, image.width);
    EXPECT_EQ(h, image.height);
    std::vector<uint8_t> read(pixels, pixels + size_t(w) * h * 3);
    stbi_image_free(pixels);
    EXPECT_EQ(read, image.pixels);
}

// Transparent frames: straight alpha, with the colour kept where alpha is 0.
TEST(Png, WritesRgbaWhatItIsGiven) {
    fs::path dir = testDir("png_rgba");
    Image image(37, 21, 4);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            uint8_t* p = image.pixel(x, y);
            p[0] = uint8_t(x * 7), p[1] = uint8_t(y * 11), p[2] = uint8_t((x * y) ^ 0x5a);
            p[3] = uint8_t(x < 5 ? 0 : x * 13 + y);
        }
    std::string path = (dir / "frame.png").string();
    writePng(path, image);
    int w = 0, h = 0, channels = 0;
    unsigned char* pixels = stbi_load(path.c_str(), &w, &h, &channels, 4);
    ASSERT_NE(pixels, nullptr);
    EXPECT_EQ(channels, 4);
    EXPECT_EQ(w, image.width);
    EXPECT_EQ(h, image.height);
    std::vector<uint8_t> read(pixels, pixels + size_t(w) * h * 4);
    stbi_image_free(pixels);
    EXPECT_EQ(read, image.pixels);
}

TEST(Png, FailureNamesThePath) {
    fs::path dir = testDir("png_fail");
    std::string path = (dir / "missing" / "frame.png").string();
    try {
        writePng(path, Image(4, 4));
        FAIL() << "expected RunError";
    } catch (const RunError& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// A keyed camera and light: on a key the frame is the static scene's at that
// key, bit for bit; between keys it is neither.
TEST(Render, KeyedCameraAndLightMatchTheStaticSceneOnTheirKeys) {
    ScalarGrid density = puffs(24, {{{0.5f, 0.5f, 0.5f}, 0.2f}});
    const VolumeView view{&density, nullptr, {0, 0, 0}, 1.0f / 24};
    Scene keyed = smallScene(64, 48);
    keyed.camera.animation.tracks.push_back(
        {"position", {}, {{1.0, {0.5f, -2.0f, 0.5f}}, {3.0, {2.0f, -1.5f, 1.0f}}}});
    keyed.lights[0].animation.tracks.push_back({"intensity", {{1.0, 1.0f}, {3.0, 4.0f}}, {}});
    auto frameOf = [&](const Scene& scene, int frame) {
        Renderer renderer(scene);
        return renderer.render(view, frame).pixels;
    };
    Renderer renderer(keyed);  // one renderer through the frames, as a run uses it
    const auto f1 = renderer.render(view, 1).pixels, f2 = renderer.render(view, 2).pixels,
               f3 = renderer.render(view, 3).pixels;
    Scene atThree = smallScene(64, 48);
    atThree.camera.position = {2.0f, -1.5f, 1.0f};
    atThree.lights[0].intensity = 4.0f;
    Scene atOne = smallScene(64, 48);
    atOne.lights[0].intensity = 1.0f;
    EXPECT_EQ(f3, frameOf(atThree, 3));
    EXPECT_EQ(f1, frameOf(atOne, 1));
    EXPECT_NE(f2, f1);
    EXPECT_NE(f2, f3);
}

}  // namespace
}  // namespace plume
