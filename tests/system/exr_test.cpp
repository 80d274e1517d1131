// EXR frames (--exr, io/exr_file.h) and render.transparent: the files the real
// plume binary writes, read back with OpenEXR (and oiiotool, a reader that is
// not plume's), against the renderer's own RGBA for the same frames.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/exr_file.h"

#define STB_IMAGE_STATIC  // render_test.cpp and golden_test.cpp have their own copies
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include "core/error.h"
#include "render/output/tone_map.h"
#include "render/renderer.h"
#include "scene/loader.h"
#include "sim/solver.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::slurp;
using test::listDir;
using test::runPlume;
using test::scratchDir;

const std::string kScene = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/rising.toml";
constexpr int kWidth = 64, kHeight = 36, kFrames = 3;
// A tiny run; one background colour (each value exact in half) so a corner
// can be compared with it.
const std::vector<std::string> kSmall = {"domain.resolution=16", "render.width=64",
                                         "render.height=36", "time.frames=3",
                                         "render.background=[0.25, 0.5, 0.75]"};

// plume arguments for the tiny run, plus `extra` overrides.
std::string smallRun(const std::vector<std::string>& extra = {}) {
    std::string args;
    for (const std::string& set : kSmall) args += " --set '" + set + "'";
    for (const std::string& set : extra) args += " --set '" + set + "'";
    return args + " -q";
}

// Renderer::rgba for every frame of the tiny run, simulated and traced in this
// process as `plume render` does it (the frame number seeds the jitter).
std::vector<std::vector<float>> referenceRgba(bool transparent) {
    std::vector<std::string> overrides = kSmall;
    overrides.push_back(std::string("render.transparent=") + (transparent ? "true" : "false"));
    const Scene scene = loadScene(kScene, overrides);
    Solver solver(scene);
    Renderer renderer(scene);
    std::vector<std::vector<float>> frames;
    for (int frame = 1; frame <= kFrames; ++frame) {
        solver.advanceFrame(frame);
        renderer.trace(solver.fields().view(), frame);
        frames.push_back(renderer.rgba());
    }
    return frames;
}

// Equal within half precision (11 significant bits; tiny values absolutely).
void expectNearHalf(const std::vector<float>& actual, const std::vector<float>& expected,
                    const std::string& what) {
    ASSERT_EQ(actual.size(), expected.size()) << what;
    int bad = 0;
    for (size_t n = 0; n < actual.size() && bad < 5; ++n) {
        const float tolerance = std::fabs(expected[n]) * (1.0f / 1024.0f) + 1e-6f;
        if (std::fabs(actual[n] - expected[n]) > tolerance) {
            ++bad;
            ADD_FAILURE() << what << ": value " << n << " (pixel " << n / 4 << ", channel " << n % 4
                          << ") is " << actual[n] << ", the renderer's " << expected[n];
        }
    }
}

const float* pixelAt(const ExrImage& image, int x, int y) {
    return &image.rgba[(size_t(y) * image.width + x) * 4];
}

// The pixel with the most smoke (largest alpha, or least background when opaque).
size_t smokiestPixel(const std::vector<float>& transparentRgba) {
    size_t best = 0;
    for (size_t i = 0; i < transparentRgba.size() / 4; ++i)
        if (transparentRgba[i * 4 + 3] > transparentRgba[best * 4 + 3]) best = i;
    return best;
}

TEST(ExrFile, WritesAndReadsHalfRgba) {
    fs::path dir = scratchDir("exr_file");
    // Values exact in half, so they read back unchanged.
    std::vector<float> rgba(5 * 3 * 4);
    for (size_t n = 0; n < rgba.size(); ++n) rgba[n] = float(n % 7) * 0.25f;
    const std::string path = (dir / "frame.exr").string();
    writeExr(path, 5, 3, rgba, 42, 24.0);
    EXPECT_EQ(listDir(dir), std::vector<std::string>{"frame.exr"});  // no temporary left
    const ExrImage read = readExr(path);
    EXPECT_EQ(read.width, 5);
    EXPECT_EQ(read.height, 3);
    EXPECT_EQ(read.channels, (std::vector<std::string>{"A", "B", "G", "R"}));  // sorted by name
    EXPECT_TRUE(read.half);
    EXPECT_EQ(read.software, "plume " PLUME_VERSION);
    EXPECT_EQ(read.frame, 42);
    EXPECT_EQ(read.rgba, rgba);
}

