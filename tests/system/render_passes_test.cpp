// Render passes (render.passes, render/output/render_passes.h): the layers of the
// EXR frames the real plume binary writes, read back with OpenEXR (and
// oiiotool), sum to the beauty; a light turned off empties its layer and no
// other; depth is where the transmittance halves; bad values are one line at
// their key's place.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "io/exr_file.h"
#include "render/renderer.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::runPlume;
using test::scratchDir;

const std::string kScenes = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/";

std::string sets(const std::vector<std::string>& keys) {
    std::string args;
    for (const std::string& key : keys) args += " --set '" + key + "'";
    return args;
}

// The fire, small: a flame, its soot, a solid, the ground, a sun and the sky.
const std::vector<std::string> kFire = {"domain.resolution=20", "render.width=64",
                                        "render.height=36", "render.passes=all"};
// Hot smoke that glows without a flame, under a sun and a lamp, over a solid.
const std::vector<std::string> kTwoLights = {"domain.resolution=16", "render.width=64",
                                             "render.height=36", "render.passes=all"};

int countLines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

const std::vector<float>& channel(const ExrChannels& exr, const std::string& name) {
    static const std::vector<float> none;
    auto it = exr.channels.find(name);
    EXPECT_NE(it, exr.channels.end()) << "no channel " << name;
    return it == exr.channels.end() ? none : it->second;
}

// The colour layers of a frame (every NAME.R but the beauty's).
std::vector<std::string> colourLayers(const ExrChannels& exr) {
    std::vector<std::string> layers;
    for (const auto& [name, values] : exr.channels)
        if (name.size() > 2 && name.ends_with(".R"))
            layers.push_back(name.substr(0, name.size() - 2));
    return layers;
}

// Every pixel's colour is the sum of the layers' within half-float rounding:
// each of the values was rounded to 11 significant bits once.
void expectLayersSumToBeauty(const ExrChannels& exr, const std::string& what) {
    const std::vector<std::string> layers = colourLayers(exr);
    ASSERT_FALSE(layers.empty()) << what;
    int bad = 0;
    double largest = 0;
    for (const char* c : {"R", "G", "B"}) {
        const std::vector<float>& beauty = channel(exr, c);
        for (size_t i = 0; i < beauty.size() && bad < 5; ++i) {
            double sum = 0, magnitude = std::fabs(beauty[i]);
            for (const std::string& layer : layers) {
                const float v = channel(exr, layer + "." + c)[i];
                sum += v;
                magnitude += std::fabs(v);
            }
            largest = std::max(largest, double(beauty[i]));
            const double tolerance = magnitude * (1.0 / 2048.0) + 1e-7 * double(layers.size() + 1);
            if (std::fabs(sum - beauty[i]) > tolerance) {
                ++bad;
                ADD_FAILURE() << what << ": pixel " << i << " channel " << c << ": layers sum to "
                              << sum << ", the beauty is " << beauty[i];
            }
        }
    }
    EXPECT_GT(largest, 0.01) << what << ": a black frame proves nothing";
}

float largestOf(const std::vector<float>& values) {
    float m = 0;
    for (float v : values) m = std::max(m, std::fabs(v));
    return m;
}

// A layer's largest value over R, G, B.
float layerPeak(const ExrChannels& exr, const std::string& layer) {
    return std::max({largestOf(channel(exr, layer + ".R")), largestOf(channel(exr, layer + ".G")),
                     largestOf(channel(exr, layer + ".B"))});
}

ExrChannels renderFrame(const fs::path& dir, const std::string& scene,
                        const std::vector<std::string>& keys, const std::string& frame,
                        const std::string& name) {
    auto r = runPlume(
        "render " + scene + " --no-video --exr exr --frames " + frame + sets(keys) + " -q", dir);
    EXPECT_EQ(r.status, 0) << r.err;
    return readExrChannels((dir / "exr" / name).string());
}

