// Scene::atFrame: animated keys take their curve's value, others keep theirs.
#include <gtest/gtest.h>

#include "scene/scene.h"

namespace plume {
namespace {

TEST(SceneAnimation, AnimatedKeysFollowTheirCurvesOthersHold) {
    Scene s;
    s.obstacles.emplace_back();
    s.obstacles[0].radius = 0.3f;
    s.obstacles[0].animation.tracks.push_back(
        {"center", {}, {{1.0, {0.2f, 1.0f, 1.0f}}, {49.0, {1.8f, 1.0f, 1.0f}}}});
    s.emitters.emplace_back();
    s.emitters[0].animation.interpolation = Interpolation::Smooth;
    s.emitters[0].animation.tracks.push_back({"density", {{1.0, 0.0f}, {11.0, 2.0f}}, {}});
    s.camera.animation.tracks.push_back({"fov", {{1.0, 30.0f}, {3.0, 50.0f}}, {}});
    s.lights.emplace_back();
    s.lights[0].animation.tracks.push_back({"intensity", {{5.0, 1.0f}, {6.0, 3.0f}}, {}});
    EXPECT_TRUE(s.animated());
    EXPECT_FALSE(Scene{}.animated());

    const Scene mid = s.atFrame(25.0);
    EXPECT_FLOAT_EQ(mid.obstacles[0].center.x, 1.0f);
    EXPECT_EQ(mid.obstacles[0].radius, 0.3f);        // not animated: unchanged
    EXPECT_FLOAT_EQ(mid.emitters[0].density, 2.0f);  // after its last key: holds
    EXPECT_FLOAT_EQ(mid.camera.fov, 50.0f);
    EXPECT_FLOAT_EQ(mid.lights[0].intensity, 3.0f);
    const Scene early = s.atFrame(2.0);
    EXPECT_FLOAT_EQ(early.camera.fov, 40.0f);
    EXPECT_FLOAT_EQ(early.lights[0].intensity, 1.0f);              // before its first key: holds
    EXPECT_NEAR(early.emitters[0].density, 2.0f * 0.028f, 1e-5f);  // smooth: eases in
    // On a key, exactly the key's value.
    EXPECT_EQ(s.atFrame(49.0).obstacles[0].center, Vec3f(1.8f, 1.0f, 1.0f));
}

}  // namespace
}  // namespace plume
