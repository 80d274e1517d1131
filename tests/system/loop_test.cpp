// [loop] mode = "blend" (run/loop_blend.h): the real plume binary's flipbook
// of a loop plays across its seam as smoothly as between any two cells, where
// the same frames without the blend jump; the loop's frames are the shot's
// own up to the overlap and its last is the frame before its first, exactly;
// the video holds the loop alone; what cannot make a loop is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define STB_IMAGE_STATIC  // other tests have their own copies
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::slurp;
using test::runPlume;
using test::scratchDir;

// A steady column from a sphere, 32 frames; the loop is the last 16 with 8
// crossfaded, every one a cell of a 4 x 4 sheet of 32 px cells.
const std::string kScene =
    "[domain]\nsize = [1.0, 1.0, 1.5]\nresolution = 16\nboundary = \"open\"\n"
    "[time]\nfps = 24\nframes = 32\nmax_substeps = 2\n"
    "[[emitter]]\nshape = \"sphere\"\ncenter = [0.5, 0.5, 0.25]\nradius = 0.15\n"
    "density = 1.0\ntemperature = 1.5\nnoise = 0.3\n"
    "[camera]\ntype = \"orthographic\"\northo_width = 1.6\nposition = [0.5, -1.8, 0.75]\n"
    "look_at = [0.5, 0.5, 0.75]\n"
    "[flipbook]\ncolumns = 4\nrows = 4\nframe_size = 32\nalpha = \"premultiplied\"\n"
    "[loop]\nframes = 16\noverlap = 8\n";
constexpr int kCells = 16, kCell = 32, kColumns = 4;
const std::string kSmall = " --set render.width=96 --set render.height=96";

fs::path writeScene(const fs::path& dir, const std::string& text = kScene) {
    const fs::path path = dir / "column.toml";
    std::ofstream(path) << text;
    return path;
}

std::vector<unsigned char> readRgba(const fs::path& path, int& width, int& height) {
    int channels = 0;
    unsigned char* data = stbi_load(path.string().c_str(), &width, &height, &channels, 4);
    if (!data) return {};
    std::vector<unsigned char> pixels(data, data + size_t(width) * height * 4);
    stbi_image_free(data);
    return pixels;
}

// The mean difference between two cells of the sheet, all four channels, 0-1.
double cellStep(const std::vector<unsigned char>& sheet, int width, int a, int b) {
    double sum = 0;
    for (int y = 0; y < kCell; ++y)
        for (int x = 0; x < kCell; ++x)
            for (int c = 0; c < 4; ++c) {
                auto at = [&](int cell) {
                    const int px = (cell % kColumns) * kCell + x, py = (cell / kColumns) * kCell + y;
                    return double(sheet[(size_t(py) * width + px) * 4 + c]);
                };
                sum += std::fabs(at(a) - at(b));
            }
    return sum / (kCell * kCell * 4 * 255.0);
}

struct Steps {
    double seam = 0;     // the last cell to the first
    double largest = 0;  // the largest between consecutive cells
};

Steps sheetSteps(const fs::path& sheetPath) {
    int w = 0, h = 0;
    const std::vector<unsigned char> sheet = readRgba(sheetPath, w, h);
    EXPECT_EQ(w, kColumns * kCell);
    Steps s;
    if (sheet.empty()) return s;
    for (int c = 0; c + 1 < kCells; ++c) s.largest = std::max(s.largest, cellStep(sheet, w, c, c + 1));
    s.seam = cellStep(sheet, w, kCells - 1, 0);
    return s;
}