// The fire: its emission, its light on the soot, the solid and the ground,
// a sun, the sky and the background, through either density lookup (the
// B-spline's keeps the fire's light apart, ShadingGrid::smoothSourceAt).
TEST(RenderPasses, FireLayersSumToTheBeauty) {
    for (const char* filter : {"linear", "cubic"}) {
        const fs::path dir = scratchDir(std::string("passes_fire_") + filter);
        std::vector<std::string> keys = kFire;
        keys.push_back(std::string("render.filter=") + filter);
        keys.push_back("light[1].name=moon");
        const ExrChannels exr = renderFrame(dir, kScenes + "fire.toml", keys, "8", "fire_0008.exr");
        EXPECT_EQ(colourLayers(exr),
                  (std::vector<std::string>{"emission", "fire_light", "moon", "sky"}));
        expectLayersSumToBeauty(exr, std::string("fire, ") + filter);
        for (const char* layer : {"emission", "fire_light", "moon", "sky"})
            EXPECT_GT(layerPeak(exr, layer), 1e-3f) << filter << ": layer " << layer << " is empty";
        EXPECT_TRUE(exr.half.at("emission.R"));
        EXPECT_FALSE(exr.half.at("depth.Z"));
    }
}

// Every channel of the file, the beauty's and each layer's, at least 0
// (the motion vectors aside: they point either way).
void expectNoNegative(const ExrChannels& exr, const std::string& what) {
    for (const auto& [name, values] : exr.channels) {
        if (name.starts_with("motion.")) continue;
        int bad = 0;
        for (size_t i = 0; i < values.size() && bad < 3; ++i)
            if (values[i] < 0.0f) {
                ++bad;
                ADD_FAILURE() << what << ": " << name << " of pixel " << i << " is " << values[i];
            }
    }
}

// A fire seen close, as the fireball's shot: its coarse voxels span several
// pixels, so most pixels are filled between traced ones (pixel_tracer.cpp),
// and its flame is cool enough (render.fire_temperature 1100 K) that
// Planck's colour lies outside Rec. 709 (negative blue below 1900 K). Every channel of the beauty
// and of every layer is in gamut (at least 0), and the layers sum to the beauty: a fill clamped at
// 0 in one layer and not in the beauty once made them differ by the negative blue the emission
// layer held.
TEST(RenderPasses, ACloseFireIsInGamutAndItsLayersSumToTheBeauty) {
    for (const char* filter : {"linear", "cubic"}) {
        const fs::path dir = scratchDir(std::string("passes_close_fire_") + filter);
        const std::vector<std::string> keys = {"domain.resolution=12", "render.width=192",
                                               "render.height=108", "render.passes=all",
                                               std::string("render.filter=") + filter};
        const ExrChannels exr = renderFrame(dir, kScenes + "fire.toml", keys, "8", "fire_0008.exr");
        ASSERT_FALSE(exr.channels.empty());
        expectNoNegative(exr, std::string("close fire, ") + filter);
        expectLayersSumToBeauty(exr, std::string("close fire, ") + filter);
        EXPECT_GT(layerPeak(exr, "emission"), 1e-3f) << filter << ": no flame";
    }
}

// Sparks over a close fire and its ground: where a spark's streak crosses a
// pixel filled between traced ones, the beauty holds the spark once and the
// other layers share only the rest of its light, so they still sum to it
// (the spark's light shared into them too summed to twice it there).
TEST(RenderPasses, SparksOverFilledPixelsSumToTheBeauty) {
    const fs::path dir = scratchDir("passes_sparks");
    const std::vector<std::string> keys = {
        "domain.resolution=12", "render.width=192",        "render.height=108",
        "render.passes=all",    "render.filter=cubic",     "sparks.rate=40000",
        "sparks.flame_threshold=0.2", "emitter[1].sparks=400"};
    const ExrChannels exr = renderFrame(dir, kScenes + "fire.toml", keys, "8", "fire_0008.exr");
    ASSERT_FALSE(exr.channels.empty());
    EXPECT_GT(layerPeak(exr, "sparks"), 0.1f) << "no spark in the frame";
    expectLayersSumToBeauty(exr, "sparks over a close fire");
}

