// --deep and render.passes "motion" (render/output/deep_image.h,
// render/output/segment_passes.cpp): the real plume binary's deep EXR,
// flattened by oiiotool, is its flat EXR; its sample counts, read with
// OpenEXR's own deep API, are several where the smoke is and one on a solid;
// the motion layer of smoke moving at a known speed reads that speed in
// pixels a frame; bad values are one line and exit 2, and no output is left
// half-written.
#include <ImfChannelList.h>
#include <ImfDeepFrameBuffer.h>
#include <ImfDeepScanLineInputFile.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/vdb_cache.h"
#include "sim/fields.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::capture;
using test::runPlume;
using test::scratchDir;

const std::string kScenes = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/";

std::string sets(const std::vector<std::string>& keys) {
    std::string args;
    for (const std::string& key : keys) args += " --set '" + key + "'";
    return args;
}

// A flat EXR's channels by name, read with OpenEXR (not plume's reader).
struct Flat {
    int width = 0, height = 0;
    std::map<std::string, std::vector<float>> channels;
};
Flat readFlat(const std::string& path) {
    Imf::InputFile file(path.c_str());
    const Imath::Box2i w = file.header().dataWindow();
    Flat out;
    out.width = w.max.x - w.min.x + 1;
    out.height = w.max.y - w.min.y + 1;
    Imf::FrameBuffer buffer;
    for (auto c = file.header().channels().begin(); c != file.header().channels().end(); ++c) {
        std::vector<float>& v = out.channels[c.name()];
        v.assign(size_t(out.width) * out.height, 0.0f);
        char* base = reinterpret_cast<char*>(v.data()) -
                     (size_t(w.min.y) * out.width + w.min.x) * sizeof(float);
        buffer.insert(c.name(), Imf::Slice(Imf::FLOAT, base, sizeof(float),
                                           sizeof(float) * size_t(out.width)));
    }
    file.setFrameBuffer(buffer);
    file.readPixels(w.min.y, w.max.y);
    return out;
}

// A deep EXR's samples, read with OpenEXR's deep API.
struct Deep {
    int width = 0, height = 0;
    std::vector<unsigned> counts;
    std::vector<std::vector<float>> a, z, zBack;  // per pixel
    std::vector<std::string> channels;
};
Deep readDeep(const std::string& path) {
    Imf::DeepScanLineInputFile file(path.c_str());
    const Imath::Box2i w = file.header().dataWindow();
    Deep d;
    d.width = w.max.x - w.min.x + 1;
    d.height = w.max.y - w.min.y + 1;
    for (auto c = file.header().channels().begin(); c != file.header().channels().end(); ++c)
        d.channels.push_back(c.name());
    const size_t n = size_t(d.width) * d.height;
    d.counts.assign(n, 0);
    Imf::DeepFrameBuffer buffer;
    buffer.insertSampleCountSlice(Imf::Slice(Imf::UINT, reinterpret_cast<char*>(d.counts.data()),
                                             sizeof(unsigned), sizeof(unsigned) * d.width));
    std::vector<std::vector<float>>* lists[3] = {&d.a, &d.z, &d.zBack};
    const char* names[3] = {"A", "Z", "ZBack"};
    std::vector<std::vector<float*>> pointers(3, std::vector<float*>(n));
    for (int c = 0; c < 3; ++c)
        buffer.insert(names[c],
                      Imf::DeepSlice(Imf::FLOAT, reinterpret_cast<char*>(pointers[c].data()),
                                     sizeof(float*), sizeof(float*) * d.width, sizeof(float)));
    file.setFrameBuffer(buffer);
    file.readPixelSampleCounts(w.min.y, w.max.y);
    for (int c = 0; c < 3; ++c) {
        lists[c]->assign(n, {});
        for (size_t i = 0; i < n; ++i) {
            (*lists[c])[i].resize(d.counts[i]);
            pointers[c][i] = (*lists[c])[i].data();
        }
    }
    file.readPixels(w.min.y, w.max.y);
    return d;
}

bool haveOiiotool() { return !capture("command -v oiiotool").empty(); }

