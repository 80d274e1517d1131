// The game maps of --flipbook (run/flipbook_sink.h, render/output/six_way.h):
// six-way lightmaps, each cell against plume's own render of that frame lit
// by that direction's light alone, and motion vectors, checked by blending
// two cells halfway by them against the frame rendered between the two.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "io/exr_file.h"
#include "support/run.h"

#define STB_IMAGE_STATIC  // other tests have their own copies
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::slurp;
using test::runPlume;
using test::scratchDir;

// flipbook_test.cpp's puff: 8 frames, 4 of them (1, 3, 5, 7) in a 2 x 2 sheet of 64 px cells.
const std::string kPuff =
    "[domain]\nsize = [1.0, 1.0, 1.5]\nresolution = 16\nboundary = \"open\"\n"
    "[time]\nfps = 24\nframes = 8\nmax_substeps = 2\n"
    "[[emitter]]\nshape = \"sphere\"\ncenter = [0.5, 0.5, 0.25]\nradius = 0.15\n"
    "density = 1.0\ntemperature = 1.5\nnoise = 0.3\nvelocity = [0.0, 0.0, 1.5]\n"
    "[camera]\ntype = \"orthographic\"\northo_width = 1.6\nposition = [0.5, -1.8, 0.75]\n"
    "look_at = [0.5, 0.5, 0.75]\n";
const std::string kSheet = "[flipbook]\ncolumns = 2\nrows = 2\nframe_size = 64\nframes = 4\n";
constexpr int kCell = 64, kSide = 128;
const int kCellFrames[4] = {1, 3, 5, 7};

void writeFile(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

// An EXR's R, G, B, A as floats, interleaved.
struct Floats {
    int width = 0, height = 0;
    std::vector<float> px;
    const float* at(int x, int y) const { return &px[(size_t(y) * width + x) * 4]; }
};

Floats readFloats(const fs::path& path) {
    const ExrChannels exr = readExrChannels(path.string());
    Floats f;
    f.width = exr.width;
    f.height = exr.height;
    f.px.assign(size_t(f.width) * f.height * 4, 0.0f);
    const char* names[4] = {"R", "G", "B", "A"};
    for (int c = 0; c < 4; ++c) {
        const auto it = exr.channels.find(names[c]);
        if (it == exr.channels.end()) continue;
        for (size_t i = 0; i < it->second.size(); ++i) f.px[i * 4 + size_t(c)] = it->second[i];
    }
    return f;
}

struct Bytes {
    int width = 0, height = 0;
    std::vector<unsigned char> px;
    const unsigned char* at(int x, int y) const { return &px[(size_t(y) * width + x) * 4]; }
};

Bytes readPng8(const fs::path& path) {
    Bytes b;
    int channels = 0;
    unsigned char* data = stbi_load(path.string().c_str(), &b.width, &b.height, &channels, 4);
    if (!data) return b;
    b.px.assign(data, data + size_t(b.width) * b.height * 4);
    stbi_image_free(data);
    return b;
}

bool powerOfTwo(int n) { return n > 0 && (n & (n - 1)) == 0; }

float srgbOf(float v) {
    v = std::clamp(v, 0.0f, 1.0f);
    return v <= 0.0031308f ? 12.92f * v : 1.055f * std::pow(v, 1.0f / 2.4f) - 0.055f;
}

// A vector of the sidecar's axes ("right": [1, 0, 0]).
std::vector<double> axis(const std::string& json, const std::string& name) {
    const std::regex re("\"" + name + "\": \\[([-0-9.e]+), ([-0-9.e]+), ([-0-9.e]+)\\]");
    std::smatch m;
    if (!std::regex_search(json, m, re)) return {0, 0, 0};
    return {std::stod(m[1]), std::stod(m[2]), std::stod(m[3])};
}

double jsonNumber(const std::string& json, const std::string& key) {
    const std::regex number("\"" + key + "\": (-?[0-9.e+-]+)");
    std::smatch m;
    if (!std::regex_search(json, m, number)) return std::nan("");
    return std::stod(m[1]);
}

std::string vec(const std::vector<double>& v, double sign) {
    char text[128];
    std::snprintf(text, sizeof text, "[%.9g, %.9g, %.9g]", sign * v[0] + 0.0, sign * v[1] + 0.0,
                  sign * v[2] + 0.0);
    return text;
}

// The puff lit by one directional light travelling `direction`, of
// irradiance pi, with no sky and no emission.
std::string litBy(const std::string& direction) {
    return kPuff + "[[light]]\ndirection = " + direction +
           "\nintensity = 3.14159265358979\ncolor = [1.0, 1.0, 1.0]\n"
           "[render]\nambient = [0.0, 0.0, 0.0]\nemission = 0.0\ntransparent = true\n"
           "width = 64\nheight = 64\n";
}

float luminance(const float* c) { return 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2]; }

