// --set overrides: values, keys, array elements, and their errors.
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

// --- --set --------------------------------------------------------------------

TEST(SceneSet, ScalarsArraysAndBareWords) {
    Scene s = parseScene("[[emitter]]\n[[emitter]]\n", "s.toml",
                         {"domain.resolution=48", "domain.size=[1,2,3]", "solver.pressure=pcg",
                          "solver.advection=\"semi-lagrangian\"", "render.grid = temperature",
                          "physics.vorticity=1"});
    EXPECT_EQ(s.domain.resolution, 48);
    EXPECT_EQ(s.domain.size, Vec3f(1, 2, 3));
    EXPECT_EQ(s.solver.pressure, PressureMethod::PCG);
    EXPECT_EQ(s.solver.advection, AdvectionScheme::SemiLagrangian);
    EXPECT_EQ(s.render.grid, "temperature");
    EXPECT_EQ(s.physics.vorticity, 1.0f);
}

TEST(SceneSet, Booleans) {
    Scene s = parseScene("[[obstacle]]\n", "s.toml",
                         {"ground.enabled=true", "obstacle[1].visible=false", "render.transparent=true"});
    EXPECT_TRUE(s.ground.enabled);
    EXPECT_FALSE(s.obstacles[0].visible);
    EXPECT_TRUE(s.render.transparent);
    // Written back as TOML booleans, so the resolved scene loads again.
    const Scene again = parseScene(describeScene(s), "again.toml");
    EXPECT_TRUE(again.ground.enabled);
    EXPECT_FALSE(again.obstacles[0].visible);
}

TEST(SceneSet, ArrayElementsBothSpellings) {
    Scene s = parseScene("[[emitter]]\n[[emitter]]\n", "s.toml",
                         {"emitter[1].density=2", "emitter.2.density=3", "emitter[2].shape=box"});
    EXPECT_EQ(s.emitters[0].density, 2.0f);
    EXPECT_EQ(s.emitters[1].density, 3.0f);
    EXPECT_EQ(s.emitters[1].shape, Shape::Box);
}

TEST(SceneSet, OverridesWinOverTheFileAndEachOther) {
    Scene s = parseScene("[domain]\nresolution = 32\n", "s.toml",
                         {"domain.resolution=40", "domain.resolution=56"});
    EXPECT_EQ(s.domain.resolution, 56);
}

TEST(SceneSet, BoundarySidesOverAStringBoundary) {
    Scene s =
        parseScene("[domain]\nboundary = \"wall\"\n", "s.toml", {"domain.boundary.x_min=inflow"});
    EXPECT_EQ(s.domain.boundary[kXMin], Boundary::Inflow);
    EXPECT_EQ(s.domain.boundary[kXMax], Boundary::Wall);
    Scene open =
        parseScene("[domain.boundary]\nx_min = \"inflow\"\n", "s.toml", {"domain.boundary=open"});
    for (Boundary b : open.domain.boundary) EXPECT_EQ(b, Boundary::Open);
}

TEST(SceneSet, NewSectionIsCreated) {
    Scene s = parseScene("", "s.toml", {"camera.fov=30"});
    EXPECT_TRUE(s.camera.given);
    EXPECT_EQ(s.camera.fov, 30.0f);
}

