// output.color_space: EXR frames in a working space through OpenColorIO, read
// back by readers that are not plume (oiiotool, ocioconvert) and converted
// back to linear Rec. 709 with the standard matrix or plume's shipped config.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::runPlume;
using test::scratchDir;

const std::string kRising = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/rising.toml";
const std::string kFire = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/fire.toml";
const std::string kShipped =
    (fs::path(PLUME_BINARY).parent_path() / "share" / "plume" / "plume.ocio").string();

// ACEScg (AP1, D60) to linear Rec. 709 (D65), Bradford: the ACES project's matrix.
const std::string kAp1ToRec709 =
    "1.70505,-0.62179,-0.08326,-0.13026,1.14080,-0.01055,-0.02400,-0.12897,1.15297";

std::string small(int resolution, int frames, const std::vector<std::string>& extra = {}) {
    std::string args = " --set domain.resolution=" + std::to_string(resolution) +
                       " --set render.width=64 --set render.height=36 --set time.frames=" +
                       std::to_string(frames) + " --frames " + std::to_string(frames);
    for (const std::string& set : extra) args += " --set '" + set + "'";
    return args + " -q --no-video";
}

bool haveTool(const char* tool) {
    if (std::system(("command -v " + std::string(tool) + " >/dev/null 2>&1").c_str()) == 0)
        return true;
    return false;
}

#define REQUIRE_TOOL(tool, package)                                                         \
    if (!haveTool(tool)) {                                                                  \
        const std::string why = std::string(tool) + " is not installed (" package ")";      \
        if (test::requireAll()) FAIL() << why << " (PLUME_REQUIRE_ALL=1: nothing skipped)"; \
        GTEST_SKIP() << why;                                                                \
    }

// Every channel of an image as oiiotool dumps it, by channel name.
std::map<std::string, std::vector<float>> oiioChannels(const fs::path& file) {
    const std::string dump =
        test::capture("oiiotool --info -v --dumpdata '" + file.string() + "' 2>&1");
    std::istringstream lines(dump);
    std::vector<std::string> names;
    std::map<std::string, std::vector<float>> out;
    for (std::string line; std::getline(lines, line);) {
        if (const size_t at = line.find("channel list: "); at != std::string::npos) {
            std::istringstream list(line.substr(at + 14));
            // "R, G" or, with mixed types, "R (half), depth.Z (float)".
            for (std::string name; std::getline(list, name, ',');) {
                name = name.substr(name.find_first_not_of(' '));
                names.push_back(name.substr(0, name.find(" (")));
            }
            continue;
        }
        const size_t colon = line.find("):");
        if (line.find("Pixel (") == std::string::npos || colon == std::string::npos) continue;
        std::istringstream values(line.substr(colon + 2));
        for (const std::string& name : names) {
            float v = 0;
            values >> v;
            out[name].push_back(v);
        }
    }
    return out;
}

// The red, green and blue channels of `layer` ("" for the beauty) as oiiotool
// reads them: interleaved RGB.
std::vector<float> rgbOf(const std::map<std::string, std::vector<float>>& channels,
                         const std::string& layer) {
    const std::string prefix = layer.empty() ? "" : layer + ".";
    std::vector<float> out;
    const auto& r = channels.at(prefix + "R");
    const auto& g = channels.at(prefix + "G");
    const auto& b = channels.at(prefix + "B");
    for (size_t i = 0; i < r.size(); ++i) out.insert(out.end(), {r[i], g[i], b[i]});
    return out;
}

float luminance(const float* c) { return 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2]; }

// Within 1% a channel (of the pixel's largest channel, and a floor for black
// pixels): where nothing leaves Rec. 709's gamut the two spaces hold one light.
void expectSameLight(const std::vector<float>& actual, const std::vector<float>& expected,
                     const std::string& what) {
    ASSERT_EQ(actual.size(), expected.size()) << what;
    ASSERT_FALSE(actual.empty()) << what;
    int bad = 0;
    for (size_t p = 0; p < actual.size() / 3 && bad < 5; ++p) {
        const float* a = &actual[p * 3];
        const float* e = &expected[p * 3];
        const float scale = std::max({e[0], e[1], e[2], 1e-2f});
        for (int c = 0; c < 3; ++c)
            if (std::fabs(a[c] - e[c]) > 0.01f * scale) {
                ++bad;
                ADD_FAILURE() << what << ": pixel " << p << " channel " << c << " is " << a[c]
                              << " back in Rec. 709, the default EXR's " << e[c];
            }
    }
}

