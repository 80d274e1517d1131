// Scene files: what an empty or partial file resolves to.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "scene/describe.h"
#include "scene/loader.h"
#include "scene/schema.h"
#include "support/scene_errors.h"

namespace plume {
namespace {

using namespace test;

// --- Defaults ---------------------------------------------------------------

TEST(SceneDefaults, EmptyFileResolvesToStructDefaults) {
    Scene s = parseScene("", "scenes/empty.toml");
    Scene d;
    EXPECT_EQ(s.name, "empty");
    EXPECT_EQ(s.path, "scenes/empty.toml");
    EXPECT_EQ(s.domain.size, d.domain.size);
    EXPECT_EQ(s.domain.resolution, d.domain.resolution);
    EXPECT_EQ(s.domain.boundary, d.domain.boundary);
    EXPECT_EQ(s.time.frames, d.time.frames);
    EXPECT_EQ(s.solver.pressure, PressureMethod::MGPCG);
    EXPECT_EQ(s.solver.advection, AdvectionScheme::Reflection);
    EXPECT_EQ(s.render.width, 1280);
    EXPECT_EQ(s.render.height, 720);
    EXPECT_TRUE(s.emitters.empty());
    EXPECT_TRUE(s.obstacles.empty());
    EXPECT_FALSE(s.camera.given);
}

// A fire's emitter makes no smoke of its own unless it says so: its smoke is
// the soot burning makes (a first fire shows its flame, not a grey ball).
TEST(SceneDefaults, AFuelEmitterMakesNoSmokeOfItsOwn) {
    const std::string text =
        "[[emitter]]\nfuel = 1.0\n\n[[emitter]]\nfuel = 1.0\ndensity = 0.5\n\n[[emitter]]\n";
    Scene s = parseScene(text, "s.toml");
    ASSERT_EQ(s.emitters.size(), 3u);
    EXPECT_EQ(s.emitters[0].density, 0.0f);
    EXPECT_EQ(s.emitters[1].density, 0.5f);
    EXPECT_EQ(s.emitters[2].density, EmitterSettings().density);
    Scene set = parseScene(text, "s.toml", {"emitter[1].density=1.0"});
    EXPECT_EQ(set.emitters[0].density, 1.0f);
    EXPECT_TRUE(parseScene("[[emitter]]\nfuel = 1.0\n", "s.toml").smokeOnlyFromFire());
}

// An [environment] map's light has directions the octaves cannot carry:
// "auto" takes transport under one, the octaves under the procedural sky,
// and a value given stays.
TEST(SceneDefaults, MultipleScatteringAutoFollowsTheEnvironment) {
    Scene s = parseScene("", "s.toml");
    EXPECT_EQ(s.render.multipleScattering, MultipleScattering::Auto);
    EXPECT_EQ(s.multipleScatteringOf(), MultipleScattering::Octaves);
    s.environment.file = "sky.hdr";
    EXPECT_EQ(s.multipleScatteringOf(), MultipleScattering::Transport);
    s.render.multipleScattering = MultipleScattering::Octaves;
    EXPECT_EQ(s.multipleScatteringOf(), MultipleScattering::Octaves);
    const Scene given = parseScene("[render]\nmultiple_scattering = \"off\"\n", "s.toml");
    EXPECT_EQ(given.multipleScatteringOf(), MultipleScattering::Off);
}

TEST(SceneDefaults, NoLightGivesOneWarmKeyLight) {
    Scene s = parseScene("", "s.toml");
    ASSERT_EQ(s.lights.size(), 1u);
    EXPECT_EQ(s.lights[0].type, LightType::Directional);
    EXPECT_EQ(s.lights[0].direction, Vec3f(-0.4f, 0.5f, -0.75f));
    EXPECT_EQ(s.lights[0].color, Vec3f(1.0f, 0.95f, 0.88f));
    EXPECT_EQ(s.lights[0].intensity, 3.0f);
}

TEST(SceneDefaults, GivenLightsReplaceTheDefault) {
    Scene s = parseScene("[[light]]\ntype = \"point\"\nposition = [0, 0, 5]\n", "s.toml");
    ASSERT_EQ(s.lights.size(), 1u);
    EXPECT_EQ(s.lights[0].type, LightType::Point);
    EXPECT_EQ(s.lights[0].position, Vec3f(0, 0, 5));
}

TEST(SceneDefaults, ArrayElementsStartFromTheirStructDefaults) {
    Scene s = parseScene("[[emitter]]\n\n[[emitter]]\nshape = \"box\"\n[[obstacle]]\n", "s.toml");
    ASSERT_EQ(s.emitters.size(), 2u);
    EXPECT_EQ(s.emitters[0].radius, EmitterSettings{}.radius);
    EXPECT_EQ(s.emitters[1].shape, Shape::Box);
    EXPECT_EQ(s.emitters[0].line, 1);
    EXPECT_EQ(s.emitters[1].line, 3);
    ASSERT_EQ(s.obstacles.size(), 1u);
    EXPECT_EQ(s.obstacles[0].line, 5);
}

TEST(SceneDefaults, CameraSectionMarksCameraGiven) {
    EXPECT_TRUE(parseScene("[camera]\nfov = 30\n", "s.toml").camera.given);
}

TEST(SceneDefaults, FloatsMayBeWrittenAsIntegers) {
    Scene s = parseScene("[domain]\nsize = [2, 2, 3]\n[physics]\nvorticity = 1\n", "s.toml");
    EXPECT_EQ(s.domain.size, Vec3f(2, 2, 3));
    EXPECT_EQ(s.physics.vorticity, 1.0f);
}

TEST(SceneDefaults, BoundaryForms) {
    Scene all = parseScene("[domain]\nboundary = \"wall\"\n", "s.toml");
    for (Boundary b : all.domain.boundary) EXPECT_EQ(b, Boundary::Wall);

    Scene sides = parseScene(
        "[domain.boundary]\nall = \"open\"\nx_min = \"inflow\"\nz_min = \"wall\"\n", "s.toml");
    EXPECT_EQ(sides.domain.boundary[kXMin], Boundary::Inflow);
    EXPECT_EQ(sides.domain.boundary[kXMax], Boundary::Open);
    EXPECT_EQ(sides.domain.boundary[kZMin], Boundary::Wall);
    EXPECT_EQ(sides.domain.boundary[kZMax], Boundary::Open);
}

TEST(SceneDefaults, BackgroundSetsBothColours) {
    Scene s = parseScene("[render]\nbackground = [0.1, 0.2, 0.3]\nbackground_top = [1, 1, 1]\n",
                         "s.toml");
    EXPECT_EQ(s.render.backgroundBottom, Vec3f(0.1f, 0.2f, 0.3f));
    EXPECT_EQ(s.render.backgroundTop, Vec3f(1, 1, 1));  // the specific key wins
}

}  // namespace
}  // namespace plume
