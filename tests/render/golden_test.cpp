// Golden frames: tiny scenes simulated and rendered end to end, each frame's
// SHA-256 over its 8-bit RGB pixels compared with the checked-in value.
//
// On a mismatch the test writes the actual frame and a difference image into
// golden_failures/ (beside the test binary) and prints the PSNR against the
// reference PNG. To accept a deliberate change of the picture:
//     PLUME_UPDATE_GOLDEN=1 build/tests/plume_tests --gtest_filter='Golden*'
// and commit tests/golden/ with a message that says why the picture changed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include "io/png.h"
#include "render/renderer.h"
#include "scene/loader.h"
#include "sim/solver.h"
#include "support/render_scene.h"
#include "support/sha256.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
const fs::path kGoldenDir = fs::path(PLUME_SOURCE_DIR) / "tests" / "golden";

// Simulates and renders every frame of a golden scene.
std::vector<Image> renderScene(const std::string& name) {
    return test::renderEveryFrame(loadScene((kGoldenDir / "scenes" / (name + ".toml")).string()));
}

std::map<int, std::string> readHashes(const fs::path& path) {
    std::map<int, std::string> hashes;
    std::ifstream in(path);
    int frame;
    std::string hash;
    while (in >> frame >> hash) hashes[frame] = hash;
    return hashes;
}

double psnr(const Image& a, const uint8_t* b) {
    double se = 0;
    for (size_t n = 0; n < a.pixels.size(); ++n) {
        double d = double(a.pixels[n]) - double(b[n]);
        se += d * d;
    }
    double mse = se / double(a.pixels.size());
    return mse == 0 ? INFINITY : 10.0 * std::log10(255.0 * 255.0 / mse);
}

// Only a deliberate PLUME_UPDATE_GOLDEN=1 rewrites the goldens; unset, 0 or
// anything else checks them.
bool updateRequested(const char* value) { return value != nullptr && std::string(value) == "1"; }

void checkGolden(const std::string& name) {
    std::vector<Image> frames = renderScene(name);
    ASSERT_FALSE(frames.empty());
    const fs::path hashFile = kGoldenDir / (name + ".sha256");
    const fs::path referencePng = kGoldenDir / (name + ".png");

    if (updateRequested(std::getenv("PLUME_UPDATE_GOLDEN"))) {
        std::ofstream out(hashFile);
        for (size_t i = 0; i < frames.size(); ++i)
            out << (i + 1) << " "
                << test::sha256Hex(frames[i].pixels.data(), frames[i].pixels.size()) << "\n";
        writePng(referencePng.string(), frames.back());
        GTEST_SKIP() << "updated " << hashFile;
    }

    std::map<int, std::string> expected = readHashes(hashFile);
    ASSERT_EQ(expected.size(), frames.size()) << "missing or short " << hashFile;
    bool lastDiffers = false;
    for (size_t i = 0; i < frames.size(); ++i) {
        int frame = int(i) + 1;
        std::string actual = test::sha256Hex(frames[i].pixels.data(), frames[i].pixels.size());
        EXPECT_EQ(expected[frame], actual) << name << " frame " << frame << " changed";
        if (frame == int(frames.size())) lastDiffers = expected[frame] != actual;
    }
    if (!lastDiffers) return;

    // Leave the evidence: the actual frame, a difference image, the PSNR.
    const Image& last = frames.back();
    fs::path failures = fs::current_path() / "golden_failures";
    fs::create_directories(failures);
    writePng((failures / (name + "_actual.png")).string(), last);
    int w = 0, h = 0, channels = 0;
    uint8_t* ref = stbi_load(referencePng.string().c_str(), &w, &h, &channels, 3);
    ASSERT_NE(ref, nullptr) << "cannot read " << referencePng;
    ASSERT_EQ(w, last.width);
    ASSERT_EQ(h, last.height);
    Image diff(w, h);
    for (size_t n = 0; n < diff.pixels.size(); ++n)
        diff.pixels[n] = uint8_t(std::min(255, 8 * std::abs(int(last.pixels[n]) - int(ref[n]))));
    writePng((failures / (name + "_diff.png")).string(), diff);
    ADD_FAILURE() << name << ": last frame PSNR " << psnr(last, ref) << " dB against "
                  << referencePng << "; actual and x8 difference written to " << failures;
    stbi_image_free(ref);
}

TEST(Golden, RisingPuff) { checkGolden("rising"); }
TEST(Golden, ObstacleWithTwoLights) { checkGolden("obstacle"); }
TEST(Golden, WindTunnel) { checkGolden("wind"); }
TEST(Golden, FireLightsItsSmokeAndTheGround) { checkGolden("fire"); }

TEST(Golden, UpdatedOnlyByUpdateGoldenOne) {
    EXPECT_TRUE(updateRequested("1"));
    for (const char* value : {"0", "", "yes", "true", "10"})
        EXPECT_FALSE(updateRequested(value)) << "PLUME_UPDATE_GOLDEN='" << value << "'";
    EXPECT_FALSE(updateRequested(nullptr));
}

TEST(Golden, Sha256MatchesTheStandard) {
    EXPECT_EQ(test::sha256Hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(test::sha256Hex(""),
              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

}  // namespace
}  // namespace plume