// The obstacle scene, small: smoke rising round a box, two lights, the
// ground as a solid.
const std::vector<std::string> kObstacle = {"domain.resolution=16", "render.width=64",
                                            "render.height=48"};

// Renders frame 6 of the obstacle scene to exr/ and deep/; returns the dir.
fs::path renderDeep(const std::string& name, const std::vector<std::string>& more) {
    const fs::path dir = scratchDir(name);
    const auto r =
        runPlume("render " + kScenes + "obstacle.toml --no-video --exr exr --deep deep --frames 6" +
                     sets(kObstacle) + sets(more) + " -q",
                 dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(test::listDir(dir / "deep"), std::vector<std::string>{"obstacle_0006.exr"});
    return dir;
}

// oiiotool --flatten (front-to-back over) of the deep frame is the beauty.
void expectFlattensToTheBeauty(const fs::path& dir, const std::string& what) {
    const std::string out =
        capture("oiiotool '" + (dir / "deep/obstacle_0006.exr").string() +
                "' --flatten -d float -o '" + (dir / "flat.exr").string() + "' 2>&1");
    ASSERT_TRUE(fs::exists(dir / "flat.exr")) << out;
    const Flat flat = readFlat((dir / "flat.exr").string());
    const Flat beauty = readFlat((dir / "exr/obstacle_0006.exr").string());
    ASSERT_EQ(flat.width, beauty.width);
    ASSERT_EQ(flat.height, beauty.height);
    double worst = 0, peak = 0;
    for (const char* c : {"R", "G", "B", "A"}) {
        const std::vector<float>& f = flat.channels.at(c);
        const std::vector<float>& b = beauty.channels.at(c);
        for (size_t i = 0; i < b.size(); ++i) {
            worst = std::max(worst, double(std::fabs(f[i] - b[i])));
            peak = std::max(peak, double(b[i]));
        }
    }
    EXPECT_LE(worst, 2e-3) << what;
    EXPECT_GT(peak, 0.05) << what << ": a black frame proves nothing";
}

TEST(DeepExr, FlattensToTheBeautyWithSeveralSamplesInSmokeAndOneOnASolid) {
    if (!haveOiiotool()) {
        if (test::requireAll()) FAIL() << "oiiotool is missing";
        GTEST_SKIP() << "no oiiotool";
    }
    for (const char* filter : {"linear", "cubic"}) {
        const std::string what = std::string("transparent, ") + filter;
        const fs::path dir =
            renderDeep(std::string("deep_transparent_") + filter,
                       {"render.transparent=true", std::string("render.filter=") + filter});
        expectFlattensToTheBeauty(dir, what);
        const Deep deep = readDeep((dir / "deep/obstacle_0006.exr").string());
        EXPECT_EQ(deep.channels, (std::vector<std::string>{"A", "B", "G", "R", "Z", "ZBack"}));
        int smoky = 0, several = 0, hard = 0, bounded = 0;
        for (size_t i = 0; i < deep.counts.size(); ++i) {
            const unsigned n = deep.counts[i];
            bounded += n <= 16 ? 1 : 0;
            if (n == 0) continue;
            // Front to back, none overlapping.
            for (unsigned s = 0; s < n; ++s) {
                ASSERT_LE(deep.z[i][s], deep.zBack[i][s]) << what;
                if (s > 0) ASSERT_LE(deep.zBack[i][s - 1], deep.z[i][s]) << what;
            }
            double t = 1;
            for (unsigned s = 0; s < n; ++s) t *= 1.0 - deep.a[i][s];
            const bool solid = deep.z[i][n - 1] == deep.zBack[i][n - 1] && deep.a[i][n - 1] == 1.0f;
            if (!solid && 1.0 - t > 0.3) {
                ++smoky;
                several += n >= 3 ? 1 : 0;
            }
            // A solid seen through no smoke: one hard sample.
            if (solid && n == 1) ++hard;
        }
        EXPECT_EQ(bounded, int(deep.counts.size())) << what << ": at most 16 samples a pixel";
        EXPECT_GT(smoky, 50) << what;
        // 7 in 8: the obstacle scene's 10 cm emitter at 7.5 cm cells (its
        // ramp half its thickness since issue 57) leaves 115 of 129 here.
        EXPECT_GE(several, smoky * 7 / 8) << what << ": smoky pixels hold several samples";
        EXPECT_GT(hard, 20) << what << ": the ground and the box are one sample each";
    }
}

// The default scene where its smoke stands in front of the ground's horizon:
// a pixel there only partly covers the ground, and the smoke in front of the
// ground's hard sample can hide more than the pixel does; the smoke's
// samples then give way too, and the deep frame still flattens to the beauty
// (its alpha was 1.1e-2 off along the horizon).
TEST(DeepExr, FlattensToTheBeautyAlongTheGroundsHorizon) {
    if (!haveOiiotool()) {
        if (test::requireAll()) FAIL() << "oiiotool is missing";
        GTEST_SKIP() << "no oiiotool";
    }
    const fs::path dir = test::scratchDir("deep_horizon");
    auto r = runPlume("render " + std::string(PLUME_SOURCE_DIR) +
                          "/scenes/plume.toml --no-video --exr exr --deep deep --frames 40 --set "
                          "render.width=640 --set render.height=360 --set render.transparent=true -q",
                      dir);
    ASSERT_EQ(r.status, 0) << r.err;
    capture("oiiotool '" + (dir / "deep/plume_0040.exr").string() + "' --flatten -d float -o '" +
            (dir / "flat.exr").string() + "' 2>&1");
    const Flat flat = readFlat((dir / "flat.exr").string());
    const Flat beauty = readFlat((dir / "exr/plume_0040.exr").string());
    ASSERT_EQ(flat.width, beauty.width);
    double worst = 0;
    for (const char* c : {"R", "G", "B", "A"})
        for (size_t i = 0; i < beauty.channels.at(c).size(); ++i)
            worst = std::max(worst, double(std::fabs(flat.channels.at(c)[i] -
                                                     beauty.channels.at(c)[i])));
    EXPECT_LE(worst, 5e-4) << "the beauty is half floats: 2.4e-4 is its rounding near 1";
}

// Over the background (render.transparent off), the background is the last
// sample, and the deep frame still flattens to the opaque beauty.
TEST(DeepExr, FlattensToTheOpaqueBeauty) {
    if (!haveOiiotool()) {
        if (test::requireAll()) FAIL() << "oiiotool is missing";
        GTEST_SKIP() << "no oiiotool";
    }
    const fs::path dir = renderDeep("deep_opaque", {});
    expectFlattensToTheBeauty(dir, "opaque");
}

// render-vdb writes it too, and a bad --deep is one line, exit 2, no file.
TEST(DeepExr, RenderVdbWritesItAndBadUsesAreOneLine) {
    const fs::path dir = scratchDir("deep_render_vdb");
    Fields f({16, 16, 16}, 1.0f / 16);
    for (int k = 4; k < 12; ++k)
        for (int j = 4; j < 12; ++j)
            for (int i = 4; i < 12; ++i) f.density(i, j, k) = 1.0f;
    fs::create_directories(dir / "cache");
    writeVdbFrame((dir / "cache/cube_0001.vdb").string(), f, 1, "cube", CacheOptions{});
    auto r = runPlume("render-vdb cache/cube_0001.vdb --no-video --deep deep -q" +
                          sets({"render.width=32", "render.height=24"}),
                      dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const Deep deep = readDeep((dir / "deep/cube_0001.exr").string());
    unsigned most = 0;
    for (unsigned n : deep.counts) most = std::max(most, n);
    EXPECT_GE(most, 3u);

    // The same folder as --exr: the frames would replace each other.
    r = runPlume("render-vdb cache/cube_0001.vdb --no-video --exr same --deep same -q", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("--deep: error:"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "same"));
    // A slice view has no depth.
    r = runPlume(
        "render-vdb cache/cube_0001.vdb --no-video --deep slice -q --set render.view=density", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir / "slice"));
    // Nothing but whole frames in the folders written.
    for (const std::string& name : test::listDir(dir / "deep")) EXPECT_EQ(name, "cube_0001.exr");
}

// A scene of its own for render-vdb: a camera looking along +y at the
// cache's cube, one sun.
const char* kMotionScene = R"([time]
fps = 24

[camera]
position = [0.5, -2.0, 0.5]
look_at = [0.5, 0.5, 0.5]
fov = 35

[[light]]
type = "directional"
direction = [-0.3, 0.5, -0.6]
intensity = 3.0

[render]
width = 96
height = 64
passes = ["motion"]
transparent = true
)";

