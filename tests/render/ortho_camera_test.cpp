// The orthographic camera (camera.type = "orthographic"): every ray along the
// view, from a plane ortho_width wide, so a thing's image keeps its size at any
// distance, as a flipbook's cells and Blender's Orthographic want.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "render/camera.h"
#include "render/renderer.h"
#include "scene/loader.h"

namespace plume {
namespace {

CameraSettings orthoCamera(float distance, float width) {
    CameraSettings c;
    c.type = CameraType::Orthographic;
    c.orthoWidth = width;
    c.position = {0.5f, 0.5f - distance, 0.5f};
    c.lookAt = {0.5f, 0.5f, 0.5f};
    c.up = {0, 0, 1};
    c.given = true;
    return c;
}

TEST(OrthoCamera, RaysAreParallelFromAPlaneOrthoWidthWide) {
    const Camera camera(orthoCamera(3.0f, 2.0f), 80, 40);
    const Vec3f forward{0, 1, 0};
    for (const auto& [x, y] : {std::pair{0.0f, 0.0f}, {80.0f, 40.0f}, {13.5f, 27.25f}}) {
        const Vec3f d = camera.direction(x, y);
        EXPECT_FLOAT_EQ(d.x, forward.x);
        EXPECT_FLOAT_EQ(d.y, forward.y);
        EXPECT_FLOAT_EQ(d.z, forward.z);
    }
    // The image's corners: ortho_width across, ortho_width * height / width down.
    const Vec3f topLeft = camera.origin(0.0f, 0.0f), bottomRight = camera.origin(80.0f, 40.0f);
    EXPECT_NEAR(bottomRight.x - topLeft.x, 2.0f, 1e-5f);
    EXPECT_NEAR(topLeft.z - bottomRight.z, 1.0f, 1e-5f);
    EXPECT_NEAR(topLeft.y, -2.5f, 1e-5f);  // on the plane through the eye
    EXPECT_NEAR(0.5f * (topLeft.x + bottomRight.x), 0.5f, 1e-5f);
    // A point along a pixel's ray projects back to that pixel, at any depth.
    for (float t : {0.5f, 3.0f, 40.0f}) {
        float px, py;
        ASSERT_TRUE(camera.project(camera.origin(13.5f, 27.25f) + forward * t, px, py));
        EXPECT_NEAR(px, 13.5f, 1e-3f);
        EXPECT_NEAR(py, 27.25f, 1e-3f);
    }
}

// A ball of smoke, n^3 cells over 1 m.
ScalarGrid ball(int n, float radius) {
    ScalarGrid g(n, n, n);
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                const Vec3f p = (Vec3f(float(i), float(j), float(k)) + Vec3f(0.5f)) / float(n);
                g(i, j, k) = length(p - Vec3f(0.5f)) < radius ? 1.0f : 0.0f;
            }
    return g;
}

// The pixels the ball covers (alpha above a half) seen from `camera`.
int covered(const CameraSettings& camera) {
    Scene scene;
    scene.render.width = scene.render.height = 64;
    scene.render.transparent = true;
    scene.camera = camera;
    scene.lights = {LightSettings{}};
    const ScalarGrid density = ball(32, 0.25f);
    Renderer renderer(scene);
    renderer.renderLinear({&density, nullptr, {0, 0, 0}, 1.0f / 32}, 1);
    const std::vector<float> rgba = renderer.rgba();
    int n = 0;
    for (size_t i = 3; i < rgba.size(); i += 4) n += rgba[i] > 0.5f;
    return n;
}

TEST(OrthoCamera, ABallKeepsItsSizeAtAnyDistance) {
    const int near = covered(orthoCamera(1.2f, 1.0f)), far = covered(orthoCamera(6.0f, 1.0f));
    // A ball of radius 0.25 in a frame 1 m wide: pi r^2 of 64^2 pixels (and
    // its edge, blurred over a voxel by the lookup).
    EXPECT_NEAR(double(near), 3.14159 * 0.0625 * 64 * 64, 0.15 * 804);
    EXPECT_NEAR(double(far), double(near), 0.01 * near) << "near " << near << ", far " << far;
    // Twice the width: a quarter of the pixels.
    const int wide = covered(orthoCamera(1.2f, 2.0f));
    EXPECT_NEAR(double(wide), 0.25 * near, 0.05 * near);

    // The control: a perspective camera sees it shrink with distance.
    CameraSettings perspective = orthoCamera(1.2f, 1.0f);
    perspective.type = CameraType::Perspective;
    const int nearP = covered(perspective);
    perspective.position.y = 0.5f - 6.0f;
    EXPECT_LT(covered(perspective), nearP / 4);
}

// The path tracer takes the same rays.
TEST(OrthoCamera, ThePathTracerSeesTheSameBall) {
    CameraSettings camera = orthoCamera(3.0f, 1.0f);
    Scene scene;
    scene.render.width = scene.render.height = 64;
    scene.render.transparent = true;
    scene.render.integrator = Integrator::Path;
    scene.render.samples = 4;
    scene.camera = camera;
    scene.lights = {LightSettings{}};
    const ScalarGrid density = ball(32, 0.25f);
    Renderer renderer(scene);
    renderer.renderLinear({&density, nullptr, {0, 0, 0}, 1.0f / 32}, 1);
    const std::vector<float> rgba = renderer.rgba();
    int n = 0;
    for (size_t i = 3; i < rgba.size(); i += 4) n += rgba[i] > 0.5f;
    EXPECT_NEAR(double(n), double(covered(camera)), 0.03 * n);
}

TEST(OrthoCamera, SceneKeysReadAndKey) {
    const Scene scene = parseScene(
        "[camera]\ntype = \"orthographic\"\northo_width = 3.0\nposition = [0, -5, 1]\n"
        "look_at = [0, 0, 1]\n[[camera.key]]\nframe = 1\northo_width = 3.0\n"
        "[[camera.key]]\nframe = 11\northo_width = 5.0\n",
        "ortho.toml");
    EXPECT_TRUE(scene.camera.orthographic());
    EXPECT_FLOAT_EQ(scene.atFrame(6.0).camera.orthoWidth, 4.0f);
    EXPECT_FALSE(parseScene("", "default.toml").camera.orthographic());
}

}  // namespace
}  // namespace plume