TEST(FlipbookSixWay, EachLightmapIsTheFrameLitByItsLightAlone) {
    const fs::path dir = scratchDir("flipbook_six_way");
    writeFile(dir / "puff.toml", kPuff + kSheet);
    for (const std::string format : {"png", "exr"}) {
        auto r = runPlume("render puff.toml -q --flipbook " + format +
                              " --set flipbook.kind=six_way --set flipbook.format=" + format,
                          dir);
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(test::listDir(dir / format),
                  (std::vector<std::string>{"puff.json", "puff_Negative." + format,
                                            "puff_Positive." + format}));
    }
    const std::string json = slurp(dir / "png" / "puff.json");
    EXPECT_NE(json.find("\"kind\": \"six_way\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"positive\": {\"image\": \"puff_Positive.png\", \"R\": \"light from "
                        "the right (+right)\", \"G\": \"light from the top (+up)\", \"B\": "
                        "\"light from the back"),
              std::string::npos)
        << json;
    EXPECT_NE(json.find("\"negative\": {\"image\": \"puff_Negative.png\", \"R\": \"light from "
                        "the left (-right)\", \"G\": \"light from the bottom (-up)\", \"B\": "
                        "\"light from the front"),
              std::string::npos)
        << json;
    EXPECT_EQ(jsonNumber(json, "columns"), 2);
    EXPECT_EQ(jsonNumber(json, "rows"), 2);
    EXPECT_NE(json.find("\"size\": {\"w\": 128, \"h\": 128}"), std::string::npos);

    // Each map's light, from the camera's axes the sidecar gives: from the
    // right it travels left; from the back toward the camera (along back).
    const std::vector<double> right = axis(json, "right"), up = axis(json, "up"),
                              back = axis(json, "back");
    struct Map {
        const char* sheet;
        int channel;
        std::string direction;
    };
    const Map maps[6] = {{"Positive", 0, vec(right, -1)}, {"Positive", 1, vec(up, -1)},
                         {"Positive", 2, vec(back, 1)},   {"Negative", 0, vec(right, 1)},
                         {"Negative", 1, vec(up, 1)},     {"Negative", 2, vec(back, -1)}};
    const Bytes positive = readPng8(dir / "png" / "puff_Positive.png"),
                negative = readPng8(dir / "png" / "puff_Negative.png");
    const Floats positiveF = readFloats(dir / "exr" / "puff_Positive.exr"),
                 negativeF = readFloats(dir / "exr" / "puff_Negative.exr");
    for (const Bytes* b : {&positive, &negative}) {
        ASSERT_EQ(b->width, kSide);
        ASSERT_EQ(b->height, kSide);
        EXPECT_TRUE(powerOfTwo(b->width) && powerOfTwo(b->height));
    }
    ASSERT_EQ(positiveF.width, kSide);
    ASSERT_EQ(negativeF.width, kSide);

    for (int m = 0; m < 6; ++m) {
        const fs::path run = dir / ("light" + std::to_string(m));
        fs::create_directories(run);
        writeFile(run / "puff.toml", litBy(maps[m].direction));
        auto r = runPlume("render puff.toml -q --no-video --exr exr", run);
        ASSERT_EQ(r.status, 0) << r.err;
        const bool pos = maps[m].sheet == std::string("Positive");
        const Bytes& sheet = pos ? positive : negative;
        const Floats& sheetF = pos ? positiveF : negativeF;
        int worst = 0, worstAlpha = 0;
        double worstF = 0, lit = 0;
        for (int cell = 0; cell < 4; ++cell) {
            char name[32];
            std::snprintf(name, sizeof name, "puff_%04d.exr", kCellFrames[cell]);
            const Floats frame = readFloats(run / "exr" / name);
            ASSERT_EQ(frame.width, kCell) << name;
            const int x0 = (cell % 2) * kCell, y0 = (cell / 2) * kCell;
            for (int y = 0; y < kCell; ++y)
                for (int x = 0; x < kCell; ++x) {
                    const float* f = frame.at(x, y);
                    const float a = f[3];
                    // Straight alpha, the light's luminance.
                    const float want = a > 0.0f ? luminance(f) / a : 0.0f;
                    lit = std::max(lit, double(want));
                    const int level = int(srgbOf(want) * 255.0f + 0.5f);
                    worst = std::max(worst,
                                     std::abs(sheet.at(x0 + x, y0 + y)[maps[m].channel] - level));
                    worstF = std::max(
                        worstF,
                        std::fabs(double(sheetF.at(x0 + x, y0 + y)[maps[m].channel]) - want) /
                            std::max(1.0, double(want)));
                    if (pos && maps[m].channel == 0)
                        worstAlpha = std::max(worstAlpha, std::abs(sheet.at(x0 + x, y0 + y)[3] -
                                                                   int(a * 255.0f + 0.5f)));
                }
        }
        std::printf("%s %c: largest difference %d level(s) (PNG), %.2g (EXR)\n", maps[m].sheet,
                    "RGB"[maps[m].channel], worst, worstF);
        EXPECT_LE(worst, 1) << maps[m].sheet << " channel " << maps[m].channel;
        EXPECT_LE(worstF, 1.0 / 255.0) << maps[m].sheet << " channel " << maps[m].channel;
        EXPECT_LE(worstAlpha, 1);
        EXPECT_GT(lit, 0.1) << "light " << m << " lights the smoke";
    }
    // No flame in the puff: the negative sheet's emission is 0.
    for (size_t i = 3; i < negative.px.size(); i += 4) ASSERT_EQ(negative.px[i], 0);
}