// Two lights on glowing smoke over a solid; opaque (the background in the
// sky's layer) and transparent (no background).
TEST(RenderPasses, TwoLightsLayersSumToTheBeauty) {
    for (const char* transparent : {"false", "true"}) {
        const fs::path dir = scratchDir(std::string("passes_two_lights_") + transparent);
        std::vector<std::string> keys = kTwoLights;
        keys.push_back(std::string("render.transparent=") + transparent);
        const ExrChannels exr =
            renderFrame(dir, kScenes + "obstacle.toml", keys, "6", "obstacle_0006.exr");
        EXPECT_EQ(colourLayers(exr), (std::vector<std::string>{"emission", "fire_light", "light_1",
                                                               "light_2", "sky"}));
        expectLayersSumToBeauty(exr, std::string("two lights, transparent ") + transparent);
        for (const char* layer : {"emission", "light_1", "light_2", "sky"})
            EXPECT_GT(layerPeak(exr, layer), 1e-3f) << "layer " << layer << " is empty";
        // Nothing burns: no fire's light.
        EXPECT_EQ(layerPeak(exr, "fire_light"), 0.0f);
    }
}

// A solid thrown through smoke over the ground, blurred over the shutter:
// the solids' light at every moment is split as the still ones' is.
TEST(RenderPasses, BlurredSolidsLayersSumToTheBeauty) {
    const fs::path dir = scratchDir("passes_motion_blur");
    const ExrChannels exr =
        renderFrame(dir, std::string(PLUME_SOURCE_DIR) + "/scenes/ball_throw.toml",
                    {"domain.resolution=24", "render.width=96", "render.height=54",
                     "render.motion_blur=0.5", "render.passes=all"},
                    "24", "ball_throw_0024.exr");
    expectLayersSumToBeauty(exr, "motion blur");
    EXPECT_GT(layerPeak(exr, "light_1"), 1e-3f);
}

// Turning one light's intensity to 0 empties its layer, and leaves every
// other layer as it was, bit for bit: the lights' transmittance does not
// depend on their intensity.
TEST(RenderPasses, ALightAtZeroEmptiesExactlyItsLayer) {
    const fs::path dir = scratchDir("passes_light_off");
    const ExrChannels on =
        renderFrame(dir / "on", kScenes + "obstacle.toml", kTwoLights, "6", "obstacle_0006.exr");
    std::vector<std::string> keys = kTwoLights;
    keys.push_back("light[2].intensity=0");
    const ExrChannels off =
        renderFrame(dir / "off", kScenes + "obstacle.toml", keys, "6", "obstacle_0006.exr");
    EXPECT_GT(layerPeak(on, "light_2"), 1e-3f) << "the lamp lights nothing even when on";
    EXPECT_EQ(layerPeak(off, "light_2"), 0.0f) << "the lamp's layer is not empty when it is off";
    for (const std::string layer : {"emission", "light_1", "sky", "fire_light"})
        for (const char* c : {".R", ".G", ".B"})
            EXPECT_EQ(channel(on, layer + c), channel(off, layer + c))
                << layer << c << " changed when light 2 was turned off";
    EXPECT_EQ(channel(on, "depth.Z"), channel(off, "depth.Z"));
    // The beauty lost exactly the lamp's light.
    expectLayersSumToBeauty(off, "lamp off");
    EXPECT_NE(channel(on, "R"), channel(off, "R"));
}