// Smoke moving at 3 m/s along x (a solver-free cache whose velocity grid is
// uniform) reads, in pixels a frame, what the pinhole camera makes of
// 3 m/s / 24 fps at the smoke's distance: u within 10%, v near 0; the
// background 0.
TEST(MotionPass, SmokeAtAKnownSpeedReadsItInPixelsAFrame) {
    const fs::path dir = scratchDir("motion_known_speed");
    constexpr int kN = 32;
    Fields f({kN, kN, kN}, 1.0f / kN);
    for (int k = 12; k < 20; ++k)
        for (int j = 12; j < 20; ++j)
            for (int i = 12; i < 20; ++i) f.density(i, j, k) = 1.0f;
    f.u.fill(3.0f);
    f.w.fill(-1.5f);  // and down at 1.5 m/s: v is negative (Nuke's y is up)
    fs::create_directories(dir / "cache");
    writeVdbFrame((dir / "cache/cube_0001.vdb").string(), f, 1, "cube", CacheOptions{});
    std::ofstream(dir / "motion.toml") << kMotionScene;
    auto r =
        runPlume("render-vdb cache/cube_0001.vdb --scene motion.toml --no-video --exr exr -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const Flat exr = readFlat((dir / "exr/cube_0001.exr").string());
    ASSERT_TRUE(exr.channels.count("motion.u")) << "no motion layer";
    const std::vector<float>& u = exr.channels.at("motion.u");
    const std::vector<float>& v = exr.channels.at("motion.v");
    const std::vector<float>& a = exr.channels.at("A");
    // The pinhole's pixels per metre at the cube's centre, 2.5 m away.
    const double pixelsPerMetre = 64.0 / (2.0 * std::tan(17.5 * M_PI / 180.0) * 2.5);
    const double expectU = 3.0 / 24.0 * pixelsPerMetre, expectV = -1.5 / 24.0 * pixelsPerMetre;
    int smoky = 0, background = 0;
    for (size_t i = 0; i < u.size(); ++i) {
        if (a[i] > 0.2f) {
            ++smoky;
            EXPECT_NEAR(u[i], expectU, 0.1 * expectU) << "pixel " << i;
            EXPECT_NEAR(v[i], expectV, 0.1 * std::fabs(expectV)) << "pixel " << i;
        } else if (a[i] == 0.0f) {
            ++background;
            EXPECT_EQ(u[i], 0.0f);
            EXPECT_EQ(v[i], 0.0f);
        }
    }
    EXPECT_GT(smoky, 50);
    EXPECT_GT(background, 1000);
}

// A keyed camera sliding 0.1 m a frame along x past still smoke: the smoke
// moves the other way on screen, by what the camera makes of 0.1 m at the
// smoke's distance; the background still reads 0.
TEST(MotionPass, AMovingCameraAddsItsOwnMotion) {
    const fs::path dir = scratchDir("motion_camera");
    constexpr int kN = 32;
    Fields f({kN, kN, kN}, 1.0f / kN);
    for (int k = 12; k < 20; ++k)
        for (int j = 12; j < 20; ++j)
            for (int i = 12; i < 20; ++i) f.density(i, j, k) = 1.0f;
    fs::create_directories(dir / "cache");
    writeVdbFrame((dir / "cache/cube_0002.vdb").string(), f, 2, "cube", CacheOptions{});
    std::string scene = kMotionScene;
    scene.replace(scene.find("fov = 35\n"), 9,
                  "fov = 35\ninterpolation = \"linear\"\n"
                  "[[camera.key]]\nframe = 1\nposition = [0.4, -2.0, 0.5]\n"
                  "look_at = [0.4, 0.5, 0.5]\n"
                  "[[camera.key]]\nframe = 3\nposition = [0.6, -2.0, 0.5]\n"
                  "look_at = [0.6, 0.5, 0.5]\n");
    std::ofstream(dir / "camera.toml") << scene;
    auto r =
        runPlume("render-vdb cache/cube_0002.vdb --scene camera.toml --no-video --exr exr -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const Flat exr = readFlat((dir / "exr/cube_0002.exr").string());
    const std::vector<float>& u = exr.channels.at("motion.u");
    const std::vector<float>& v = exr.channels.at("motion.v");
    const std::vector<float>& a = exr.channels.at("A");
    const double pixelsPerMetre = 64.0 / (2.0 * std::tan(17.5 * M_PI / 180.0) * 2.5);
    const double expectU = -0.1 * pixelsPerMetre;
    int smoky = 0;
    for (size_t i = 0; i < u.size(); ++i) {
        if (a[i] > 0.2f) {
            ++smoky;
            EXPECT_NEAR(u[i], expectU, 0.1 * std::fabs(expectU)) << "pixel " << i;
            EXPECT_NEAR(v[i], 0.0, 0.05 * std::fabs(expectU)) << "pixel " << i;
        } else if (a[i] == 0.0f) {
            EXPECT_EQ(u[i], 0.0f);
        }
    }
    EXPECT_GT(smoky, 50);
}

// A bad pass name is one line at its place in the scene file, exit 2.
TEST(MotionPass, ABadPassIsOneLineAtItsKey) {
    const fs::path dir = scratchDir("motion_bad");
    std::string scene = kMotionScene;
    scene.replace(scene.find("[\"motion\"]"), 10, "[\"motoin\"]");
    std::ofstream(dir / "bad.toml") << scene;
    const auto r = runPlume("check bad.toml", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("bad.toml:17:"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// In slow motion (physics.time_scale 0.25) a frame holds a quarter of a
// simulated second's 1/24: smoke at 3 m/s of simulated time moves a quarter
// as far on screen, and its vectors are a quarter of those at 1 (within 1%,
// the same pixels), 0.25 * 3 m/s / 24 fps at the smoke's distance (10%).
TEST(MotionPass, InSlowMotionTheVectorsAreTheShotsMotion) {
    const fs::path dir = scratchDir("motion_slow");
    constexpr int kN = 32;
    Fields f({kN, kN, kN}, 1.0f / kN);
    for (int k = 12; k < 20; ++k)
        for (int j = 12; j < 20; ++j)
            for (int i = 12; i < 20; ++i) f.density(i, j, k) = 1.0f;
    f.u.fill(3.0f);
    fs::create_directories(dir / "cache");
    writeVdbFrame((dir / "cache/cube_0001.vdb").string(), f, 1, "cube", CacheOptions{});
    auto render = [&](const std::string& name, const std::string& physics) {
        std::ofstream(dir / (name + ".toml")) << kMotionScene << physics;
        const auto r = runPlume("render-vdb cache/cube_0001.vdb --scene " + name +
                                    ".toml --no-video --exr " + name + " -q",
                                dir);
        EXPECT_EQ(r.status, 0) << r.err;
        return readFlat((dir / name / "cube_0001.exr").string());
    };
    const Flat normal = render("normal", ""),
               slow = render("slow", "[physics]\ntime_scale = 0.25\n");
    ASSERT_TRUE(slow.channels.count("motion.u")) << "no motion layer";
    const std::vector<float>&u1 = normal.channels.at("motion.u"), &u = slow.channels.at("motion.u");
    const std::vector<float>& a = slow.channels.at("A");
    const double pixelsPerMetre = 64.0 / (2.0 * std::tan(17.5 * M_PI / 180.0) * 2.5);
    const double expectU = 0.25 * 3.0 / 24.0 * pixelsPerMetre;
    int smoky = 0;
    for (size_t i = 0; i < u.size(); ++i) {
        if (a[i] <= 0.2f) continue;
        ++smoky;
        EXPECT_NEAR(u[i], 0.25 * u1[i], 0.01 * 0.25 * std::fabs(u1[i])) << "pixel " << i;
        EXPECT_NEAR(u[i], expectU, 0.1 * expectU) << "pixel " << i;
    }
    EXPECT_GT(smoky, 50);
}

}  // namespace
}  // namespace plume
