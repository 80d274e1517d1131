// The six-way lightmaps' scenes (render/output/six_way.h): each light along
// the camera's axes, of irradiance pi, and nothing else lighting the smoke.
#include "render/output/six_way.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace plume {
namespace {

Scene cameraScene() {
    Scene scene;
    scene.camera.given = true;
    scene.camera.type = CameraType::Orthographic;
    scene.camera.position = {3.0f, 0.5f, 0.5f};  // looking along -X
    scene.camera.lookAt = {0.5f, 0.5f, 0.5f};
    scene.camera.up = {0, 0, 1};
    scene.render.width = scene.render.height = 64;
    return scene;
}

void expectNear(Vec3f a, Vec3f b) {
    EXPECT_NEAR(a.x, b.x, 1e-6f);
    EXPECT_NEAR(a.y, b.y, 1e-6f);
    EXPECT_NEAR(a.z, b.z, 1e-6f);
}

TEST(SixWay, EachLightTravelsAlongTheCamerasAxes) {
    const CameraAxes axes = cameraAxesOf(cameraScene());
    expectNear(axes.back, {1, 0, 0});  // toward the camera
    expectNear(axes.up, {0, 0, 1});
    // From the right it travels left; from the back (behind the smoke)
    // toward the camera; from the front away from it.
    expectNear(sixWayDirection(SixWayLight::Right, axes), axes.right * -1.0f);
    expectNear(sixWayDirection(SixWayLight::Top, axes), {0, 0, -1});
    expectNear(sixWayDirection(SixWayLight::Back, axes), {1, 0, 0});
    expectNear(sixWayDirection(SixWayLight::Front, axes), {-1, 0, 0});
    for (int l = 0; l < 3; ++l)
        expectNear(sixWayDirection(SixWayLight(l), axes),
                   sixWayDirection(SixWayLight(l + 3), axes) * -1.0f);
}

TEST(SixWay, TheSceneHasOneLightOfIrradiancePiAndNoOther) {
    Scene scene = cameraScene();
    scene.lights.resize(3);
    scene.render.passes = {"all"};
    scene.ground.enabled = true;
    const Scene lit = sixWayScene(scene, SixWayLight::Top, cameraAxesOf(scene));
    ASSERT_EQ(lit.lights.size(), 1u);
    EXPECT_EQ(lit.lights[0].type, LightType::Directional);
    EXPECT_FLOAT_EQ(lit.lights[0].intensity, std::numbers::pi_v<float>);
    expectNear(lit.lights[0].color, {1, 1, 1});
    expectNear(lit.render.ambient, {0, 0, 0});
    EXPECT_EQ(lit.render.emission, 0.0f);
    EXPECT_EQ(lit.render.fireLight, 0.0f);
    EXPECT_FALSE(lit.ground.enabled);
    EXPECT_TRUE(lit.render.passes.empty());
    EXPECT_TRUE(lit.render.transparent);
    // The emission alone keeps the flame and lights nothing from outside.
    const Scene glow = emissionScene(scene);
    EXPECT_TRUE(glow.lights.empty());
    EXPECT_EQ(glow.render.emission, scene.render.emission);
    // The motion pass of the unlit smoke.
    const Scene still = motionScene(scene);
    EXPECT_TRUE(still.lights.empty());
    EXPECT_EQ(still.render.emission, 0.0f);
    ASSERT_EQ(still.render.passes.size(), 1u);
    EXPECT_EQ(still.render.passes[0], "motion");
}

}  // namespace
}  // namespace plume
