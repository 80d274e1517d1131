// The shipped scenes, the round trip through describeScene and the reference.
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
    EXPECT_EQ(s.upres.factor, 4);  // the detail a user sees first: an effective 256
    EXPECT_EQ(s.render.step, 0.75f);
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
    // Blender's buoyancy (alpha = beta = 1, heat that never cools) as plume's keys.
    EXPECT_EQ(s.physics.buoyancyHeat, 1.0f);
    EXPECT_EQ(s.physics.temperatureDissipation, 0.0f);
    EXPECT_EQ(s.solver.advection, AdvectionScheme::Reflection);
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
    s.fields.emplace_back();  // a default [[field]], which the shipped scene has none of
    std::string text = describeScene(s, MemoryEstimate{45ull << 20, 123ull << 20, true});
    for (const KeySpec& k : sceneKeys()) {
        if (k.alias) continue;
        std::string leaf = std::string(k.key) + " = ";
        EXPECT_NE(text.find(leaf), std::string::npos) << k.dotted();
    }
    EXPECT_NE(text.find("# grid 40x40x64 = 102400 cells"), std::string::npos) << text;
    EXPECT_NE(text.find("# memory estimate: about 45 MiB for bake and render at first (the "
                        "sparse solve's boxes around the emitters), at most about 123 MiB if the "
                        "smoke fills the domain\n"),
              std::string::npos)
        << text;
    EXPECT_EQ(describeScene(s).find("# memory estimate"), std::string::npos);
    EXPECT_NE(describeScene(s, MemoryEstimate{123ull << 20, 123ull << 20, false})
                  .find("# memory estimate: about 123 MiB for bake and render\n"),
              std::string::npos);
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

}  // namespace
}  // namespace plume