TEST(SceneSet, ValueErrors) {
    EXPECT_EQ(
        setError("domain.resolution=abc"),
        "--set domain.resolution=abc: error: 'domain.resolution' must be an integer, got a string");
    EXPECT_EQ(
        setError("domain.resolution=48.0"),
        "--set domain.resolution=48.0: error: 'domain.resolution' must be an integer, got a float");
    EXPECT_EQ(setError("domain.resolution=5000"),
              "--set domain.resolution=5000: error: 'domain.resolution' = 5000 is out of range [8, "
              "1024]");
    EXPECT_EQ(setError("domain.size=[1,2]"),
              "--set domain.size=[1,2]: error: 'domain.size' must be an array of 3 numbers, got 2 "
              "elements");
    EXPECT_EQ(
        setError("solver.pressure=cg"),
        "--set solver.pressure=cg: error: 'solver.pressure' must be one of \"mgpcg\", \"pcg\", "
        "\"sor\", got \"cg\"");
    EXPECT_EQ(setError("emitter[1].shape=cone"),
              "--set emitter[1].shape=cone: error: 'emitter[1].shape' must be one of \"sphere\", "
              "\"box\", \"mesh\", \"points\", got \"cone\"");
    EXPECT_EQ(setError("render.width=1281"),
              "--set render.width=1281: error: 'render.width' = 1281 must be even for H.264 video; "
              "use 1280 or 1282");
    EXPECT_EQ(setError("physics.vorticity=nan"),
              "--set physics.vorticity=nan: error: 'physics.vorticity' must be finite, got nan");
}

TEST(SceneSet, KeyErrors) {
    EXPECT_EQ(setError("domain.resolution"),
              "--set domain.resolution: error: expected key=value, e.g. domain.resolution=48");
    EXPECT_EQ(setError("=48"), "--set =48: error: expected key=value, e.g. domain.resolution=48");
    EXPECT_EQ(setError("domain.resolution="),
              "--set domain.resolution=: error: no value after '='");
    EXPECT_EQ(setError("physics.vorticty=1"),
              "--set physics.vorticty=1: error: unknown key 'physics.vorticty' (did you mean "
              "'physics.vorticity'?)");
    EXPECT_EQ(
        setError("phyiscs.vorticity=1"),
        "--set phyiscs.vorticity=1: error: unknown section 'phyiscs' (did you mean 'physics'?)");
    EXPECT_EQ(
        setError("resolution=48"),
        "--set resolution=48: error: unknown key 'resolution' (did you mean 'domain.resolution'?)");
    EXPECT_EQ(setError("emitter[1].radus=1"),
              "--set emitter[1].radus=1: error: unknown key 'emitter[1].radus' (did you mean "
              "'emitter[1].radius'?)");
    EXPECT_EQ(setError("time=1"),
              "--set time=1: error: expected a key inside 'time', e.g. time.fps=...");
}

TEST(SceneSet, ArrayIndexErrors) {
    EXPECT_EQ(setError("emitter[2].density=1"),
              "--set emitter[2].density=1: error: 'emitter[2]' does not exist: the scene has 1 "
              "[[emitter]] table");
    EXPECT_EQ(setError("emitter.3.density=1", "[[emitter]]\n[[emitter]]\n"),
              "--set emitter.3.density=1: error: 'emitter[3]' does not exist: the scene has 2 "
              "[[emitter]] tables");
    EXPECT_EQ(setError("obstacle[1].radius=1"),
              "--set obstacle[1].radius=1: error: 'obstacle[1]' does not exist: the scene has no "
              "[[obstacle]] table");
    EXPECT_EQ(setError("emitter[0].density=1"),
              "--set emitter[0].density=1: error: 'emitter[0]': elements are numbered from 1");
    EXPECT_EQ(setError("emitter.density=1"),
              "--set emitter.density=1: error: 'emitter' holds [[emitter]] tables: write "
              "emitter[N].KEY with N from 1");
    EXPECT_EQ(setError("camera[1].fov=30"),
              "--set camera[1].fov=30: error: 'camera' is a single table, not [[camera]]");
}

TEST(SceneSet, ClashWithTheFileIsReportedAtTheOverride) {
    EXPECT_EQ(parseError("[camera]\nlook_at = [1, 1, 1]\n", {"camera.position=[1,1,1]"}),
              "--set camera.position=[1,1,1]: error: 'camera.look_at' must differ from "
              "'camera.position'");
}

TEST(SceneSet, FileErrorsComeBeforeOverrideErrors) {
    EXPECT_EQ(parseError("[time]\nfps = 0\n", {"domain.resolution=1"}),
              "s.toml:2:7: error: 'time.fps' = 0 is out of range [1, 240]");
}

}  // namespace
}  // namespace plume
