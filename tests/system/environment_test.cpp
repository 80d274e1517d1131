// [environment] through the real binary: a Radiance .hdr written here lights
// the smoke and shows as the background (both integrators), and a bad file
// is one line naming the scene's file:line:col and the key, exit status 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/png.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

// A w x h Radiance file of one colour, flat (uncompressed) scanlines.
void writeHdr(const fs::path& path, int w, int h, uint8_t r, uint8_t g, uint8_t b, uint8_t e) {
    std::ofstream out(path, std::ios::binary);
    out << "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y " << h << " +X " << w << "\n";
    for (int i = 0; i < w * h; ++i) out << char(r) << char(g) << char(b) << char(e);
}

std::string scene(const std::string& extra) {
    return R"(light = []
[domain]
size = [1.0, 1.0, 1.0]
resolution = 16
[time]
frames = 4
[[emitter]]
shape = "sphere"
center = [0.5, 0.5, 0.25]
radius = 0.15
density = 2.0
temperature = 1.0
[render]
width = 48
height = 32
samples = 4
)" + extra;
}

TEST(EnvironmentCli, AMapLightsTheSmokeAndShowsBehindIt) {
    const fs::path dir = test::scratchDir("environment_cli");
    // 128 with exponent 129: 1.0 in every channel (Radiance's mantissa/256 * 2^(e-128)).
    writeHdr(dir / "grey.hdr", 16, 8, 128, 128, 128, 129);
    for (const char* integrator : {"march", "path"}) {
        std::ofstream(dir / "s.toml") << scene(std::string("integrator = \"") + integrator +
                                               "\"\n[environment]\nfile = \"grey.hdr\"\n");
        const test::RunResult r = test::runPlume("render s.toml --png png --no-video --quiet", dir);
        ASSERT_EQ(r.status, 0) << integrator << ": " << r.err;
        const Image frame = readPng((dir / "png" / "s_0004.png").string());
        // The corner shows the map: radiance 1 through the tone curve, the
        // same grey in every channel, brighter than the default background.
        const uint8_t* corner = frame.pixel(0, 0);
        EXPECT_EQ(corner[0], corner[1]) << integrator;
        EXPECT_EQ(corner[1], corner[2]) << integrator;
        EXPECT_GT(corner[0], 150) << integrator;
        fs::remove_all(dir / "png");
    }
}

TEST(EnvironmentCli, ABadFileIsOneLineAtItsKey) {
    const fs::path dir = test::scratchDir("environment_bad");
    std::ofstream(dir / "bad.hdr") << "not a picture";
    const std::string text = scene("[environment]\nfile = \"bad.hdr\"\n");
    std::ofstream(dir / "s.toml") << text;
    const test::RunResult r = test::runPlume("render s.toml --png png --no-video --quiet", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    const int line = 1 + int(std::count(text.begin(), text.begin() + text.find("file ="), '\n'));
    EXPECT_NE(r.err.find("s.toml:" + std::to_string(line) + ":8: error: environment.file: "),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("bad.hdr"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "png")) << "a refused run makes no folder";

    std::ofstream(dir / "t.toml") << scene("[environment]\nrotation = 90\n");
    const test::RunResult missing = test::runPlume("check t.toml", dir);
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("'environment.file' is required"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace plume
