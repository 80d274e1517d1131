// The scene keys a Blender domain needs (domain.origin, time.start_frame,
// camera.focal_length and sensor_width): what the loader makes of them, what
// plume check prints back, --set, and their one-line errors.
#include <gtest/gtest.h>

#include <string>

#include "scene/describe.h"
#include "scene/loader.h"
#include "scene/schema.h"
#include "support/scene_errors.h"

namespace plume {
namespace {

using namespace test;

// A scene whose every kind of world position and frame number is given.
const char* kWorldScene = R"(
[domain]
origin = [10.0, -4.0, 2.0]
size = [2.0, 2.0, 3.0]

[time]
start_frame = 1001

[[emitter]]
center = [11.0, -3.0, 2.25]
frames = [1001, 1010]
[[emitter.key]]
frame = 1001
center = [11.0, -3.0, 2.5]
[[emitter.key]]
frame = 1012.5
center = [11.5, -3.0, 2.5]

[[obstacle]]
center = [11.0, -3.0, 3.5]

[camera]
position = [11.0, -8.0, 3.0]
look_at = [11.0, -3.0, 3.5]
[[camera.key]]
frame = 1004
look_at = [11.0, -3.0, 4.0]

[[light]]
type = "point"
position = [12.0, -5.0, 6.0]

[ground]
enabled = true
height = 2.0
)";

TEST(ScenePlacement, WorldPositionsAreMovedIntoTheDomainOnce) {
    const Scene s = parseScene(kWorldScene, "s.toml");
    EXPECT_EQ(s.domain.origin, Vec3f(10, -4, 2));  // the origin itself stays in the world
    EXPECT_EQ(s.emitters[0].center, Vec3f(1, 1, 0.25f));
    EXPECT_EQ(s.obstacles[0].center, Vec3f(1, 1, 1.5f));
    EXPECT_EQ(s.camera.position, Vec3f(1, -4, 1));
    EXPECT_EQ(s.camera.lookAt, Vec3f(1, 1, 1.5f));
    EXPECT_EQ(s.lights[0].position, Vec3f(2, -1, 4));
    EXPECT_EQ(s.ground.height, 0.0f);
    // Keyframes' values too.
    ASSERT_EQ(s.emitters[0].animation.tracks.size(), 1u);
    EXPECT_EQ(s.emitters[0].animation.tracks[0].vec[1].value, Vec3f(1.5f, 1, 0.5f));
    EXPECT_EQ(s.camera.animation.tracks[0].vec[0].value, Vec3f(1, 1, 2));
}

TEST(ScenePlacement, FrameNumbersCountFromTheStartFrame) {
    const Scene s = parseScene(kWorldScene, "s.toml");
    EXPECT_EQ(s.time.startFrame, 1001);
    // Frame 1001 is the solver's first frame.
    EXPECT_EQ(s.emitters[0].frames, (std::array<int, 2>{1, 10}));
    EXPECT_EQ(s.emitters[0].animation.tracks[0].vec[0].frame, 1.0);
    EXPECT_EQ(s.emitters[0].animation.tracks[0].vec[1].frame, 12.5);
    EXPECT_EQ(s.camera.animation.tracks[0].vec[0].frame, 4.0);
    EXPECT_EQ(s.time.frameNumber(1), 1001);
    EXPECT_EQ(s.time.frameIndex(1001), 1);
    EXPECT_EQ(s.time.lastFrameNumber(), 1120);  // 120 frames by default
}

TEST(ScenePlacement, CheckPrintsWhatTheFileSaidAndReadsBackTheSame) {
    const Scene s = parseScene(kWorldScene, "s.toml");
    const std::string text = describeScene(s);
    EXPECT_NE(text.find("origin = [10.0, -4.0, 2.0]\n"), std::string::npos) << text;
    EXPECT_NE(text.find("start_frame = 1001\n"), std::string::npos) << text;
    EXPECT_NE(text.find("center = [11.0, -3.0, 2.25]\n"), std::string::npos) << text;
    EXPECT_NE(text.find("frames = [1001, 1010]\n"), std::string::npos) << text;
    EXPECT_NE(text.find("frame = 1012.5\n"), std::string::npos) << text;
    EXPECT_NE(text.find("position = [12.0, -5.0, 6.0]\n"), std::string::npos) << text;
    EXPECT_NE(text.find("height = 2.0\n"), std::string::npos) << text;
    EXPECT_EQ(describeScene(parseScene(text, "s.toml")), text);
}

TEST(ScenePlacement, DefaultsAreWorldValuesToo) {
    // A default position is a world position like any other: the reference's
    // camera default [1, -3.2, 1.2] is where the camera is, whatever the origin.
    const Scene s =
        parseScene("[domain]\norigin = [1.0, 2.0, 3.0]\n[camera]\nfov = 30\n", "s.toml");
    EXPECT_EQ(s.camera.position.x, 0.0f);
    EXPECT_NEAR(s.camera.position.y, -5.2f, 1e-6f);
    EXPECT_NEAR(s.camera.position.z, -1.8f, 1e-6f);
}

TEST(ScenePlacement, SetOverridesTheNewKeys) {
    const Scene s = parseScene("[[emitter]]\ncenter = [1.5, 2.5, 3.5]\n", "s.toml",
                               {"domain.origin=[1,2,3]", "time.start_frame=1001",
                                "camera.focal_length=35", "camera.sensor_width=24"});
    EXPECT_EQ(s.domain.origin, Vec3f(1, 2, 3));
    EXPECT_EQ(s.emitters[0].center, Vec3f(0.5f, 0.5f, 0.5f));
    EXPECT_EQ(s.time.startFrame, 1001);
    EXPECT_EQ(s.camera.focalLength, 35.0f);
    EXPECT_EQ(s.camera.sensorWidth, 24.0f);
    EXPECT_TRUE(s.camera.given);
}

TEST(ScenePlacement, BadValuesNameTheKey) {
    EXPECT_EQ(parseError("[domain]\norigin = [1.0, 2.0]\n"),
              "s.toml:2:10: error: 'domain.origin' must be an array of 3 numbers, got 2 elements");
    EXPECT_EQ(parseError("[domain]\norigin = [1.0, 2.0, nan]\n"),
              "s.toml:2:21: error: 'domain.origin' must be finite, got nan");
    EXPECT_EQ(parseError("[time]\nstart_frame = -1\n"),
              "s.toml:2:15: error: 'time.start_frame' = -1 is out of range [0, 1000000]");
    EXPECT_EQ(parseError("[time]\nstart_frame = 1001.5\n"),
              "s.toml:2:15: error: 'time.start_frame' must be an integer, got a float");
    EXPECT_EQ(parseError("[camera]\nfocal_length = 0\n"),
              "s.toml:2:16: error: 'camera.focal_length' = 0 is out of range [1, 5000]");
    EXPECT_EQ(parseError("[camera]\nsensor_width = -36\n"),
              "s.toml:2:16: error: 'camera.sensor_width' = -36 is out of range [1, 1000]");
    EXPECT_EQ(setError("domain.origin=[1,2]"),
              "--set domain.origin=[1,2]: error: 'domain.origin' must be an array of 3 numbers, "
              "got 2 elements");
    EXPECT_EQ(setError("time.start_frame=x"),
              "--set time.start_frame=x: error: 'time.start_frame' must be an integer, got a "
              "string");
}

TEST(ScenePlacement, FovAndFocalLengthTogetherAreAnError) {
    EXPECT_EQ(parseError("[camera]\nfov = 40\nfocal_length = 50\n"),
              "s.toml:3:16: error: 'camera.focal_length' and 'camera.fov' both set the field of "
              "view: give fov or focal_length, not both");
    EXPECT_EQ(parseError("[camera]\nfocal_length = 50\n[[camera.key]]\nframe = 1\nfov = 30\n"),
              "s.toml:5:7: error: 'camera.key[1].fov' and 'camera.focal_length' both set the "
              "field of view: give fov or focal_length, not both");
    EXPECT_EQ(parseError("[camera]\nfov = 40\n", {"camera.focal_length=35"}),
              "--set camera.focal_length=35: error: 'camera.focal_length' and 'camera.fov' both "
              "set the field of view: give fov or focal_length, not both");
}

TEST(ScenePlacement, FocalLengthIsAnimatable) {
    const Scene s = parseScene(
        "[camera]\nfocal_length = 50\n[[camera.key]]\nframe = 1001\nfocal_length = 20\n"
        "[[camera.key]]\nframe = 1011\nfocal_length = 40\n[time]\nstart_frame = 1001\n",
        "s.toml");
    EXPECT_FLOAT_EQ(s.atFrame(1).camera.focalLength, 20.0f);
    EXPECT_FLOAT_EQ(s.atFrame(6).camera.focalLength, 30.0f);  // frame 1006
    EXPECT_FLOAT_EQ(s.atFrame(11).camera.focalLength, 40.0f);
}

TEST(ScenePlacement, ALensGivesTheFieldOfViewBlenderShows) {
    CameraSettings c;
    c.fov = 45;
    const float fovHalf = c.halfHeight(16.0f / 9.0f);
    // Blender's sensor fit Auto: 36 mm across the wider side.
    c.focalLength = 18.0f * (9.0f / 16.0f) / fovHalf;
    EXPECT_NEAR(c.halfHeight(16.0f / 9.0f), fovHalf, 1e-6f);
    // Portrait: the sensor spans the height.
    c.focalLength = 36;
    EXPECT_FLOAT_EQ(c.halfHeight(0.5f), 0.5f);
    EXPECT_FLOAT_EQ(c.halfHeight(2.0f), 0.25f);
}

TEST(ScenePlacement, TheReferenceListsTheNewKeys) {
    const std::string reference = sceneReference();
    for (const char* key : {"`domain.origin` | [x, y, z] floats | `[0.0, 0.0, 0.0]` | finite",
                            "`time.start_frame` | integer | `1` | [0, 1000000]",
                            "`camera.focal_length` | float | `0.0` | [1, 5000]",
                            "`camera.sensor_width` | float | `36.0` | [1, 1000]"})
        EXPECT_NE(reference.find(key), std::string::npos) << key;
    EXPECT_TRUE(findKey("camera", "focal_length")->animatable);
}

}  // namespace
}  // namespace plume