TEST(Loop, TheSheetsSeamIsNoLargerThanItsSteps) {
    const fs::path dir = scratchDir("loop_sheet");
    writeScene(dir);
    auto r = runPlume("render column.toml --flipbook loop -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    // The same 16 frames, frames 17-32, as a sheet without the blend.
    r = runPlume("render column.toml --flipbook plain -q --set loop.frames=0 --frames 17-32", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const Steps loop = sheetSteps(dir / "loop" / "column_colour.png");
    const Steps plain = sheetSteps(dir / "plain" / "column_colour.png");
    std::printf("loop: seam %.4f, largest step %.4f; without the blend: seam %.4f, largest %.4f\n",
                loop.seam, loop.largest, plain.seam, plain.largest);
    EXPECT_GT(plain.seam, plain.largest) << "the column does not jump without the blend";
    EXPECT_LE(loop.seam, loop.largest);

    const std::string sidecar = slurp(dir / "loop" / "column.json");
    EXPECT_NE(sidecar.find("\"loop\": {\"frames\": 16, \"mode\": \"blend\", \"overlap\": 8"),
              std::string::npos)
        << sidecar;
    EXPECT_NE(sidecar.find("\"plume_frame\": 17}"), std::string::npos) << "cell 0 is frame 17";
    EXPECT_NE(slurp(dir / "plain" / "column.json").find("\"loop\": null"), std::string::npos);
}

TEST(Loop, ItsFramesAreTheShotsUpToTheOverlapAndItsLastIsTheFrameBeforeItsFirst) {
    const fs::path dir = scratchDir("loop_frames");
    writeScene(dir);
    auto r = runPlume("render column.toml -o loop.mp4 --png loop --vdb cache -q" + kSmall, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("render column.toml --no-video --png plain -q --set loop.frames=0" + kSmall, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> want;
    for (int f = 17; f <= 32; ++f) {
        char name[32];
        std::snprintf(name, sizeof name, "column_%04d.png", f);
        want.push_back(name);
    }
    EXPECT_EQ(test::listDir(dir / "loop"), want);
    // The cache holds what the loop is made of, unblended: frames 9-32.
    EXPECT_EQ(test::listDir(dir / "cache").size(), 24u);
    EXPECT_TRUE(fs::exists(dir / "cache" / "column_0009.vdb"));
    // Frames 17-24 are the shot's own; 25-32 blend toward 9-16, and 32 is 16.
    for (int f = 17; f <= 24; ++f) {
        char name[32];
        std::snprintf(name, sizeof name, "column_%04d.png", f);
        EXPECT_EQ(slurp(dir / "loop" / name), slurp(dir / "plain" / name)) << name;
    }
    EXPECT_EQ(slurp(dir / "loop" / "column_0032.png"), slurp(dir / "plain" / "column_0016.png"));
    EXPECT_NE(slurp(dir / "loop" / "column_0028.png"), slurp(dir / "plain" / "column_0028.png"));

    const std::string frames = test::capture(
        "ffprobe -v error -select_streams v:0 -count_frames -show_entries "
        "stream=nb_read_frames -of csv=p=0 '" +
        (dir / "loop.mp4").string() + "'");
    EXPECT_EQ(std::atoi(frames.c_str()), 16) << frames;
}

TEST(Loop, WhatCannotMakeALoopIsRefused) {
    const fs::path dir = scratchDir("loop_refused");
    writeScene(dir);
    struct Case {
        std::string args, says;
    };
    const std::vector<Case> cases = {
        {"--set loop.mode=\\\"periodic\\\"", "'loop.mode' = \"periodic\": not yet"},
        {"--set loop.overlap=20", "'loop.overlap' = 20: more than the loop's 16 frames"},
        {"--set loop.frames=30", "'loop.frames' = 30: the loop and its overlap (8) take 38 frames, "
                                 "and the shot has 32"},
        {"--frames 17-32", "--frames: error: [loop] makes the pictures the shot's last 16 frames"},
        {"--deep deep", "--deep: error: a loop's frames are blends of two"},
        {"--flipbook fb --set flipbook.columns=8 --set flipbook.rows=8",
         "--flipbook: error: the sheet takes 64 frames (flipbook.frames, or columns x rows) and "
         "the loop has 16 (loop.frames): set flipbook.frames = 16, columns = 4 and rows = 4"},
    };
    for (const Case& c : cases) {
        const auto r = runPlume("render column.toml --no-video --png out -q " + c.args, dir);
        EXPECT_EQ(r.status, 2) << c.args << ": " << r.err;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_FALSE(fs::exists(dir / "out")) << c.args;
        EXPECT_FALSE(fs::exists(dir / "fb")) << c.args;
    }
    // A bake writes no pictures: the loop leaves its cache whole.
    const auto r = runPlume("bake column.toml --vdb cache -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir / "cache" / "column_0001.vdb"));
    EXPECT_TRUE(fs::exists(dir / "cache" / "column_0032.vdb"));
}

}  // namespace
}  // namespace plume