// A flame's low temperatures lie outside Rec. 709 but inside AP1: the default
// clips them to Rec. 709's gamut at its luminance, ACEScg keeps them; and the
// soot's colour times the flame's light is a product taken in other
// primaries. The light is the same: each channel's mean within 1%, each
// pixel's luminance within 5% (the flame's dim deep-red edge differs most,
// by up to 4%; everywhere else within 1%).
void expectSameLuminance(const std::vector<float>& actual, const std::vector<float>& expected,
                         const std::string& what) {
    ASSERT_EQ(actual.size(), expected.size()) << what;
    int bad = 0;
    double sumA[3] = {0, 0, 0}, sumE[3] = {0, 0, 0};
    for (size_t p = 0; p < actual.size() / 3; ++p) {
        const float ya = luminance(&actual[p * 3]), ye = luminance(&expected[p * 3]);
        for (int c = 0; c < 3; ++c) sumA[c] += actual[p * 3 + c], sumE[c] += expected[p * 3 + c];
        if (std::fabs(ya - ye) > 0.05f * std::max(ye, 1e-2f) && ++bad <= 5)
            ADD_FAILURE() << what << ": pixel " << p << "'s luminance is " << ya
                          << " back in Rec. 709, the default EXR's " << ye;
    }
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(sumA[c], sumE[c], 0.01 * sumE[c]) << what << ": channel " << c << "'s mean";
}

struct Pair {
    fs::path rec709, acescg;
};

// One scene rendered twice, in the default space and in ACEScg.
Pair renderBoth(const std::string& name, const std::string& scene, int resolution, int frames,
                const std::vector<std::string>& extra = {}) {
    const fs::path dir = scratchDir("color_space_" + name);
    const std::string stem = fs::path(scene).stem().string();
    char number[16];
    std::snprintf(number, sizeof number, "_%04d.exr", frames);
    auto r =
        runPlume("render " + scene + " --exr d" + small(resolution, frames, extra), dir, "-u OCIO");
    EXPECT_EQ(r.status, 0) << r.err;
    std::vector<std::string> aces = extra;
    aces.push_back("output.color_space=acescg");
    r = runPlume("render " + scene + " --exr a" + small(resolution, frames, aces), dir, "-u OCIO");
    EXPECT_EQ(r.status, 0) << r.err;
    return {dir / "d" / (stem + number), dir / "a" / (stem + number)};
}

// oiiotool applies the standard AP1 to Rec. 709 matrix to the ACEScg frame
// (beauty and every light layer); the result is the default frame's.
TEST(ColorSpace, AcescgExrBackThroughTheAp1MatrixIsTheDefaultExr) {
    REQUIRE_TOOL("oiiotool", "openimageio-tools");
    const Pair p = renderBoth("matrix", kRising, 16, 3, {"render.passes=all"});
    const fs::path back = p.acescg.parent_path() / "back.exr";
    ASSERT_EQ(std::system(("oiiotool '" + p.acescg.string() + "' --ccmatrix:transpose=1 " +
                           kAp1ToRec709 + " -d float -o '" + back.string() + "'")
                              .c_str()),
              0);
    const auto d = oiioChannels(p.rec709), a = oiioChannels(p.acescg), b = oiioChannels(back);
    expectSameLight(rgbOf(b, ""), rgbOf(d, ""), "beauty");
    // The ACEScg frame's numbers are not Rec. 709's (the conversion happened).
    EXPECT_GT(std::fabs(rgbOf(a, "")[0] - rgbOf(d, "")[0]), 1e-3f);
    // The layers: oiiotool's --ccmatrix converts R, G, B only, so each layer's
    // channels by hand with the same matrix.
    const float m[9] = {1.70505f,  -0.62179f, -0.08326f, -0.13026f, 1.14080f,
                        -0.01055f, -0.02400f, -0.12897f, 1.15297f};
    int layers = 0;
    for (const auto& [name, values] : a) {
        if (name.size() < 2 || name.substr(name.size() - 2) != ".R") continue;
        const std::string layer = name.substr(0, name.size() - 2);
        std::vector<float> rgb = rgbOf(a, layer), converted(rgb.size());
        for (size_t i = 0; i < rgb.size(); i += 3)
            for (int r = 0; r < 3; ++r)
                converted[i + r] =
                    m[r * 3] * rgb[i] + m[r * 3 + 1] * rgb[i + 1] + m[r * 3 + 2] * rgb[i + 2];
        expectSameLight(converted, rgbOf(d, layer), layer);
        ++layers;
    }
    EXPECT_GE(layers, 3) << "render.passes=all gives emission, light_1, sky, fire_light";
    // Depth is not colour: the same metres in both.
    EXPECT_EQ(a.at("depth.Z"), d.at("depth.Z"));
}

