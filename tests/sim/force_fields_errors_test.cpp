// [[field]] tables in scene files: their keys and keys read, every bad value
// refused in one line at its own file:line:col, and `plume check` exiting 2
// on one.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "scene/describe.h"
#include "scene/loader.h"
#include "support/run.h"
#include "support/scene_errors.h"

namespace plume {
namespace {

using namespace test;

TEST(ForceFieldKeys, ReadWithFalloffPointsAndKeys) {
    const Scene s = parseScene(
        "[domain]\norigin = [10, 0, 0]\n"
        "[physics]\nwind = [1, 0, 0]\n"
        "[[physics.key]]\nframe = 1\nwind = [0, 0, 0]\n"
        "[[physics.key]]\nframe = 11\nwind = [2, 0, 0]\n"
        "[[field]]\ntype = \"vortex\"\nstrength = 2.5\ncenter = [11, 1, 1]\naxis = [0, 1, 0]\n"
        "shape = \"tube\"\nfalloff = { power = 2, min = 0.1, max = 0.8 }\n"
        "[[field.key]]\nframe = 1\nstrength = 1\n"
        "[[field.key]]\nframe = 5\nstrength = 3\n"
        "[[field]]\ntype = \"curve\"\npoints = [[10, 0, 0], [12, 2, 2]]\nradius = 0.4\n",
        "s.toml");
    ASSERT_EQ(s.fields.size(), 2u);
    const FieldSettings& v = s.fields[0];
    EXPECT_EQ(v.type, FieldType::Vortex);
    EXPECT_EQ(v.shape, FieldShape::Tube);
    EXPECT_EQ(v.center.x, 1.0f);  // the domain's frame: origin 10 m along x
    EXPECT_EQ(v.falloffPower, 2.0f);
    EXPECT_EQ(v.falloffMin, 0.1f);
    EXPECT_EQ(v.falloffMax, 0.8f);
    ASSERT_EQ(s.fields[1].points.size(), 2u);
    EXPECT_EQ(s.fields[1].points[1].x, 2.0f);
    EXPECT_TRUE(s.forcesMove());
    EXPECT_TRUE(s.animated());
    const Scene at3 = s.atFrame(3);
    EXPECT_FLOAT_EQ(at3.fields[0].strength, 2.0f);
    EXPECT_FLOAT_EQ(at3.physics.wind.x, 0.4f);
}

TEST(ForceFieldKeys, DescribedSceneReadsBackTheSame) {
    const Scene s = parseScene(
        "[domain]\norigin = [0, 5, 0]\n[[field]]\ntype = \"curve\"\n"
        "points = [[0, 5, 0], [1, 6, 1], [2, 6, 2]]\nfalloff = { power = 1.5, max = 0.7 }\n"
        "[[field.key]]\nframe = 2\nradius = 0.3\n[[field.key]]\nframe = 9\nradius = 0.6\n",
        "s.toml");
    const std::string text = describeScene(s);
    const Scene again = parseScene(text, "s.toml");
    EXPECT_EQ(describeScene(again), text);
    ASSERT_EQ(again.fields.size(), 1u);
    EXPECT_EQ(again.fields[0].points[2].y, 1.0f);  // the domain's frame
    EXPECT_NE(text.find("points = [[0.0, 5.0, 0.0], [1.0, 6.0, 1.0], [2.0, 6.0, 2.0]]"),
              std::string::npos)
        << text;
}

TEST(ForceFieldKeys, BadValuesAreRefusedAtTheirPlace) {
    EXPECT_EQ(parseError("[[field]]\ntype = \"gust\"\n"),
              "s.toml:2:8: error: 'field[1].type' must be one of \"wind\", \"vortex\", "
              "\"turbulence\", \"attract\", \"drag\", \"curve\", got \"gust\"");
    EXPECT_EQ(parseError("[[field]]\ndirection = [0, 0, 0]\n"),
              "s.toml:2:13: error: 'field[1].direction' must not be [0, 0, 0]: a wind blows "
              "some way");
    EXPECT_EQ(parseError("[[field]]\ntype = \"vortex\"\naxis = [0, 0, 0]\n"),
              "s.toml:3:8: error: 'field[1].axis' must not be [0, 0, 0]");
    EXPECT_EQ(parseError("[[field]]\nfalloff = { min = 1, max = 0.5 }\n"),
              "s.toml:2:28: error: 'field[1].falloff.max' = 0.5 must be above falloff.min = 1 "
              "(or 0: no limit)");
    EXPECT_EQ(parseError("[[field]]\nfalloff = { power = -1 }\n"),
              "s.toml:2:21: error: 'field[1].falloff.power' = -1 is out of range [0, 10]");
    EXPECT_EQ(parseError("[[field]]\ntype = \"curve\"\npoints = [[0, 0, 0]]\n"),
              "s.toml:3:10: error: 'field[1].points' must give at least 2 points for a curve, "
              "got 1");
    EXPECT_EQ(parseError("[[field]]\ntype = \"curve\"\n"),
              "s.toml:1:1: error: 'field[1].points' must give at least 2 points for a curve, "
              "got 0");
    EXPECT_EQ(parseError("[[field]]\npoints = [[0, 0], [1, 1, 1]]\n"),
              "s.toml:2:11: error: 'field[1].points[1]' must be an array of 3 numbers, got 2 "
              "elements");
    EXPECT_EQ(parseError("[[field]]\npoints = [[0, 0, 0], [1, \"a\", 1]]\n"),
              "s.toml:2:26: error: 'field[1].points[2]' must be an array of 3 numbers, element "
              "2 is a string");
    EXPECT_EQ(parseError("[[field]]\ntype = \"drag\"\nstrength = -1\n"),
              "s.toml:3:12: error: 'field[1].strength' = -1: a drag's strength must be 0 or "
              "more");
    EXPECT_EQ(parseError("[[field]]\nsize = 0\n"),
              "s.toml:2:8: error: 'field[1].size' = 0 is out of range (0, inf)");
    EXPECT_EQ(parseError("[[field]]\n[[field.key]]\nframe = 2\nshape = \"tube\"\n"),
              "s.toml:4:1: error: 'field[1].key[1].shape' is not animatable; a key may set "
              "frame, strength, center, direction, axis, size, speed, radius");
}

TEST(ForceFieldKeys, CheckExitsTwoWithOneLine) {
    const std::filesystem::path dir = scratchDir("force_field_errors");
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "bad.toml") << "[[emitter]]\n\n[[field]]\ntype = \"wind\"\n"
                                       "falloff = { power = 11 }\n";
    const RunResult r = runPlume("check bad.toml", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "bad.toml:5:21: error: 'field[1].falloff.power' = 11 is out of range "
              "[0, 10]\n");
}

}  // namespace
}  // namespace plume