// render-vdb, from a cache: the same layers as render draws.
TEST(RenderPasses, RenderVdbWritesTheLayers) {
    const fs::path dir = scratchDir("passes_render_vdb");
    auto r = runPlume("bake " + kScenes + "obstacle.toml --vdb cache --frames 1-4" +
                          sets({"domain.resolution=16"}) + " -q",
                      dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("render-vdb 'cache/obstacle_####.vdb' --scene " + kScenes +
                     "obstacle.toml --no-video --exr exr --frames 4" + sets(kTwoLights) +
                     sets({"light[1].name=sun"}) + " -q",
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const ExrChannels exr = readExrChannels((dir / "exr" / "obstacle_0004.exr").string());
    EXPECT_EQ(colourLayers(exr),
              (std::vector<std::string>{"emission", "fire_light", "light_2", "sky", "sun"}));
    expectLayersSumToBeauty(exr, "render-vdb");
    EXPECT_GT(layerPeak(exr, "sun"), 1e-3f);
}

// Only the passes asked for; and none (the plain RGBA) without render.passes.
TEST(RenderPasses, OnlyThePassesAskedFor) {
    const fs::path dir = scratchDir("passes_some");
    const ExrChannels some = renderFrame(dir / "some", kScenes + "obstacle.toml",
                                         {"domain.resolution=16", "render.width=64",
                                          "render.height=36", "render.passes=[\"sky\", \"depth\"]"},
                                         "3", "obstacle_0003.exr");
    std::vector<std::string> names;
    for (const auto& [name, values] : some.channels) names.push_back(name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"A", "B", "G", "R", "depth.Z", "sky.B", "sky.G", "sky.R"}));
    const ExrChannels none = renderFrame(
        dir / "none", kScenes + "obstacle.toml",
        {"domain.resolution=16", "render.width=64", "render.height=36"}, "3", "obstacle_0003.exr");
    EXPECT_EQ(none.channels.size(), 4u);
    // The beauty is the same with passes or without.
    for (const char* c : {"R", "G", "B", "A"}) EXPECT_EQ(channel(some, c), channel(none, c)) << c;
}

// Passes without EXR frames: said once, and the run goes on.
TEST(RenderPasses, WithoutExrTheyAreAWarning) {
    const fs::path dir = scratchDir("passes_no_exr");
    auto r = runPlume("render " + kScenes + "obstacle.toml --no-video --png png --frames 2" +
                          sets({"domain.resolution=16", "render.width=64", "render.height=36",
                                "render.passes=all", "time.frames=2"}),
                      dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("plume: warning: render.passes: they are layers of the EXR frames, and "
                         "this run writes none (add --exr DIR)"),
              std::string::npos)
        << r.err;
}

// oiiotool (OpenImageIO) reads every layer: a reader that shares nothing with
// plume's, as a compositor's pipeline would meet the frames.
TEST(RenderPasses, OiiotoolReadsEveryLayer) {
    if (std::system("command -v oiiotool >/dev/null 2>&1") != 0) {
        const std::string why = "oiiotool is not installed (openimageio-tools)";
        if (test::requireAll()) FAIL() << why << " (PLUME_REQUIRE_ALL=1: nothing may be skipped)";
        GTEST_SKIP() << why;
    }
    const fs::path dir = scratchDir("passes_oiiotool");
    std::vector<std::string> keys = kTwoLights;
    keys.push_back("light[2].name=lamp");
    const ExrChannels exr =
        renderFrame(dir, kScenes + "obstacle.toml", keys, "6", "obstacle_0006.exr");
    const std::string file = (dir / "exr" / "obstacle_0006.exr").string();
    const std::string info = test::capture("oiiotool --info -v '" + file + "' 2>&1");
    EXPECT_NE(info.find("22 channel"), std::string::npos) << info;
    for (const char* name : {"R (half)",
                             "G (half)",
                             "B (half)",
                             "A (half)",
                             "depth.Z (float)",
                             "motion.u (float)",
                             "motion.v (float)",
                             "emission.R (half)",
                             "emission.G (half)",
                             "emission.B (half)",
                             "light_1.R (half)",
                             "light_1.G (half)",
                             "light_1.B (half)",
                             "lamp.R (half)",
                             "lamp.G (half)",
                             "lamp.B (half)",
                             "sky.R (half)",
                             "sky.G (half)",
                             "sky.B (half)",
                             "fire_light.R (half)",
                             "fire_light.G (half)",
                             "fire_light.B (half)"})
        EXPECT_NE(info.find(name), std::string::npos) << "oiiotool lists no " << name << ":\n"
                                                      << info;
    // Each layer's pixels as oiiotool reads them (its own channel lookup by
    // name): the stats of the lamp's layer match what OpenEXR reads.
    const std::string stats =
        test::capture("oiiotool '" + file + "' --ch lamp.R,lamp.G,lamp.B --printstats 2>&1");
    float maxR = -1, maxG = -1, maxB = -1;
    std::istringstream lines(stats);
    for (std::string line; std::getline(lines, line);)
        if (const size_t at = line.find("Stats Max: "); at != std::string::npos)
            std::istringstream(line.substr(at + 11)) >> maxR >> maxG >> maxB;
    EXPECT_NEAR(maxR, largestOf(channel(exr, "lamp.R")), 1e-3f) << stats;
    EXPECT_NEAR(maxG, largestOf(channel(exr, "lamp.G")), 1e-3f) << stats;
    EXPECT_NEAR(maxB, largestOf(channel(exr, "lamp.B")), 1e-3f) << stats;
    EXPECT_GT(maxR, 1e-3f) << stats;
}

