// screenBounds: the pixels whose rays can meet world boxes, the one rule the
// renderer uses for the smoke's march box and the moving solids over the shutter.
#include "render/march/screen_bounds.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "render/camera.h"
#include "render/march/ray.h"

namespace plume {
namespace {

constexpr int kWidth = 64, kHeight = 48;

// From -Y looking at the origin, Z up.
Camera frontCamera() {
    CameraSettings s;
    s.position = {0.0f, -5.0f, 0.0f};
    s.lookAt = {0.0f, 0.0f, 0.0f};
    s.up = {0.0f, 0.0f, 1.0f};
    s.fov = 40.0f;
    s.given = true;
    return Camera(s, kWidth, kHeight);
}

TEST(RenderScreenBounds, NoBoxNoPixels) {
    const PixelRect r = screenBounds(frontCamera(), kWidth, kHeight, std::span<const WorldBox>());
    EXPECT_FALSE(r.contains(kWidth / 2, kHeight / 2));
    EXPECT_EQ(r.x1 - r.x0, 0);
}

TEST(RenderScreenBounds, HoldsEveryPixelWhoseRayMeetsTheBoxWithOnePixelToSpare) {
    const Camera camera = frontCamera();
    const WorldBox box{{-0.5f, -0.5f, -0.3f}, {0.4f, 0.5f, 0.6f}};
    const PixelRect r = screenBounds(camera, kWidth, kHeight, box);
    int hits = 0;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            float t0, t1;
            if (!clipRay(Ray(camera.position(), camera.direction(x, y)), box.lo, box.hi, t0, t1))
                continue;
            ++hits;
            EXPECT_TRUE(r.contains(x, y)) << x << ", " << y;
        }
    EXPECT_GT(hits, 50);
    // The corners' image, floor and ceiling, and one pixel more on each side.
    float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
    for (int c = 0; c < 8; ++c) {
        float px, py;
        ASSERT_TRUE(camera.project(
            {c & 1 ? box.hi.x : box.lo.x, c & 2 ? box.hi.y : box.lo.y, c & 4 ? box.hi.z : box.lo.z},
            px, py));
        x0 = std::min(x0, px), y0 = std::min(y0, py), x1 = std::max(x1, px), y1 = std::max(y1, py);
    }
    ASSERT_GT(std::floor(x0), 1.0f);
    ASSERT_LT(std::ceil(x1), float(kWidth - 1));
    EXPECT_EQ(r.x0, int(std::floor(x0)) - 1);
    EXPECT_EQ(r.y0, int(std::floor(y0)) - 1);
    EXPECT_EQ(r.x1, int(std::ceil(x1)) + 1);
    EXPECT_EQ(r.y1, int(std::ceil(y1)) + 1);
}

TEST(RenderScreenBounds, ACornerBehindTheCameraMeansEveryPixel) {
    // A thin box from behind the camera to in front of it: its image has no
    // bounds, though its front corners alone are seen in a few pixels.
    const WorldBox box{{0.2f, -6.0f, 0.2f}, {0.3f, -4.0f, 0.3f}};
    const PixelRect r = screenBounds(frontCamera(), kWidth, kHeight, box);
    EXPECT_EQ(r.x0, 0);
    EXPECT_EQ(r.y0, 0);
    EXPECT_EQ(r.x1, kWidth);
    EXPECT_EQ(r.y1, kHeight);
}

TEST(RenderScreenBounds, BoxesAreUnitedOnTheImageNotClippedOneByOne) {
    // A solid left of the view at one moment and right of it at another: the
    // pixels between (where it passes during the shutter) are all kept.
    const std::vector<WorldBox> moments{{{-9.0f, -0.1f, -0.1f}, {-8.8f, 0.1f, 0.1f}},
                                        {{8.8f, -0.1f, -0.1f}, {9.0f, 0.1f, 0.1f}}};
    const Camera camera = frontCamera();
    for (const WorldBox& b : moments)  // each alone is off the image
        EXPECT_LE(screenBounds(camera, kWidth, kHeight, b).x1,
                  screenBounds(camera, kWidth, kHeight, b).x0);
    const PixelRect r = screenBounds(camera, kWidth, kHeight, moments);
    EXPECT_EQ(r.x0, 0);
    EXPECT_EQ(r.x1, kWidth);
    EXPECT_TRUE(r.contains(kWidth / 2, kHeight / 2));
}

TEST(RenderScreenBounds, ACornerJustInFrontOfTheCameraStaysInTheImage) {
    // A corner the smallest step in front of the camera, far to the right:
    // its image lies past what an int holds; the rectangle is clamped.
    const WorldBox box{{0.0f, std::nextafter(-5.0f, 0.0f), 0.0f}, {100.0f, 0.0f, 0.5f}};
    const PixelRect r = screenBounds(frontCamera(), kWidth, kHeight, box);
    EXPECT_GE(r.x0, 0);
    EXPECT_EQ(r.x1, kWidth);
    EXPECT_GE(r.y0, 0);
    EXPECT_LE(r.y1, kHeight);
    EXPECT_TRUE(r.contains(kWidth / 2 + 2, kHeight / 2 - 2));
}

}  // namespace
}  // namespace plume