// A white box facing the camera, in front of the smoke: lit from the front
// by irradiance pi it reads 1.0, and nothing from the other sides reaches it.
TEST(FlipbookSixWay, AWhiteDiffuserReadsOne) {
    const fs::path dir = scratchDir("flipbook_white_diffuser");
    writeFile(dir / "puff.toml", kPuff + kSheet +
                                     "[[obstacle]]\nshape = \"box\"\ncenter = [0.5, 0.3, 0.75]\n"
                                     "size = [0.3, 0.1, 0.3]\ncolor = [1.0, 1.0, 1.0]\n");
    auto r = runPlume(
        "render puff.toml -q --flipbook fb --set flipbook.kind=six_way --set flipbook.format=exr",
        dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const Floats positive = readFloats(dir / "fb" / "puff_Positive.exr"),
                 negative = readFloats(dir / "fb" / "puff_Negative.exr");
    ASSERT_EQ(negative.width, kSide);
    for (int y = 29; y < 35; ++y)
        for (int x = 29; x < 35; ++x) {
            EXPECT_NEAR(negative.at(x, y)[2], 1.0f, 1e-3f) << x << ", " << y;  // front
            EXPECT_EQ(positive.at(x, y)[3], 1.0f);                             // opaque
            EXPECT_NEAR(positive.at(x, y)[2], 0.0f, 1e-3f);                    // back
        }
}

// Cell `cell` of a sheet, sampled bilinearly at pixel (x, y) of the cell
// (clamped to the cell's edge).
void sampleCell(const Floats& sheet, int cell, double x, double y, double out[4]) {
    x = std::clamp(x, 0.0, double(kCell - 1));
    y = std::clamp(y, 0.0, double(kCell - 1));
    const int x0 = int(std::floor(x)), y0 = int(std::floor(y));
    const int x1 = std::min(x0 + 1, kCell - 1), y1 = std::min(y0 + 1, kCell - 1);
    const double fx = x - x0, fy = y - y0;
    const int ox = (cell % 2) * kCell, oy = (cell / 2) * kCell;
    for (int c = 0; c < 4; ++c) {
        const double a = sheet.at(ox + x0, oy + y0)[c], b = sheet.at(ox + x1, oy + y0)[c],
                     d = sheet.at(ox + x0, oy + y1)[c], e = sheet.at(ox + x1, oy + y1)[c];
        out[c] = (a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy;
    }
}

TEST(FlipbookMotion, BlendingByTheVectorsBeatsACrossfade) {
    const fs::path dir = scratchDir("flipbook_motion");
    writeFile(dir / "puff.toml", kPuff + kSheet);
    auto r = runPlume(
        "render puff.toml -q --flipbook fb --set flipbook.motion=true --set flipbook.format=exr "
        "--set flipbook.alpha=premultiplied",
        dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(test::listDir(dir / "fb"),
              (std::vector<std::string>{"puff.json", "puff_colour.exr", "puff_motion.exr"}));
    const std::string json = slurp(dir / "fb" / "puff.json");
    const double scale = jsonNumber(json, "motion_scale");
    ASSERT_GT(scale, 0.0) << json;
    EXPECT_NE(json.find("\"motion\": {\"image\": \"puff_motion.exr\""), std::string::npos) << json;
    const Floats colour = readFloats(dir / "fb" / "puff_colour.exr");
    const Floats motion = readFloats(dir / "fb" / "puff_motion.exr");
    ASSERT_EQ(motion.width, kSide);
    ASSERT_EQ(colour.width, kSide);
    // Still pixels (nothing there) are mid-grey exactly.
    EXPECT_EQ(motion.at(0, 0)[0], 0.5f);
    EXPECT_EQ(motion.at(0, 0)[1], 0.5f);

    // The frames between the cells (2, 4, 6), as render --exr gives them.
    r = runPlume(
        "render puff.toml -q --no-video --exr exr --set render.width=64 --set render.height=64 "
        "--set render.transparent=true",
        dir);
    ASSERT_EQ(r.status, 0) << r.err;
    // A cell's motion at (x, y) in pixels of the cell, x right and y down:
    // RG = v / (columns, rows) / scale x 0.5 + 0.5, G up.
    auto pixelsMoved = [&](int cell, int x, int y, double& dx, double& dy) {
        const float* m = motion.at((cell % 2) * kCell + x, (cell / 2) * kCell + y);
        dx = (m[0] - 0.5) * 2.0 * scale * kSide;
        dy = -(m[1] - 0.5) * 2.0 * scale * kSide;
    };
    double blendError = 0, fadeError = 0, moved = 0;
    for (int cell = 0; cell < 3; ++cell) {
        char name[32];
        std::snprintf(name, sizeof name, "puff_%04d.exr", kCellFrames[cell] + 1);
        const Floats mid = readFloats(dir / "exr" / name);
        ASSERT_EQ(mid.width, kCell) << name;
        for (int y = 0; y < kCell; ++y)
            for (int x = 0; x < kCell; ++x) {
                double ax, ay, bx, by, a[4], b[4], fa[4], fb[4];
                pixelsMoved(cell, x, y, ax, ay);
                pixelsMoved(cell + 1, x, y, bx, by);
                moved = std::max(moved, std::hypot(ax, ay));
                // What is here halfway came from half a step back in this
                // cell and lies half a step on in the next.
                sampleCell(colour, cell, x - 0.5 * ax, y - 0.5 * ay, a);
                sampleCell(colour, cell + 1, x + 0.5 * bx, y + 0.5 * by, b);
                sampleCell(colour, cell, x, y, fa);
                sampleCell(colour, cell + 1, x, y, fb);
                const float* want = mid.at(x, y);
                for (int c = 0; c < 4; ++c) {
                    const double blend = 0.5 * (a[c] + b[c]), fade = 0.5 * (fa[c] + fb[c]);
                    blendError += (blend - want[c]) * (blend - want[c]);
                    fadeError += (fade - want[c]) * (fade - want[c]);
                }
            }
    }
    const double n = 3.0 * kCell * kCell * 4;
    blendError = std::sqrt(blendError / n);
    fadeError = std::sqrt(fadeError / n);
    std::printf("motion-vector blend RMS error %.6f, crossfade %.6f (largest motion %.2f px)\n",
                blendError, fadeError, moved);
    EXPECT_GT(moved, 1.0) << "the smoke moves";
    EXPECT_LT(blendError, fadeError);
}

// A still sheet of 16-bit PNG motion: mid-grey is 32768 of 65535.
TEST(FlipbookMotion, PngMotionIsSixteenBit) {
    const fs::path dir = scratchDir("flipbook_motion_png");
    writeFile(dir / "puff.toml", kPuff + kSheet);
    auto r = runPlume("render puff.toml -q --flipbook fb --set flipbook.motion=true", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const fs::path path = dir / "fb" / "puff_motion.png";
    EXPECT_TRUE(stbi_is_16_bit(path.string().c_str()));
    int w = 0, h = 0, channels = 0;
    stbi_us* data = stbi_load_16(path.string().c_str(), &w, &h, &channels, 3);
    ASSERT_NE(data, nullptr);
    EXPECT_EQ(w, kSide);
    EXPECT_EQ(data[0], 32768);
    EXPECT_EQ(data[1], 32768);
    stbi_image_free(data);
    const std::string json = slurp(dir / "fb" / "puff.json");
    EXPECT_NE(json.find("\"format\": \"RGB16\""), std::string::npos) << json;
}

// render-vdb reads the cache's velocity for the motion sheet: close to the
// sheet render makes (the cache's velocity is cell-centred, the solver's on
// the faces), and the lightmaps of an exact cache the same.
TEST(FlipbookMotion, RenderVdbMakesTheSameMaps) {
    const fs::path dir = scratchDir("flipbook_maps_render_vdb");
    writeFile(dir / "puff.toml", kPuff + kSheet + "kind = \"six_way\"\nmotion = true\n");
    auto r = runPlume(
        "render puff.toml -q --flipbook fb --vdb cache --set output.vdb_precision=exact", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("render-vdb cache --scene puff.toml -q --flipbook fb_vdb", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* sheet : {"puff_Positive.png", "puff_Negative.png"})
        EXPECT_EQ(slurp(dir / "fb" / sheet), slurp(dir / "fb_vdb" / sheet)) << sheet;
    int w = 0, h = 0, channels = 0;
    stbi_us* a =
        stbi_load_16((dir / "fb" / "puff_motion.png").string().c_str(), &w, &h, &channels, 3);
    stbi_us* b =
        stbi_load_16((dir / "fb_vdb" / "puff_motion.png").string().c_str(), &w, &h, &channels, 3);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    double squares = 0;
    int moving = 0;
    for (int i = 0; i < w * h * 3; ++i) {
        const double d = (double(a[i]) - double(b[i])) / 65535.0;
        squares += d * d;
        moving += i % 3 < 2 && b[i] != 32768;
    }
    stbi_image_free(a);
    stbi_image_free(b);
    EXPECT_GT(moving, 100) << "render-vdb's smoke moves";
    EXPECT_LT(std::sqrt(squares / (w * h * 3)), 0.01);
}

// Bad values: one line at the key, exit status 2, nothing written.
TEST(FlipbookMaps, BadValuesAreRefused) {
    const fs::path dir = scratchDir("flipbook_maps_refused");
    writeFile(dir / "puff.toml", kPuff + kSheet + "motion = true\nmotion_scale = -0.5\n");
    auto r = runPlume("render puff.toml -q --flipbook fb", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("puff.toml:28:16: error: 'flipbook.motion_scale'"), std::string::npos)
        << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    writeFile(dir / "puff.toml",
              kPuff + kSheet + "kind = \"six_way\"\n[render]\nview = \"density\"\n");
    r = runPlume("render puff.toml -q --flipbook fb", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "puff.toml:29:8: error: 'render.view': flipbook.kind = \"six_way\" renders the "
              "shaded smoke: it needs render.view = \"shaded\"\n");
    writeFile(dir / "puff.toml", kPuff + kSheet);
    for (const std::string set : {"flipbook.kind=four_way", "flipbook.motion=maybe"}) {
        r = runPlume("render puff.toml -q --flipbook fb --set " + set, dir);
        EXPECT_EQ(r.status, 2) << set;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << set << ": " << r.err;
    }
    EXPECT_FALSE(fs::exists(dir / "fb"));
}

}  // namespace
}  // namespace plume
