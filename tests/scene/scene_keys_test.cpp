// Keyframes in scene files: [[obstacle.key]], [[emitter.key]], [[camera.key]] and
// [[light.key]] tables fill the elements' tracks, read back through describeScene,
// and each bad key is one exact error line.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scene/describe.h"
#include "scene/loader.h"
#include "support/scene_errors.h"

namespace plume {
namespace {

using namespace test;

constexpr const char* kKeyed = R"([[obstacle]]
center = [9.0, 9.0, 9.0]
interpolation = "smooth"
[[obstacle.key]]
frame = 1
center = [0.0, 1.0, 1.0]
scale = 2
[[obstacle.key]]
frame = 5.5
center = [4.5, 1.0, 1.0]
rotation = [0.0, 0.0, 90.0]

[[emitter]]
[[emitter.key]]
frame = 1
density = 0
[[emitter.key]]
frame = 5
density = 4

[camera]
[[camera.key]]
frame = 2
fov = 30

[[light]]
[[light.key]]
frame = 3
intensity = 1
)";

// The names of an animation's tracks, in the order they were made.
std::vector<std::string> trackNames(const Animation& a) {
    std::vector<std::string> names;
    for (const KeyTrack& t : a.tracks) names.push_back(t.key);
    return names;
}

TEST(SceneKeys, LoadIntoTracksInKeyOrder) {
    const Scene s = parseScene(kKeyed, "s.toml");
    const Animation& o = s.obstacles.at(0).animation;
    EXPECT_EQ(o.interpolation, Interpolation::Smooth);
    ASSERT_EQ(trackNames(o), (std::vector<std::string>{"center", "scale", "rotation"}));
    ASSERT_EQ(o.tracks[0].vec.size(), 2u);
    EXPECT_EQ(o.tracks[0].vec[1].frame, 5.5);
    EXPECT_EQ(o.tracks[0].vec[1].value, Vec3f(4.5f, 1.0f, 1.0f));
    ASSERT_EQ(o.tracks[1].vec.size(), 1u);
    EXPECT_EQ(o.tracks[1].vec[0].value, Vec3f(2.0f));  // scale: a number n is [n, n, n]
    EXPECT_EQ(s.obstacles[0].center, Vec3f(9.0f));     // the parent's value stays on the element
    const Animation& e = s.emitters.at(0).animation;
    EXPECT_EQ(e.interpolation, Interpolation::Linear);
    ASSERT_EQ(trackNames(e), std::vector<std::string>{"density"});
    ASSERT_EQ(e.tracks[0].real.size(), 2u);
    EXPECT_EQ(e.tracks[0].real[1].value, 4.0f);
    ASSERT_EQ(trackNames(s.camera.animation), std::vector<std::string>{"fov"});
    EXPECT_EQ(s.camera.animation.tracks[0].real.at(0).value, 30.0f);
    ASSERT_EQ(trackNames(s.lights.at(0).animation), std::vector<std::string>{"intensity"});
}

TEST(SceneKeys, AtFrameGivesLinearAndSmoothValuesAndKeysWin) {
    const Scene s = parseScene(kKeyed, "s.toml");
    EXPECT_FLOAT_EQ(s.atFrame(2).emitters[0].density, 1.0f);  // linear: a quarter of the way
    // smooth: 3t^2 - 2t^3 at t = 1/3 between frames 1 and 5.5
    EXPECT_NEAR(s.atFrame(2.5).obstacles[0].center.x, 4.5f * (3.0f / 9 - 2.0f / 27), 1e-5f);
    EXPECT_EQ(s.atFrame(1).obstacles[0].center, Vec3f(0.0f, 1.0f, 1.0f));  // keys win
    EXPECT_EQ(s.atFrame(3).obstacles[0].scale, Vec3f(2.0f));
    EXPECT_FLOAT_EQ(s.atFrame(9).camera.fov, 30.0f);
    EXPECT_FLOAT_EQ(s.atFrame(1).lights[0].intensity, 1.0f);
}

TEST(SceneKeys, DescribeReparsesToTheSameKeys) {
    const Scene s = parseScene(kKeyed, "s.toml");
    const std::string text = describeScene(s);
    EXPECT_NE(text.find("[[obstacle.key]]\nframe = 5.5\ncenter = [4.5, 1.0, 1.0]\n"),
              std::string::npos)
        << text;
    const Scene again = parseScene(text, "s.toml");
    EXPECT_EQ(describeScene(again), text);
    EXPECT_EQ(again.atFrame(2.5).obstacles[0].center, s.atFrame(2.5).obstacles[0].center);
    EXPECT_EQ(again.camera.animation.tracks.size(), 1u);
}

TEST(SceneKeys, FuzzSeedWithKeysLoads) {
    const Scene s = loadScene(kSourceDir + "/tests/fuzz/seeds/keys.toml");
    EXPECT_TRUE(s.animated());
    EXPECT_EQ(s.obstacles.at(0).animation.tracks.size(), 3u);
}

// --- Errors -------------------------------------------------------------------

TEST(SceneKeys, KeyWithoutFrame) {
    EXPECT_EQ(parseError("[[obstacle]]\n[[obstacle.key]]\ncenter = [1, 1, 1]\n"),
              "s.toml:2:1: error: 'obstacle[1].key[1]' needs a 'frame'");
}

TEST(SceneKeys, KeysOutOfOrder) {
    EXPECT_EQ(parseError("[[obstacle]]\n[[obstacle]]\n[[obstacle.key]]\nframe = 5\n"
                         "[[obstacle.key]]\nframe = 2.5\n"),
              "s.toml:6:9: error: 'obstacle[2].key[2].frame' = 2.5 comes before the previous "
              "key's frame 5: keys go in frame order");
}

TEST(SceneKeys, TwoKeysAtOneFrame) {
    EXPECT_EQ(parseError("[camera]\n[[camera.key]]\nframe = 3\n[[camera.key]]\nframe = 3.0\n"),
              "s.toml:5:9: error: 'camera.key[2].frame' = 3: two keys at one frame (the "
              "previous key is at frame 3)");
}

TEST(SceneKeys, FrameOutOfRange) {
    EXPECT_EQ(parseError("[[light]]\n[[light.key]]\nframe = -1\n"),
              "s.toml:3:9: error: 'light[1].key[1].frame' = -1 is out of range [0, 1000000]");
}

TEST(SceneKeys, KeyNotAnimatable) {
    EXPECT_EQ(parseError("[[emitter]]\n[[emitter.key]]\nframe = 1\nradius = 0.5\n"),
              "s.toml:4:1: error: 'emitter[1].key[1].radius' is not animatable; a key may set "
              "frame, center, rotation, scale, density, temperature, fuel, velocity, color");
}

TEST(SceneKeys, UnknownKeyInKey) {
    EXPECT_EQ(parseError("[[obstacle]]\n[[obstacle.key]]\nframe = 1\ncentre = [1, 1, 1]\n"),
              "s.toml:4:1: error: unknown key 'obstacle[1].key[1].centre' (did you mean "
              "'obstacle[1].key[1].center'?)");
}

TEST(SceneKeys, ValuesAreCheckedAsAtTopLevel) {
    EXPECT_EQ(parseError("[[obstacle]]\n[[obstacle.key]]\nframe = 1\nrotation = [1, 2]\n"),
              "s.toml:4:12: error: 'obstacle[1].key[1].rotation' must be an array of 3 numbers, "
              "got 2 elements");
    EXPECT_EQ(parseError("[camera]\n[[camera.key]]\nframe = 1\nfov = 200\n"),
              "s.toml:4:7: error: 'camera.key[1].fov' = 200 is out of range [1, 179]");
    EXPECT_EQ(parseError("[[emitter]]\n[[emitter.key]]\nframe = 1\ndensity = \"a\"\n"),
              "s.toml:4:11: error: 'emitter[1].key[1].density' must be a number, got a string");
    EXPECT_EQ(parseError("[[obstacle]]\n[[obstacle.key]]\nframe = 1\nscale = 0\n"),
              "s.toml:4:9: error: 'obstacle[1].key[1].scale' = 0 is out of range (0, inf)");
    EXPECT_EQ(parseError("[[light]]\n[[light.key]]\nframe = nan\n"),
              "s.toml:3:9: error: 'light[1].key[1].frame' must be finite, got nan");
}

TEST(SceneKeys, KeyMustBeAnArrayOfTables) {
    EXPECT_EQ(parseError("[[obstacle]]\nkey = 5\n"),
              "s.toml:2:7: error: 'obstacle[1].key' must be an array of tables "
              "([[obstacle.key]]), got an integer");
    EXPECT_EQ(parseError("[[obstacle]]\nkey = []\n"), "");  // no keys
    EXPECT_EQ(parseError("[domain]\nkey = 1\n"), "s.toml:2:1: error: unknown key 'domain.key'");
}

TEST(SceneKeys, FirstErrorInFileOrderWins) {
    EXPECT_EQ(parseError("[[obstacle]]\n[[obstacle.key]]\nframe = 1\nradius = 1\n"
                         "[[obstacle]]\nradus = 1\n"),
              "s.toml:4:1: error: 'obstacle[1].key[1].radius' is not animatable; a key may set "
              "frame, center, rotation, scale");
}

}  // namespace
}  // namespace plume