// A fire: the blackbody is made in AP1 from its XYZ, so ACEScg holds the flame's
// reds that Rec. 709 cannot; the light, back in Rec. 709, is the default's.
TEST(ColorSpace, AcescgFireHoldsTheDefaultFiresLight) {
    REQUIRE_TOOL("oiiotool", "openimageio-tools");
    const Pair p = renderBoth("fire", kFire, 24, 8);
    const fs::path back = p.acescg.parent_path() / "back.exr";
    ASSERT_EQ(std::system(("oiiotool '" + p.acescg.string() + "' --ccmatrix:transpose=1 " +
                           kAp1ToRec709 + " -d float -o '" + back.string() + "'")
                              .c_str()),
              0);
    expectSameLuminance(rgbOf(oiioChannels(back), ""), rgbOf(oiioChannels(p.rec709), ""), "fire");
}

// The header names AP1 with ACES' D60 white, as oiiotool reads it, and keeps
// the frame rate; the default stays Rec. 709 with D65.
TEST(ColorSpace, AcescgHeaderSaysAp1) {
    REQUIRE_TOOL("oiiotool", "openimageio-tools");
    const Pair p = renderBoth("header", kRising, 16, 2);
    const std::string aces = test::capture("oiiotool --info -v '" + p.acescg.string() + "' 2>&1");
    EXPECT_NE(aces.find("chromaticities: 0.713, 0.293, 0.165, 0.83, 0.128, 0.044, 0.32168, "
                        "0.33767"),
              std::string::npos)
        << aces;
    EXPECT_NE(aces.find("framesPerSecond: 24/1"), std::string::npos) << aces;
    const std::string rec = test::capture("oiiotool --info -v '" + p.rec709.string() + "' 2>&1");
    EXPECT_NE(rec.find("chromaticities: 0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 0.329"),
              std::string::npos)
        << rec;
}

// The deep frames (--deep) are in the working space too, and their header says so.
TEST(ColorSpace, AcescgDeepHeaderSaysAp1) {
    REQUIRE_TOOL("oiiotool", "openimageio-tools");
    const fs::path dir = scratchDir("color_space_deep");
    const auto r = runPlume("render " + kRising + " --no-video --deep deep" +
                                small(16, 1, {"output.color_space=acescg"}),
                            dir, "-u OCIO");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string info = test::capture("oiiotool --info -v '" +
                                           (dir / "deep" / "rising_0001.exr").string() + "' 2>&1");
    EXPECT_NE(info.find("chromaticities: 0.713, 0.293, 0.165, 0.83, 0.128, 0.044, 0.32168, "
                        "0.33767"),
              std::string::npos)
        << info;
}

// ocioconvert (OpenColorIO's own tool) with the config plume ships takes the
// ACEScg frame back to the default one.
TEST(ColorSpace, OcioconvertWithTheShippedConfigRoundTrips) {
    REQUIRE_TOOL("ocioconvert", "opencolorio-tools");
    REQUIRE_TOOL("oiiotool", "openimageio-tools");
    ASSERT_TRUE(fs::exists(kShipped)) << kShipped;
    const Pair p = renderBoth("ocioconvert", kRising, 16, 3);
    const fs::path back = p.acescg.parent_path() / "back.exr";
    const std::string cmd = "OCIO='" + kShipped + "' ocioconvert '" + p.acescg.string() +
                            "' acescg '" + back.string() + "' lin_rec709 >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    expectSameLight(rgbOf(oiioChannels(back), ""), rgbOf(oiioChannels(p.rec709), ""),
                    "ocioconvert");
}

// A studio's config named by $OCIO: its own space name (which plume's config
// lacks) is taken, related to plume's through the aces_interchange role; the
// frame is that space's (here AP1 at twice the exposure: twice ACEScg's).
TEST(ColorSpace, StudioConfigFromOcioIsUsed) {
    const fs::path dir = scratchDir("color_space_studio");
    {
        std::ofstream config(dir / "studio.ocio");
        config << R"(ocio_profile_version: 2.1
search_path: ""
roles:
  aces_interchange: ACES2065-1
  default: ACES2065-1
  scene_linear: plate_lin
file_rules:
  - !<Rule> {name: Default, colorspace: default}
displays:
  sRGB:
    - !<View> {name: Raw, colorspace: ACES2065-1}
colorspaces:
  - !<ColorSpace>
    name: ACES2065-1
    isdata: false
  - !<ColorSpace>
    name: plate_lin
    isdata: false
    from_scene_reference: !<GroupTransform>
      children:
        - !<MatrixTransform> {matrix: [1.4514393161, -0.2365107469, -0.2149285693, 0, -0.0765537734, 1.1762296998, -0.0996759264, 0, 0.0083161484, -0.0060324498, 0.9977163014, 0, 0, 0, 0, 1]}
        - !<MatrixTransform> {matrix: [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1]}
)";
    }
    const std::string studio = "OCIO='" + (dir / "studio.ocio").string() + "'";
    auto r =
        runPlume("render " + kRising + " --exr s" + small(16, 2, {"output.color_space=plate_lin"}),
                 dir, studio);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("render " + kRising + " --exr a" + small(16, 2, {"output.color_space=acescg"}),
                 dir, "-u OCIO");
    ASSERT_EQ(r.status, 0) << r.err;
    if (haveTool("oiiotool")) {
        const auto s = rgbOf(oiioChannels(dir / "s" / "rising_0002.exr"), "");
        auto a = rgbOf(oiioChannels(dir / "a" / "rising_0002.exr"), "");
        for (float& v : a) v *= 2.0f;
        expectSameLight(s, a, "plate_lin");
    }
    // Without $OCIO the name is unknown; with it, plume's own names are not the studio's.
    r = runPlume("render " + kRising + " --exr n" + small(16, 2, {"output.color_space=plate_lin"}),
                 dir, "-u OCIO");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("plume's config has no such colour space"), std::string::npos) << r.err;
    r = runPlume("render " + kRising + " --exr n" + small(16, 2, {"output.color_space=acescg"}),
                 dir, studio);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("studio.ocio has no such colour space"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "n"));
}

