// --flipbook DIR (run/flipbook_sink.h, render/output/flipbook.h): the sheet
// the real plume binary writes, cell by cell against the frames `render --png`
// gives with the same orthographic camera, its sidecar's numbers, the formats
// read by oiiotool (a reader that is not plume's), and the values refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
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

// The golden puff, seen by an orthographic camera; 8 frames, 4 of them in a
// 2 x 2 sheet of 64 px cells (frames 1, 3, 5, 7).
const std::string kScene =
    "[domain]\nsize = [1.0, 1.0, 1.5]\nresolution = 16\nboundary = \"open\"\n"
    "[time]\nfps = 24\nframes = 8\nmax_substeps = 2\n"
    "[[emitter]]\nshape = \"sphere\"\ncenter = [0.5, 0.5, 0.25]\nradius = 0.15\n"
    "density = 1.0\ntemperature = 1.5\nnoise = 0.3\n"
    "[camera]\ntype = \"orthographic\"\northo_width = 1.6\nposition = [0.5, -1.8, 0.75]\n"
    "look_at = [0.5, 0.5, 0.75]\n"
    "[flipbook]\ncolumns = 2\nrows = 2\nframe_size = 64\nframes = 4\n";
constexpr int kCell = 64, kSheet = 128;
const int kCellFrames[4] = {1, 3, 5, 7};

fs::path writeScene(const fs::path& dir, const std::string& text = kScene) {
    const fs::path path = dir / "puff.toml";
    std::ofstream(path) << text;
    return path;
}

struct Rgba {
    int width = 0, height = 0;
    std::vector<unsigned char> pixels;
    const unsigned char* at(int x, int y) const { return &pixels[(size_t(y) * width + x) * 4]; }
};

// A PNG or TGA as 8-bit RGBA, through stb_image.
Rgba readImage(const fs::path& path) {
    Rgba image;
    int channels = 0;
    unsigned char* data =
        stbi_load(path.string().c_str(), &image.width, &image.height, &channels, 4);
    if (!data) return image;
    image.pixels.assign(data, data + size_t(image.width) * image.height * 4);
    stbi_image_free(data);
    return image;
}

bool powerOfTwo(int n) { return n > 0 && (n & (n - 1)) == 0; }

// The largest difference of cell `cell` of the sheet from `frame` (straight
// alpha; premultiplied: the frame's colour times its alpha first).
int cellDifference(const Rgba& sheet, int cell, const Rgba& frame, bool premultiplied) {
    const int x0 = (cell % 2) * kCell, y0 = (cell / 2) * kCell;
    int worst = 0;
    for (int y = 0; y < kCell; ++y)
        for (int x = 0; x < kCell; ++x) {
            const unsigned char* s = sheet.at(x0 + x, y0 + y);
            const unsigned char* f = frame.at(x, y);
            for (int c = 0; c < 4; ++c) {
                const double want = premultiplied && c < 3 ? f[c] * f[3] / 255.0 : f[c];
                worst = std::max(worst, int(std::ceil(std::fabs(s[c] - want) - 1e-9)));
            }
        }
    return worst;
}

// The frames `render --png` gives at the cells' size on a transparent background.
void renderPngs(const fs::path& dir) {
    const auto r = runPlume(
        "render puff.toml --no-video --png png -q --set render.width=64 --set render.height=64 "
        "--set render.transparent=true",
        dir);
    ASSERT_EQ(r.status, 0) << r.err;
}

