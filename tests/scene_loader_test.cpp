// Scene files: defaults, every error kind with its exact text, --set, the
// round trip through describeScene, the reference and the memory check.
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

namespace plume {
namespace {

const std::string kSourceDir = PLUME_SOURCE_DIR;
const std::string kBadScenes = kSourceDir + "/tests/data/bad_scenes/";

// The message a call throws as InputError, or "" when it does not throw.
template <typename F>
std::string errorOf(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string loadError(const std::string& fixture) {
    return errorOf([&] { loadScene(kBadScenes + fixture); });
}

std::string parseError(std::string_view text, std::vector<std::string> overrides = {}) {
    return errorOf([&] { parseScene(text, "s.toml", overrides); });
}

std::string setError(const std::string& arg, std::string_view text = "[[emitter]]\n") {
    return errorOf([&] { parseScene(text, "s.toml", {arg}); });
}

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
    EXPECT_EQ(s.solver.advection, AdvectionScheme::MacCormack);
    EXPECT_EQ(s.render.width, 1280);
    EXPECT_EQ(s.render.height, 720);
    EXPECT_TRUE(s.emitters.empty());
    EXPECT_TRUE(s.obstacles.empty());
    EXPECT_FALSE(s.camera.given);
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

// --- Errors from fixture files ----------------------------------------------

TEST(SceneErrors, MissingFile) {
    EXPECT_EQ(errorOf([] { loadScene("no/such/scene.toml"); }),
              "no/such/scene.toml: error: cannot read scene file (No such file or directory)");
}

TEST(SceneErrors, Syntax) {
    EXPECT_EQ(loadError("syntax.toml"),
              kBadScenes +
                  "syntax.toml:3:17: error: Error while parsing key-value pair: "
                  "expected a comment or whitespace, saw '6'");
}

TEST(SceneErrors, UnknownKey) {
    EXPECT_EQ(loadError("unknown_key.toml"),
              kBadScenes +
                  "unknown_key.toml:7:1: error: unknown key 'physics.vorticty' "
                  "(did you mean 'physics.vorticity'?)");
}

TEST(SceneErrors, UnknownSection) {
    EXPECT_EQ(loadError("unknown_section.toml"),
              kBadScenes +
                  "unknown_section.toml:4:2: error: unknown section 'phyiscs' "
                  "(did you mean 'physics'?)");
}

TEST(SceneErrors, UnknownKeyInArrayOfTables) {
    EXPECT_EQ(loadError("unknown_emitter_key.toml"),
              kBadScenes +
                  "unknown_emitter_key.toml:6:1: error: unknown key 'emitter[2].radus' "
                  "(did you mean 'emitter[2].radius'?)");
}

TEST(SceneErrors, UnknownBoundarySide) {
    EXPECT_EQ(loadError("unknown_boundary_side.toml"),
              kBadScenes +
                  "unknown_boundary_side.toml:2:32: error: unknown key "
                  "'domain.boundary.xmax' (did you mean 'domain.boundary.x_max'?)");
}

TEST(SceneErrors, WrongType) {
    EXPECT_EQ(loadError("wrong_type.toml"),
              kBadScenes +
                  "wrong_type.toml:2:14: error: 'domain.resolution' must be an integer, "
                  "got a string");
}

TEST(SceneErrors, IntegerWrittenAsFloat) {
    EXPECT_EQ(loadError("integer_as_float.toml"),
              kBadScenes +
                  "integer_as_float.toml:2:14: error: 'domain.resolution' must be an "
                  "integer, got a float");
}

TEST(SceneErrors, ArrayLength) {
    EXPECT_EQ(loadError("array_length.toml"),
              kBadScenes +
                  "array_length.toml:2:8: error: 'domain.size' must be an array of 3 "
                  "numbers, got 2 elements");
}

TEST(SceneErrors, OutOfRange) {
    EXPECT_EQ(loadError("out_of_range.toml"),
              kBadScenes +
                  "out_of_range.toml:2:14: error: 'domain.resolution' = 5000 is out of "
                  "range [8, 1024]");
}

TEST(SceneErrors, NotFinite) {
    EXPECT_EQ(
        loadError("not_finite.toml"),
        kBadScenes + "not_finite.toml:2:13: error: 'physics.vorticity' must be finite, got nan");
}

TEST(SceneErrors, BadEnum) {
    EXPECT_EQ(loadError("bad_enum.toml"),
              kBadScenes +
                  "bad_enum.toml:2:12: error: 'solver.pressure' must be one of \"mgpcg\", "
                  "\"pcg\", \"sor\", got \"cg\"");
}

TEST(SceneErrors, UnknownShape) {
    EXPECT_EQ(loadError("bad_shape.toml"),
              kBadScenes +
                  "bad_shape.toml:2:9: error: 'emitter[1].shape' must be one of "
                  "\"sphere\", \"box\", got \"cone\"");
}

TEST(SceneErrors, OddFrameSize) {
    EXPECT_EQ(loadError("odd_width.toml"),
              kBadScenes +
                  "odd_width.toml:2:9: error: 'render.width' = 1281 must be even for "
                  "H.264 video; use 1280 or 1282");
}

TEST(SceneErrors, EmitterFramesOutOfOrder) {
    EXPECT_EQ(loadError("frames_order.toml"),
              kBadScenes +
                  "frames_order.toml:2:10: error: 'emitter[1].frames' = [10, 5]: the "
                  "first frame comes after the last");
}

TEST(SceneErrors, FirstErrorInTheFileWins) {
    EXPECT_EQ(
        loadError("first_error_wins.toml"),
        kBadScenes + "first_error_wins.toml:3:7: error: 'time.fps' = 0 is out of range [1, 240]");
}

// --- Errors from strings ----------------------------------------------------

TEST(SceneErrorStrings, TypesAndShapes) {
    EXPECT_EQ(parseError("[time]\nframes = true\n"),
              "s.toml:2:10: error: 'time.frames' must be an integer, got a boolean");
    EXPECT_EQ(parseError("[physics]\nvorticity = \"lots\"\n"),
              "s.toml:2:13: error: 'physics.vorticity' must be a number, got a string");
    EXPECT_EQ(parseError("[physics]\ngravity = -9.81\n"),
              "s.toml:2:11: error: 'physics.gravity' must be an array of 3 numbers, got a float");
    EXPECT_EQ(
        parseError("[physics]\nwind = [1, \"x\", 0]\n"),
        "s.toml:2:12: error: 'physics.wind' must be an array of 3 numbers, element 2 is a string");
    EXPECT_EQ(parseError("[[emitter]]\nframes = [1.5, 3]\n"),
              "s.toml:2:11: error: 'emitter[1].frames' must be an array of 2 integers, element 1 "
              "is a float");
    EXPECT_EQ(
        parseError("[output]\ncodec = 264\n"),
        "s.toml:2:9: error: 'output.codec' must be one of \"h264\", \"mpeg4\", got an integer");
    EXPECT_EQ(parseError("[render]\ngrid = 1\n"),
              "s.toml:2:8: error: 'render.grid' must be a string, got an integer");
}

TEST(SceneErrorStrings, RangesAndFiniteness) {
    EXPECT_EQ(parseError("[physics]\nviscosity = inf\n"),
              "s.toml:2:13: error: 'physics.viscosity' must be finite, got inf");
    EXPECT_EQ(parseError("[physics]\ndiffusion = -0.5\n"),
              "s.toml:2:13: error: 'physics.diffusion' = -0.5 is out of range [0, inf)");
    EXPECT_EQ(parseError("[domain]\nsize = [2, -1, 2]\n"),
              "s.toml:2:12: error: 'domain.size' element 2 = -1 is out of range (0, 10000]");
    EXPECT_EQ(parseError("[[obstacle]]\nradius = 0\n"),
              "s.toml:2:10: error: 'obstacle[1].radius' = 0 is out of range (0, inf)");
    EXPECT_EQ(parseError("[render]\nphase = 1\n"),
              "s.toml:2:9: error: 'render.phase' = 1 is out of range [-0.99, 0.99]");
    EXPECT_EQ(parseError("[solver]\ntolerance = 1\n"),
              "s.toml:2:13: error: 'solver.tolerance' = 1 is out of range [1e-08, 0.5]");
    EXPECT_EQ(
        parseError("[render]\nheight = 721\n"),
        "s.toml:2:10: error: 'render.height' = 721 must be even for H.264 video; use 720 or 722");
}

TEST(SceneErrorStrings, SectionsOfTheWrongKind) {
    EXPECT_EQ(parseError("domain = 3\n"),
              "s.toml:1:10: error: 'domain' must be a table, got an integer");
    EXPECT_EQ(parseError("[emitter]\nradius = 1\n"),
              "s.toml:1:1: error: 'emitter' must be an array of tables ([[emitter]]), got a table");
    EXPECT_EQ(parseError("[domain]\nboundary = 1\n"),
              "s.toml:2:12: error: 'domain.boundary' must be a string or a table, got an integer");
    EXPECT_EQ(
        parseError("[domain]\nboundary = \"closed\"\n"),
        "s.toml:2:12: error: 'domain.boundary' must be one of \"wall\", \"open\", \"inflow\", "
        "got \"closed\"");
}

TEST(SceneErrorStrings, UnknownTopLevelKeySuggestsItsSection) {
    EXPECT_EQ(parseError("resolution = 48\n"),
              "s.toml:1:1: error: unknown key 'resolution' (did you mean 'domain.resolution'?)");
    EXPECT_EQ(parseError("[xyzzy]\n"), "s.toml:1:2: error: unknown section 'xyzzy'");
    EXPECT_EQ(parseError("[physics]\ncolour = 1\n"),
              "s.toml:2:1: error: unknown key 'physics.colour'");
}

TEST(SceneErrorStrings, CrossFieldChecks) {
    EXPECT_EQ(parseError("[camera]\nposition = [1, 1, 1]\nlook_at = [1, 1, 1]\n"),
              "s.toml:3:11: error: 'camera.look_at' must differ from 'camera.position'");
    EXPECT_EQ(parseError("[camera]\nposition = [0, 0, 0]\nlook_at = [0, 0, 1]\n"),
              "s.toml:3:11: error: 'camera.up' must not be parallel to the view direction "
              "(look_at - position)");
    EXPECT_EQ(parseError("[[light]]\n[[light]]\ndirection = [0, 0, 0]\n"),
              "s.toml:3:13: error: 'light[2].direction' must not be zero for a directional light");
}

TEST(SceneErrorStrings, SyntaxErrorIsOneLine) {
    std::string e = parseError("[domain\n");
    EXPECT_EQ(e.rfind("s.toml:1:", 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

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
              "\"box\", got \"cone\"");
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

// --- Shipped scenes, describe, reference --------------------------------------

std::vector<std::string> shippedScenes() {
    std::vector<std::string> paths;
    for (const auto& entry : std::filesystem::directory_iterator(kSourceDir + "/scenes"))
        if (entry.path().extension() == ".toml") paths.push_back(entry.path().string());
    std::sort(paths.begin(), paths.end());
    return paths;
}

TEST(SceneFiles, EveryShippedSceneLoads) {
    std::vector<std::string> paths = shippedScenes();
    EXPECT_GE(paths.size(), 3u);
    for (const std::string& path : paths) {
        EXPECT_NO_THROW(loadScene(path)) << path;
        EXPECT_NO_THROW(checkMemory(loadScene(path))) << path;
    }
}

TEST(SceneFiles, DefaultScene) {
    Scene s = loadScene(kSourceDir + "/scenes/plume.toml");
    EXPECT_EQ(s.name, "plume");
    EXPECT_GT(s.domain.size.z, s.domain.size.x);
    EXPECT_EQ(s.domain.boundary[kZMin], Boundary::Wall);
    EXPECT_EQ(s.domain.boundary[kZMax], Boundary::Open);
    EXPECT_EQ(s.emitters.size(), 1u);
    EXPECT_EQ(s.obstacles.size(), 1u);
    EXPECT_TRUE(s.camera.given);
    EXPECT_EQ(s.lights.size(), 2u);
    EXPECT_EQ(s.render.width, 1280);
    EXPECT_EQ(s.render.height, 720);
}

TEST(SceneFiles, BenchIsTheMantaflowSetup) {
    Scene s = loadScene(kSourceDir + "/scenes/bench.toml");
    EXPECT_EQ(s.name, "bench");
    EXPECT_EQ(s.domain.size, Vec3f(2, 2, 2));
    EXPECT_EQ(s.domain.resolution, 64);
    for (Boundary b : s.domain.boundary) EXPECT_EQ(b, Boundary::Open);
    ASSERT_EQ(s.emitters.size(), 1u);
    EXPECT_EQ(s.emitters[0].shape, Shape::Sphere);
    EXPECT_EQ(s.emitters[0].radius, 0.2f);
    EXPECT_EQ(s.emitters[0].center, Vec3f(1, 1, 0.3f));
    EXPECT_EQ(s.emitters[0].density, 1.0f);
    EXPECT_EQ(s.emitters[0].temperature, 1.0f);
    EXPECT_EQ(s.physics.vorticity, 0.0f);
    EXPECT_EQ(s.time.fps, 24);
    EXPECT_EQ(s.time.frames, 48);
    EXPECT_EQ(s.time.cfl, 4.0f);
    EXPECT_EQ(s.time.maxSubsteps, 4);
    EXPECT_EQ(s.solver.advection, AdvectionScheme::MacCormack);
    EXPECT_EQ(s.solver.tolerance, 1e-4f);
    EXPECT_EQ(
        loadScene(kSourceDir + "/scenes/bench.toml", {"domain.resolution=128"}).domain.cells(),
        (Vec3i{128, 128, 128}));
}

TEST(SceneFiles, WindTunnel) {
    Scene s = loadScene(kSourceDir + "/scenes/wind_tunnel.toml");
    EXPECT_EQ(s.domain.boundary[kXMin], Boundary::Inflow);
    EXPECT_EQ(s.domain.boundary[kXMax], Boundary::Open);
    EXPECT_EQ(s.domain.inflowVelocity, Vec3f(1.5f, 0, 0));
    EXPECT_GE(s.emitters.size(), 3u);
    for (const EmitterSettings& e : s.emitters) EXPECT_EQ(e.temperature, 0.0f);
}

TEST(SceneDescribe, ReparsesToTheSameScene) {
    std::vector<std::string> paths = shippedScenes();
    paths.push_back("");  // the defaults
    for (const std::string& path : paths) {
        Scene s = path.empty() ? parseScene("", "defaults.toml") : loadScene(path);
        std::string text = describeScene(s);
        Scene again = parseScene(text, s.path);
        EXPECT_EQ(describeScene(again), text) << path;
        EXPECT_EQ(again.camera.given, s.camera.given) << path;
        EXPECT_EQ(again.lights.size(), s.lights.size()) << path;
        EXPECT_EQ(again.physics.gravity, s.physics.gravity) << path;
        EXPECT_EQ(again.solver.tolerance, s.solver.tolerance) << path;
        EXPECT_EQ(again.domain.boundary, s.domain.boundary) << path;
    }
}

TEST(SceneDescribe, ListsEveryKeyAndTheGrid) {
    Scene s = loadScene(kSourceDir + "/scenes/plume.toml");
    std::string text = describeScene(s);
    for (const KeySpec& k : sceneKeys()) {
        if (k.alias) continue;
        std::string leaf = std::string(k.key) + " = ";
        EXPECT_NE(text.find(leaf), std::string::npos) << k.dotted();
    }
    EXPECT_NE(text.find("# grid 40x40x64 = 102400 cells"), std::string::npos) << text;
    EXPECT_NE(text.find("# memory estimate: about "), std::string::npos);
}

TEST(SceneReference, ListsEveryKey) {
    std::string ref = sceneReference();
    for (const KeySpec& k : sceneKeys())
        EXPECT_NE(ref.find("| `" + k.dotted() + "` |"), std::string::npos) << k.dotted();
    for (const SectionSpec& s : sceneSections())
        EXPECT_NE(ref.find(std::string(s.name)), std::string::npos);
    EXPECT_NE(ref.find("| `domain.resolution` | integer | `64` | [8, 1024] |"), std::string::npos);
    EXPECT_NE(ref.find("`\"mgpcg\"`, `\"pcg\"`, `\"sor\"`"), std::string::npos);
}

TEST(SceneSchema, FixedKeysExist) {
    for (const char* dotted :
         {"domain.size", "domain.resolution", "time.fps", "time.frames", "time.cfl",
          "time.max_substeps", "solver.pressure", "solver.tolerance", "solver.advection",
          "render.width", "render.height", "emitter.shape", "obstacle.shape"}) {
        std::string_view d = dotted;
        std::size_t dot = d.find('.');
        EXPECT_NE(findKey(d.substr(0, dot), d.substr(dot + 1)), nullptr) << dotted;
    }
}

TEST(SceneSchema, EveryDefaultIsInRange) {
    // A default outside its own range would make describeScene's output unreadable.
    Scene d = parseScene("[[emitter]]\n[[obstacle]]\n[[light]]\n[camera]\n", "s.toml");
    EXPECT_NO_THROW(parseScene(describeScene(d), "s.toml"));
}

// --- Memory -------------------------------------------------------------------

TEST(SceneMemory, EstimateGrowsWithResolution) {
    Scene s = parseScene("", "s.toml");
    std::uint64_t previous = 0;
    for (int n : {16, 32, 64, 128, 256}) {
        s.domain.resolution = n;
        std::uint64_t bytes = estimateMemoryBytes(s);
        EXPECT_GT(bytes, previous) << n;
        previous = bytes;
    }
    // Past the baseline, about 30 floats a cell: 256^3 cells need over 2 GiB.
    EXPECT_GT(previous, 2ull << 30);
}

TEST(SceneMemory, EstimateGrowsWithLightsAndImage) {
    Scene s = parseScene("", "s.toml");
    std::uint64_t one = estimateMemoryBytes(s);
    s.lights.push_back(s.lights[0]);
    EXPECT_GT(estimateMemoryBytes(s), one);
    std::uint64_t two = estimateMemoryBytes(s);
    s.render.width *= 2;
    EXPECT_GT(estimateMemoryBytes(s), two);
}

TEST(SceneMemory, SmallSceneFits) {
    EXPECT_GT(machineMemoryBytes(), 0u);
    EXPECT_NO_THROW(checkMemory(parseScene("", "s.toml")));
}

TEST(SceneMemory, HugeSceneIsRefused) {
    Scene s = parseScene("[domain]\nsize = [1, 1, 1]\nresolution = 1024\n", "big.toml");
    if (estimateMemoryBytes(s) <= machineMemoryBytes()) GTEST_SKIP() << "this machine is too big";
    std::string e = errorOf([&] { checkMemory(s); });
    EXPECT_EQ(e.rfind("big.toml: error: scene needs about ", 0), 0u) << e;
    EXPECT_NE(e.find(" GiB (1024x1024x1024 cells) but this machine has "), std::string::npos) << e;
    EXPECT_NE(e.find(" GiB; lower domain.resolution"), std::string::npos) << e;
}

TEST(SceneReference, ReadmeHoldsTheGeneratedReference) {
    // The README's scene-file reference is `plume check --reference`, verbatim:
    // regenerate that part of README.md when a key changes.
    std::ifstream in(std::string(PLUME_SOURCE_DIR) + "/README.md");
    std::stringstream readme;
    readme << in.rdbuf();
    EXPECT_NE(readme.str().find(sceneReference()), std::string::npos)
        << "README.md is out of date: paste the output of `plume check --reference` into it";
}

}  // namespace
}  // namespace plume