TEST(ExrFile, FailureNamesThePathAndLeavesNothing) {
    fs::path dir = scratchDir("exr_file_fail");
    const std::string path = (dir / "missing" / "frame.exr").string();
    try {
        writeExr(path, 2, 2, std::vector<float>(16, 0.5f), 1, 24.0);
        FAIL() << "expected RunError";
    } catch (const RunError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("cannot write '" + path + "'", 0), 0u) << e.what();
    }
    EXPECT_TRUE(listDir(dir).empty());
    EXPECT_THROW(readExr(path), RunError);
}

// The EXR frames of `plume render`: half RGBA of the frame's size, the
// renderer's own premultiplied RGBA, and (opaque) alpha 1 over the background.
TEST(Exr, RenderWritesTheRenderersRgba) {
    fs::path dir = scratchDir("exr_render");
    auto r = runPlume("render " + kScene + " -o out.mp4 --exr exr" + smallRun(), dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(listDir(dir / "exr"),
              (std::vector<std::string>{"rising_0001.exr", "rising_0002.exr", "rising_0003.exr"}));
    const std::vector<std::vector<float>> reference = referenceRgba(false);
    for (int frame = 1; frame <= kFrames; ++frame) {
        const std::string name = "rising_000" + std::to_string(frame) + ".exr";
        const ExrImage exr = readExr((dir / "exr" / name).string());
        ASSERT_EQ(exr.width, kWidth);
        ASSERT_EQ(exr.height, kHeight);
        EXPECT_EQ(exr.channels, (std::vector<std::string>{"A", "B", "G", "R"}));
        EXPECT_TRUE(exr.half) << name;
        EXPECT_EQ(exr.frame, frame);
        expectNearHalf(exr.rgba, reference[frame - 1], name);
        for (size_t i = 0; i < exr.rgba.size() / 4; ++i)
            ASSERT_EQ(exr.rgba[i * 4 + 3], 1.0f) << name << " pixel " << i << " is not opaque";
        const float* corner = pixelAt(exr, 0, 0);
        EXPECT_EQ(corner[0], 0.25f);
        EXPECT_EQ(corner[1], 0.5f);
        EXPECT_EQ(corner[2], 0.75f);
    }
    // Smoke is in the picture: some pixel is not the background.
    const ExrImage last = readExr((dir / "exr" / "rising_0003.exr").string());
    float largest = 0;
    for (size_t i = 0; i < last.rgba.size() / 4; ++i)
        largest = std::max(largest, std::fabs(last.rgba[i * 4 + 2] - 0.75f));
    EXPECT_GT(largest, 0.05f) << "no smoke in the frame";
}

// render.transparent: only what is in front of the background, premultiplied,
// so that compositing it over the background gives the opaque frame back.
TEST(Exr, TransparentHasAlphaZeroBackgroundAndPremultipliedSmoke) {
    fs::path dir = scratchDir("exr_transparent");
    auto r = runPlume(
        "render " + kScene + " -o out.mp4 --exr exr" + smallRun({"render.transparent=true"}), dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<std::vector<float>> transparent = referenceRgba(true),
                                          opaque = referenceRgba(false);
    const ExrImage exr = readExr((dir / "exr" / "rising_0003.exr").string());
    ASSERT_EQ(exr.width, kWidth);
    ASSERT_EQ(exr.height, kHeight);
    expectNearHalf(exr.rgba, transparent[kFrames - 1], "rising_0003.exr");

    const float* corner = pixelAt(exr, 0, 0);
    EXPECT_EQ(corner[3], 0.0f);
    EXPECT_EQ(corner[0], 0.0f);
    EXPECT_EQ(corner[1], 0.0f);
    EXPECT_EQ(corner[2], 0.0f);

    const size_t smoke = smokiestPixel(exr.rgba);
    const float alpha = exr.rgba[smoke * 4 + 3];
    EXPECT_GT(alpha, 0.1f) << "no smoke in the frame";
    EXPECT_LE(alpha, 1.0f);
    for (size_t i = 0; i < exr.rgba.size() / 4; ++i) {
        const float a = exr.rgba[i * 4 + 3];
        ASSERT_GE(a, 0.0f) << "pixel " << i;
        ASSERT_LE(a, 1.0f) << "pixel " << i;
        // Premultiplied: the colour over the background is the opaque frame's.
        const float background[3] = {0.25f, 0.5f, 0.75f};
        for (int c = 0; c < 3; ++c) {
            const float rgb = exr.rgba[i * 4 + c];
            if (a == 0.0f) {
                ASSERT_EQ(rgb, 0.0f) << "pixel " << i << ": colour without coverage";
            }
            const float over = rgb + background[c] * (1.0f - a);
            ASSERT_NEAR(over, opaque[kFrames - 1][i * 4 + c], 2e-3f)
                << "pixel " << i << " channel " << c << " is not premultiplied";
        }
    }
}

// PNG frames: RGBA with straight alpha when transparent, RGB otherwise.
TEST(Exr, TransparentPngIsRgbaAndOpaquePngRgb) {
    fs::path dir = scratchDir("exr_png");
    ASSERT_EQ(
        runPlume("render " + kScene + " -o t.mp4 --png t" + smallRun({"render.transparent=true"}),
                 dir)
            .status,
        0);
    ASSERT_EQ(runPlume("render " + kScene + " -o o.mp4 --png o" + smallRun(), dir).status, 0);
    int w = 0, h = 0, channels = 0;
    ASSERT_TRUE(stbi_info((dir / "o" / "rising_0003.png").c_str(), &w, &h, &channels));
    EXPECT_EQ(channels, 3);
    const std::string transparentPath = (dir / "t" / "rising_0003.png").string();
    ASSERT_TRUE(stbi_info(transparentPath.c_str(), &w, &h, &channels));
    EXPECT_EQ(channels, 4);
    EXPECT_EQ(w, kWidth);
    EXPECT_EQ(h, kHeight);

    unsigned char* pixels = stbi_load(transparentPath.c_str(), &w, &h, &channels, 4);
    ASSERT_NE(pixels, nullptr);
    std::vector<uint8_t> rgba(pixels, pixels + size_t(w) * h * 4);
    stbi_image_free(pixels);
    EXPECT_EQ(rgba[3], 0) << "corner not transparent";
    EXPECT_EQ(rgba[0] | rgba[1] | rgba[2], 0);
    // Where smoke covers the pixel, alpha is its coverage and the colour is the
    // smoke's own, tone-mapped after dividing out the coverage (straight alpha,
    // as PNG readers composite it), within the dither of +-0.5 levels.
    const std::vector<float> reference = referenceRgba(true)[kFrames - 1];
    const float exposure = loadScene(kScene, kSmall).render.exposure;
    int covered = 0;
    for (size_t i = 0; i < reference.size() / 4; ++i) {
        const float alpha = reference[i * 4 + 3];
        ASSERT_NEAR(rgba[i * 4 + 3], alpha * 255.0f, 0.51f) << "pixel " << i;
        if (alpha < 0.25f) continue;
        ++covered;
        const Vec3f straight = filmic(
            Vec3f(reference[i * 4], reference[i * 4 + 1], reference[i * 4 + 2]) / alpha, exposure);
        for (int c = 0; c < 3; ++c)
            ASSERT_NEAR(rgba[i * 4 + c], srgbEncode(straight[c]) * 255.0f, 1.01f)
                << "pixel " << i << " channel " << c << " (alpha " << alpha << ")";
    }
    EXPECT_GT(covered, 10) << "too little smoke to check";
}

// Every frame of a video as RGB bytes, decoded by ffmpeg.
std::string decodedVideo(const fs::path& video) {
    return test::capture("ffmpeg -v error -i '" + video.string() +
                         "' -f rawvideo -pix_fmt rgb24 - 2>/dev/null");
}

TEST(Exr, VideoStaysOpaqueWhenTransparent) {
    fs::path dir = scratchDir("exr_video");
    ASSERT_EQ(
        runPlume("render " + kScene + " -o t.mp4 --exr t" + smallRun({"render.transparent=true"}),
                 dir)
            .status,
        0);
    ASSERT_EQ(runPlume("render " + kScene + " -o o.mp4" + smallRun(), dir).status, 0);
    const std::string transparent = decodedVideo(dir / "t.mp4"),
                      opaque = decodedVideo(dir / "o.mp4");
    EXPECT_EQ(transparent.size(), size_t(kWidth) * kHeight * 3 * kFrames);
    EXPECT_TRUE(transparent == opaque) << "render.transparent changed the video";
}

TEST(Exr, FramesRangeWritesTheSameBytesAsAWholeRun) {
    fs::path dir = scratchDir("exr_frames");
    ASSERT_EQ(runPlume("render " + kScene + " -o whole.mp4 --exr whole" + smallRun(), dir).status,
              0);
    auto r =
        runPlume("render " + kScene + " -o part.mp4 --exr part --frames 2-3" + smallRun(), dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(listDir(dir / "part"),
              (std::vector<std::string>{"rising_0002.exr", "rising_0003.exr"}));
    for (const std::string name : {"rising_0002.exr", "rising_0003.exr"}) {
        const std::string whole = slurp(dir / "whole" / name), part = slurp(dir / "part" / name);
        EXPECT_GT(whole.size(), 0u);
        EXPECT_TRUE(whole == part) << name << " differs between a whole run and --frames 2-3";
    }
}

TEST(Exr, RenderVdbWritesExrFrames) {
    fs::path dir = scratchDir("exr_render_vdb");
    auto r = runPlume("bake " + kScene + " --vdb cache" + smallRun(), dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("render-vdb 'cache/rising_####.vdb' -o out.mp4 --scene " + kScene + " --exr exr" +
                     smallRun({"render.transparent=true"}),
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(listDir(dir / "exr"),
              (std::vector<std::string>{"rising_0001.exr", "rising_0002.exr", "rising_0003.exr"}));
    const ExrImage exr = readExr((dir / "exr" / "rising_0003.exr").string());
    EXPECT_EQ(exr.width, kWidth);
    EXPECT_EQ(pixelAt(exr, 0, 0)[3], 0.0f);
    EXPECT_GT(exr.rgba[smokiestPixel(exr.rgba) * 4 + 3], 0.1f);
}

TEST(Exr, UnwritableFolderIsOneLineAndWritesNothing) {
    fs::path dir = scratchDir("exr_unwritable");
    // /proc refuses new folders even to root.
    auto r = runPlume("render " + kScene + " -o out.mp4 --exr /proc/plume_exr" + smallRun(), dir);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("plume: error: cannot create output folder '/proc/plume_exr'", 0), 0u)
        << r.err;
    EXPECT_EQ(listDir(dir), (std::vector<std::string>{"stderr.txt", "stdout.txt"}));
}

// oiiotool (OpenImageIO), as a compositor's pipeline would read the frames.
TEST(Exr, OiiotoolReadsFourHalfChannels) {
    if (std::system("command -v oiiotool >/dev/null 2>&1") != 0) {
        const std::string why = "oiiotool is not installed (openimageio-tools)";
        if (test::requireAll()) FAIL() << why << " (PLUME_REQUIRE_ALL=1: nothing may be skipped)";
        GTEST_SKIP() << why;
    }
    fs::path dir = scratchDir("exr_oiiotool");
    auto r = runPlume("render " + kScene + " -o out.mp4 --exr exr --frames 3" +
                          smallRun({"render.transparent=true"}),
                      dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string info = test::capture("oiiotool --info -v '" +
                                           (dir / "exr" / "rising_0003.exr").string() + "' 2>&1");
    EXPECT_NE(info.find("4 channel, half openexr"), std::string::npos) << info;
    EXPECT_NE(info.find("channel list: R, G, B, A"), std::string::npos) << info;
    EXPECT_NE(info.find("compression: \"zip\""), std::string::npos) << info;
    EXPECT_NE(info.find("software: \"plume " PLUME_VERSION "\""), std::string::npos) << info;
}

// The header says what the pixels are and how fast they play, as oiiotool
// reads it: Rec. 709 primaries with D65 white, and the video's frame rate as
// a rational (NTSC's 29.97 as 30000/1001).
TEST(Exr, OiiotoolReadsTheChromaticitiesAndFrameRate) {
    if (std::system("command -v oiiotool >/dev/null 2>&1") != 0) {
        const std::string why = "oiiotool is not installed (openimageio-tools)";
        if (test::requireAll()) FAIL() << why << " (PLUME_REQUIRE_ALL=1: nothing may be skipped)";
        GTEST_SKIP() << why;
    }
    for (const auto& [fps, rational] :
         {std::pair<std::string, std::string>{"30", "30/1"}, {"29.97", "30000/1001"}}) {
        fs::path dir = scratchDir("exr_header_" + fps);
        auto r = runPlume(
            "render " + kScene + " --no-video --exr exr --frames 3" + smallRun({"time.fps=" + fps}),
            dir);
        ASSERT_EQ(r.status, 0) << r.err;
        const std::string info = test::capture(
            "oiiotool --info -v '" + (dir / "exr" / "rising_0003.exr").string() + "' 2>&1");
        EXPECT_NE(info.find("framesPerSecond: " + rational), std::string::npos) << info;
        EXPECT_NE(info.find("chromaticities: 0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 0.329"),
                  std::string::npos)
            << info;
    }
}

// The pixels as oiiotool reads them, by channel name: a reader that shares
// neither plume's code nor its channel table, so channels written under each
// other's names (red as "B") show. The background (0.25, 0.5, 0.75) has red
// unlike blue, and every pixel must be the renderer's in each named channel.
TEST(Exr, OiiotoolReadsTheRenderersPixelsByChannelName) {
    if (std::system("command -v oiiotool >/dev/null 2>&1") != 0) {
        const std::string why = "oiiotool is not installed (openimageio-tools)";
        if (test::requireAll()) FAIL() << why << " (PLUME_REQUIRE_ALL=1: nothing may be skipped)";
        GTEST_SKIP() << why;
    }
    fs::path dir = scratchDir("exr_oiiotool_pixels");
    auto r = runPlume("render " + kScene + " -o out.mp4 --exr exr --frames 3" + smallRun(), dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string dump = test::capture("oiiotool --info -v --dumpdata '" +
                                           (dir / "exr" / "rising_0003.exr").string() + "' 2>&1");
    // "channel list: R, G, B, A", then "Pixel (x, y): v v v v" in that order.
    std::istringstream lines(dump);
    std::vector<std::string> names;
    std::vector<float> rgba(size_t(kWidth) * kHeight * 4, -1.0f);
    int pixels = 0;
    for (std::string line; std::getline(lines, line);) {
        if (const size_t at = line.find("channel list: "); at != std::string::npos) {
            std::istringstream list(line.substr(at + 14));
            for (std::string name; std::getline(list >> std::ws, name, ',');) names.push_back(name);
            continue;
        }
        int x = 0, y = 0;
        int used = 0;
        if (std::sscanf(line.c_str(), " Pixel (%d, %d):%n", &x, &y, &used) != 2 || used == 0)
            continue;
        ASSERT_EQ(names.size(), 4u) << dump.substr(0, 400);
        ASSERT_TRUE(x >= 0 && x < kWidth && y >= 0 && y < kHeight) << line;
        std::istringstream values(line.substr(size_t(used)));
        for (const std::string& name : names) {
            const size_t c = std::string("RGBA").find(name);
            ASSERT_TRUE(name.size() == 1 && c != std::string::npos) << "channel " << name;
            ASSERT_TRUE(values >> rgba[(size_t(y) * kWidth + x) * 4 + c]) << line;
        }
        ++pixels;
    }
    ASSERT_EQ(pixels, kWidth * kHeight) << dump.substr(0, 400);
    // The corner is the background: red 0.25, blue 0.75, as named.
    EXPECT_EQ(rgba[0], 0.25f);
    EXPECT_EQ(rgba[1], 0.5f);
    EXPECT_EQ(rgba[2], 0.75f);
    EXPECT_EQ(rgba[3], 1.0f);
    expectNearHalf(rgba, referenceRgba(false)[kFrames - 1], "rising_0003.exr read by oiiotool");
}

}  // namespace
}  // namespace plume