// A name no config holds: one line at its place in the scene file, exit 2,
// nothing written.
TEST(ColorSpace, UnknownNameIsOneLineAtItsPlace) {
    const fs::path dir = scratchDir("color_space_bad");
    std::ofstream(dir / "bad.toml") << "[domain]\nresolution = 16\n\n[output]\n"
                                       "color_space = \"acesgc\"\n";
    for (const std::string& env : {std::string("-u OCIO"), "OCIO='" + kShipped + "'"}) {
        auto r = runPlume("render bad.toml --exr exr --png png -o out.mp4 -q", dir, env);
        EXPECT_EQ(r.status, 2) << env;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_EQ(r.err.rfind("bad.toml:5:15: error: 'output.color_space' = \"acesgc\": ", 0), 0)
            << r.err;
        EXPECT_FALSE(fs::exists(dir / "exr"));
        EXPECT_FALSE(fs::exists(dir / "png"));
        EXPECT_FALSE(fs::exists(dir / "out.mp4"));
        // plume check says the same.
        r = runPlume("check bad.toml", dir, env);
        EXPECT_EQ(r.status, 2) << env;
        EXPECT_EQ(r.err.rfind("bad.toml:5:15: error: ", 0), 0) << r.err;
    }
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// The chunk types of a PNG file in order, read from its bytes.
std::vector<std::string> pngChunks(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> chunks;
    for (size_t at = 8; at + 8 <= bytes.size();) {
        const auto b = [&](size_t i) { return std::uint32_t(std::uint8_t(bytes[at + i])); };
        const std::uint32_t length = b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
        chunks.push_back(bytes.substr(at + 4, 4));
        at += 12 + size_t(length);
    }
    return chunks;
}

// PNG frames stay display-referred sRGB in every working space, and say so:
// the sRGB chunk, with the gAMA and cHRM the PNG specification pairs with it,
// before the pixels.
TEST(ColorSpace, PngFramesAreTaggedSrgb) {
    const fs::path dir = scratchDir("color_space_png");
    auto r =
        runPlume("render " + kRising + " --png png" + small(16, 1, {"output.color_space=acescg"}),
                 dir, "-u OCIO");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<std::string> chunks = pngChunks(dir / "png" / "rising_0001.png");
    const auto idat = std::find(chunks.begin(), chunks.end(), "IDAT");
    for (const char* tag : {"sRGB", "gAMA", "cHRM"})
        EXPECT_NE(std::find(chunks.begin(), idat, tag), idat) << tag << " missing before IDAT";
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// plume encode reads an EXR's space from its header: ACEScg frames make the
// video the default frames make (ffmpeg's PSNR between the two decoded).
TEST(ColorSpace, EncodeTakesAcescgFramesBackToRec709) {
    REQUIRE_TOOL("ffmpeg", "ffmpeg");
    // A saturated background, which ACEScg's numbers and Rec. 709's tell apart.
    const Pair p = renderBoth("encode", kRising, 16, 3, {"render.background=[0.05, 0.4, 0.9]"});
    const fs::path dir = p.rec709.parent_path().parent_path();
    ASSERT_EQ(runPlume("encode d -o d.mp4 -q", dir).status, 0);
    ASSERT_EQ(runPlume("encode a -o a.mp4 -q", dir).status, 0);
    const std::string log =
        test::capture("ffmpeg -nostdin -i '" + (dir / "d.mp4").string() + "' -i '" +
                      (dir / "a.mp4").string() + "' -lavfi psnr -f null - 2>&1");
    const size_t at = log.rfind("average:");
    ASSERT_NE(at, std::string::npos) << log;
    const std::string value = log.substr(at + 8, log.find(' ', at) - at - 8);
    EXPECT_TRUE(value == "inf" || std::stod(value) > 50.0) << log.substr(at);
}

}  // namespace
}  // namespace plume