// A bad render.passes value, or a light name no layer can take: one line at
// the key's place, exit status 2.
TEST(RenderPasses, BadValuesAreOneLineAtTheirKey) {
    const fs::path dir = scratchDir("passes_bad");
    std::ifstream in(kScenes + "rising.toml");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const int renderLine = countLines(text.substr(0, text.find("[render]"))) + 1;

    std::ofstream(dir / "bad.toml") << text << "passes = [\"sky\", \"smoke\"]\n";
    auto r = runPlume("check bad.toml", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    const int passesLine = countLines(text) + 1;
    EXPECT_NE(
        r.err.find("bad.toml:" + std::to_string(passesLine) +
                   ":18: error: 'render.passes' "
                   "must be one of \"all\", \"emission\", \"lights\", \"sky\", "
                   "\"fire_light\", \"depth\", \"sparks\", \"motion\" or an array of them, got "
                   "\"smoke\""),
        std::string::npos)
        << r.err;
    EXPECT_GT(passesLine, renderLine);

    std::ofstream(dir / "number.toml") << text << "passes = 3\n";
    r = runPlume("check number.toml", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("number.toml:" + std::to_string(passesLine) +
                         ":10: error: 'render.passes' must be one of"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("got an integer"), std::string::npos) << r.err;

    r = runPlume("check " + kScenes + "rising.toml --set render.passes=everything", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("got \"everything\""), std::string::npos) << r.err;

    // Light names: a layer name, and none twice.
    std::ofstream(dir / "lights.toml")
        << text << "[[light]]\nname = \"key light\"\n[[light]]\nname = \"sky\"\n";
    r = runPlume("check lights.toml", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("lights.toml:" + std::to_string(countLines(text) + 2) +
                         ":8: error: 'light[1].name' = \"key light\": a layer name must be "
                         "letters, digits and _, not starting with a digit"),
              std::string::npos)
        << r.err;
    r = runPlume("check " + kScenes + "obstacle.toml --set light[2].name=sky", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("'light[2].name' = \"sky\": that is the name of the sky pass's layer"),
              std::string::npos)
        << r.err;
    r = runPlume("check " + kScenes + "obstacle.toml --set light[2].name=light_1", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("'light[2].name' = \"light_1\": light 1's layer is named so too"),
              std::string::npos)
        << r.err;

    // A slice view has no passes.
    r = runPlume(
        "check " + kScenes + "rising.toml --set render.passes=all --set render.view=density", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("'render.passes' are layers of the shaded frame"), std::string::npos)
        << r.err;
}

// `plume check --reference` lists the keys.
TEST(RenderPasses, TheReferenceListsTheKeys) {
    const fs::path dir = scratchDir("passes_reference");
    const auto r = runPlume("check --reference", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("| `render.passes` | array of strings | `[]` | each of `\"all\"`, "
                         "`\"emission\"`, `\"lights\"`, `\"sky\"`, `\"fire_light\"`, `\"depth\"`, "
                         "`\"sparks\"`, `\"motion\"` |"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("| `light.name` | string | `\"\"` |"), std::string::npos) << r.out;
}

// Depth, in this process: a slab of uniform smoke in front of the camera
// halves the transmittance ln 2 / sigma into it; a solid behind thin smoke is
// at its own distance; where nothing is, kNoDepth.
constexpr int kN = 32;
constexpr float kDx = 1.0f / kN;

Scene depthScene() {
    Scene s;
    s.domain.size = {1, 1, 1};
    s.domain.resolution = kN;
    s.render.width = 48;
    s.render.height = 48;
    s.render.filter = RenderFilter::Linear;
    s.render.step = 0.25f;
    s.render.passes = {"depth", "sky"};
    s.camera.position = {0.5f, -2.5f, 0.5f};
    s.camera.lookAt = {0.5f, 0.5f, 0.5f};
    s.camera.fov = 30.0f;
    s.camera.given = true;
    LightSettings sun;
    sun.direction = {0.0f, 0.0f, -1.0f};
    s.lights = {sun};
    return s;
}

// Density rho in x, z within [0.25, 0.75] m and y within [y0, y1] m.
ScalarGrid slab(float y0, float y1, float rho) {
    ScalarGrid g(kN, kN, kN);
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) {
                const Vec3f p = Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * kDx;
                if (p.x > 0.25f && p.x < 0.75f && p.z > 0.25f && p.z < 0.75f && p.y > y0 &&
                    p.y < y1)
                    g(i, j, k) = rho;
            }
    return g;
}

TEST(RenderPasses, DepthIsWhereTheTransmittanceHalves) {
    Scene scene = depthScene();
    ScalarGrid density = slab(0.25f, 0.75f, 0.5f);
    VolumeView volume;
    volume.density = &density;
    volume.dx = kDx;
    Renderer renderer(scene);
    renderer.enablePasses();
    renderer.trace(volume, 1);
    const RenderPasses* passes = renderer.passes();
    ASSERT_NE(passes, nullptr);
    ASSERT_EQ(passes->depth.size(), size_t(48 * 48));
    // The centre pixel looks straight down +y: the smoke's face (the first
    // cell centre past 0.25 m, trilinear from there) at 2.75 m, then
    // ln 2 / (extinction rho) metres into it.
    const float sigma = scene.render.extinction * 0.5f;  // 1/m
    const float expected = 2.5f + 0.25f + std::log(2.0f) / sigma;
    const float centre = passes->depth[24 * 48 + 24];
    EXPECT_NEAR(centre, expected, 0.25f * kDx) << "expected " << expected;
    // A corner sees no smoke.
    EXPECT_EQ(passes->depth[0], kNoDepth);

    // Thin smoke never halves: kNoDepth; with a solid behind it, the solid.
    ScalarGrid thin = slab(0.25f, 0.75f, 0.005f);
    volume.density = &thin;
    renderer.trace(volume, 1);
    EXPECT_EQ(renderer.passes()->depth[24 * 48 + 24], kNoDepth);
    ObstacleSettings wall;
    wall.shape = Shape::Box;
    wall.center = {0.5f, 0.9f, 0.5f};
    wall.size = {0.8f, 0.1f, 0.8f};
    scene.obstacles = {wall};
    Renderer withWall(scene);
    withWall.enablePasses();
    withWall.trace(volume, 1);
    EXPECT_NEAR(withWall.passes()->depth[24 * 48 + 24], 2.5f + 0.85f, 1e-3f);
}

// The beauty is the same bits with passes or without, and the layers sum to it.
TEST(RenderPasses, TheBeautyIsUntouched) {
    Scene scene = depthScene();
    scene.render.passes = {"all"};
    ScalarGrid density = slab(0.3f, 0.6f, 2.0f);
    VolumeView volume;
    volume.density = &density;
    volume.dx = kDx;
    Renderer plain(scene), passes(scene);
    passes.enablePasses();
    const LinearImage a = plain.trace(volume, 3);
    const LinearImage b = passes.trace(volume, 3);
    EXPECT_EQ(a.rgb, b.rgb);
    EXPECT_EQ(a.transmittance, b.transmittance);
    EXPECT_EQ(plain.passes(), nullptr);
    ASSERT_NE(passes.passes(), nullptr);
    const std::vector<float> over = passes.composite();
    float largestError = 0, largest = 0;
    for (size_t n = 0; n < over.size(); ++n) {
        float sum = 0;
        for (const PassLayer& layer : passes.passes()->layers) sum += layer.rgb[n];
        largestError = std::max(largestError, std::fabs(sum - over[n]));
        largest = std::max(largest, over[n]);
    }
    EXPECT_GT(largest, 0.05f);
    EXPECT_LT(largestError, 1e-5f * std::max(1.0f, largest));
}

}  // namespace
}  // namespace plume