TEST(Flipbook, EachCellIsTheFrameRenderPngGives) {
    const fs::path dir = scratchDir("flipbook_cells");
    writeScene(dir);
    auto r = runPlume("render puff.toml --flipbook fb -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    // No video without -o: the frames are cells.
    EXPECT_FALSE(fs::exists(dir / "puff.mp4"));
    EXPECT_EQ(test::listDir(dir / "fb"),
              (std::vector<std::string>{"puff.json", "puff_colour.png"}));
    const Rgba sheet = readImage(dir / "fb" / "puff_colour.png");
    ASSERT_EQ(sheet.width, kSheet);
    ASSERT_EQ(sheet.height, kSheet);
    EXPECT_TRUE(powerOfTwo(sheet.width) && powerOfTwo(sheet.height));

    renderPngs(dir);
    int lit = 0;
    for (int cell = 0; cell < 4; ++cell) {
        char name[32];
        std::snprintf(name, sizeof name, "puff_%04d.png", kCellFrames[cell]);
        const Rgba frame = readImage(dir / "png" / name);
        ASSERT_EQ(frame.width, kCell) << name;
        EXPECT_EQ(cellDifference(sheet, cell, frame, false), 0) << "cell " << cell << ": " << name;
        for (size_t i = 3; i < frame.pixels.size(); i += 4) lit += frame.pixels[i] > 128;
    }
    EXPECT_GT(lit, 100) << "the cells show smoke";
    // The background is transparent.
    EXPECT_EQ(sheet.at(0, 0)[3], 0);
}

TEST(Flipbook, PremultipliedCellsAreTheFramesTimesTheirAlpha) {
    const fs::path dir = scratchDir("flipbook_premultiplied");
    writeScene(dir);
    auto r = runPlume("render puff.toml --flipbook fb -q --set flipbook.alpha=premultiplied", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const Rgba sheet = readImage(dir / "fb" / "puff_colour.png");
    ASSERT_EQ(sheet.width, kSheet);
    renderPngs(dir);
    for (int cell = 0; cell < 4; ++cell) {
        char name[32];
        std::snprintf(name, sizeof name, "puff_%04d.png", kCellFrames[cell]);
        EXPECT_LE(cellDifference(sheet, cell, readImage(dir / "png" / name), true), 1)
            << "cell " << cell;
    }
    EXPECT_NE(slurp(dir / "fb" / "puff.json").find("\"alpha\": \"premultiplied\""),
              std::string::npos);
}

// A number a key holds in the sidecar's text ("columns": 2).
double jsonNumber(const std::string& json, const std::string& key) {
    const std::regex number("\"" + key + "\": (-?[0-9.e+-]+)");
    std::smatch m;
    if (!std::regex_search(json, m, number)) return std::nan("");
    return std::stod(m[1]);
}

TEST(Flipbook, TheSidecarSaysTheLayout) {
    const fs::path dir = scratchDir("flipbook_sidecar");
    writeScene(dir);
    auto r = runPlume("render puff.toml --flipbook fb -q --set flipbook.padding=4", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string json = slurp(dir / "fb" / "puff.json");
    // TexturePacker's hash: frames by name, each its rectangle inside the padding.
    for (int cell = 0; cell < 4; ++cell) {
        char entry[160];
        std::snprintf(entry, sizeof entry,
                      "\"puff_%04d\": {\"frame\": {\"x\": %d, \"y\": %d, \"w\": 56, \"h\": 56}",
                      cell, (cell % 2) * kCell + 4, (cell / 2) * kCell + 4);
        EXPECT_NE(json.find(entry), std::string::npos) << entry << "\n" << json;
    }
    EXPECT_NE(json.find("\"size\": {\"w\": 128, \"h\": 128}"), std::string::npos) << json;
    EXPECT_NE(json.find("\"image\": \"puff_colour.png\""), std::string::npos);
    EXPECT_NE(json.find("\"format\": \"RGBA8888\""), std::string::npos);
    EXPECT_NE(json.find("\"scale\": \"1\""), std::string::npos);
    EXPECT_NE(json.find("\"animations\": {\n    \"puff\": [\"puff_0000\", \"puff_0001\", "
                        "\"puff_0002\", \"puff_0003\"]"),
              std::string::npos)
        << json;
    EXPECT_EQ(jsonNumber(json, "columns"), 2);
    EXPECT_EQ(jsonNumber(json, "rows"), 2);
    EXPECT_EQ(jsonNumber(json, "frames"), 4);
    EXPECT_EQ(jsonNumber(json, "padding"), 4);
    EXPECT_EQ(jsonNumber(json, "fps"), 12);  // 4 cells for 8 frames at 24: the shot's length
    EXPECT_EQ(jsonNumber(json, "ortho_width"), 1.6);
    EXPECT_NE(json.find("\"color_space\": \"srgb\""), std::string::npos);
    EXPECT_NE(json.find("\"alpha\": \"straight\""), std::string::npos);
    EXPECT_NE(
        json.find("\"axes\": {\"right\": [1, 0, 0], \"up\": [0, 0, 1], \"back\": [0, -1, 0]}"),
        std::string::npos)
        << json;
    EXPECT_NE(json.find("\"motion_scale\": null"), std::string::npos);
    EXPECT_NE(json.find("\"loop\": null"), std::string::npos);
    for (int cell = 0; cell < 4; ++cell)
        EXPECT_NE(json.find("\"plume_frame\": " + std::to_string(kCellFrames[cell])),
                  std::string::npos);
    // The padding is transparent, the frames inside it are not all.
    const Rgba sheet = readImage(dir / "fb" / "puff_colour.png");
    ASSERT_EQ(sheet.width, kSheet);
    for (int i = 0; i < kSheet; ++i) {
        EXPECT_EQ(sheet.at(i, 0)[3], 0);
        EXPECT_EQ(sheet.at(0, i)[3], 0);
        EXPECT_EQ(sheet.at(i, kCell + 2)[3], 0);
    }
}

void requireOiiotool() {
    if (std::system("command -v oiiotool >/dev/null 2>&1") != 0) {
        const std::string why = "oiiotool is not installed (openimageio-tools)";
        if (test::requireAll()) FAIL() << why << " (PLUME_REQUIRE_ALL=1: nothing may be skipped)";
        GTEST_SKIP() << why;
    }
}

// oiiotool reads each format's sheet at its size, as an engine's importer would.
TEST(Flipbook, OiiotoolReadsEveryFormat) {
    requireOiiotool();
    const fs::path dir = scratchDir("flipbook_oiiotool");
    writeScene(dir);
    for (const auto& [format, reads] :
         {std::pair<std::string, std::string>{"png", "128 x  128, 4 channel, uint8 png"},
          {"tga", "128 x  128, 4 channel, uint8 targa"},
          {"exr", "128 x  128, 4 channel, half openexr"}}) {
        auto r = runPlume(
            "render puff.toml -q --flipbook " + format + " --set flipbook.format=" + format, dir);
        ASSERT_EQ(r.status, 0) << r.err;
        const fs::path sheet = dir / format / ("puff_colour." + format);
        const std::string info = test::capture("oiiotool --info '" + sheet.string() + "' 2>&1");
        EXPECT_NE(info.find(reads), std::string::npos) << format << ": " << info;
    }
    // The TGA holds what the PNG holds.
    auto r = runPlume("render puff.toml -q --flipbook png", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const Rgba png = readImage(dir / "png" / "puff_colour.png"),
               tga = readImage(dir / "tga" / "puff_colour.tga");
    EXPECT_EQ(png.width, kSheet);
    EXPECT_TRUE(png.pixels == tga.pixels);
    // And the TGA through oiiotool (its alpha kept straight) is the PNG stb_image reads.
    const fs::path again = dir / "again.png";
    test::capture("oiiotool --iconfig oiio:UnassociatedAlpha 1 '" +
                  (dir / "tga" / "puff_colour.tga").string() + "' -o '" + again.string() +
                  "' 2>&1");
    EXPECT_TRUE(readImage(again).pixels == png.pixels);
}

// render-vdb of a cache stored exactly makes the sheet render made.
TEST(Flipbook, RenderVdbMakesTheSameSheet) {
    const fs::path dir = scratchDir("flipbook_render_vdb");
    writeScene(dir);
    auto r = runPlume(
        "render puff.toml -q --flipbook fb --vdb cache --set output.vdb_precision=exact", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("render-vdb cache --scene puff.toml -q --flipbook fb_vdb", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const Rgba a = readImage(dir / "fb" / "puff_colour.png"),
               b = readImage(dir / "fb_vdb" / "puff_colour.png");
    EXPECT_EQ(b.width, kSheet);
    EXPECT_TRUE(a.pixels == b.pixels);
}

// Bad values: one line at the key, exit status 2, nothing written.
TEST(Flipbook, BadValuesAreRefused) {
    const fs::path dir = scratchDir("flipbook_refused");
    writeScene(dir, kScene + "padding = 30\n");
    auto r = runPlume("render puff.toml -q --flipbook fb", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "puff.toml:26:11: error: 'flipbook.padding' = 30: leaves a frame of 4 px in a 64 "
              "px cell; a frame is 16 px or more\n");
    const std::vector<std::pair<std::string, std::string>> refused = {
        {"flipbook.frames=5", "'flipbook.frames' = 5: more than the sheet's 2 x 2 cells"},
        {"flipbook.columns=3",
         "the flipbook's sheet is 192 x 128 px, not powers of two: give columns, rows and "
         "frame_size that make them so, or flipbook.power_of_two = false"},
        {"flipbook.kind=four_way",
         "'flipbook.kind' must be one of \"colour\", \"six_way\", got \"four_way\""},
        {"flipbook.motion_scale=-1", "'flipbook.motion_scale'"},
        {"flipbook.format=jpg",
         "'flipbook.format' must be one of \"png\", \"exr\", \"tga\", got \"jpg\""},
        {"flipbook.frame_size=63", "'flipbook.frame_size'"},
        {"camera.type=fisheye",
         "'camera.type' must be one of \"perspective\", \"orthographic\", got \"fisheye\""},
        {"camera.ortho_width=0", "'camera.ortho_width'"},
    };
    writeScene(dir);
    for (const auto& [set, says] : refused) {
        r = runPlume("render puff.toml -q --flipbook fb --set " + set, dir);
        EXPECT_EQ(r.status, 2) << set;
        EXPECT_NE(r.err.find(says), std::string::npos) << set << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << set << ": " << r.err;
    }
    // More cells than the shot has frames.
    r = runPlume("render puff.toml -q --flipbook fb --set time.frames=3", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "--flipbook: error: the sheet takes 4 frames (flipbook.frames) and the shot has 3: "
              "give fewer frames or a longer shot\n");
    EXPECT_FALSE(fs::exists(dir / "fb"));
    // 3 x 2 cells pass without powers of two.
    r = runPlume(
        "render puff.toml -q --flipbook fb --set flipbook.columns=3 --set "
        "flipbook.power_of_two=false",
        dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(readImage(dir / "fb" / "puff_colour.png").width, 192);
}

}  // namespace
}  // namespace plume
