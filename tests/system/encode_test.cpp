// plume encode, run as a user runs it: a frame sequence to the MP4 plume
// render writes, with missing frames and differing sizes refused.
#include "cli/encode.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::listDir;
using test::runPlume;
using test::scratchDir;

const std::string kScene = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/rising.toml";

// Every decoded frame of a video, as ffmpeg gives the H.264 pictures (yuv420p,
// no conversion): equal bytes here are equal decoded frames.
std::string decoded(const fs::path& video) {
    return test::capture("ffmpeg -v error -i '" + video.string() +
                         "' -f rawvideo -pix_fmt yuv420p - 2>/dev/null");
}

int frameCount(const fs::path& video) {
    const std::string probe = test::capture(
        "ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames "
        "-of default=nw=1:nk=1 '" +
        video.string() + "'");
    return probe.empty() ? -1 : std::stoi(probe);
}

TEST(Encode, MissingFramesAsText) {
    EXPECT_EQ(missingFrames({1, 2, 3}, 1, 3), "");
    EXPECT_EQ(missingFrames({1, 2, 4, 8}, 1, 10), "3, 5-7, 9-10");
    EXPECT_EQ(missingFrames({}, 2, 2), "2");
}

// The frames plume render writes beside its video, encoded afterwards, give
// the same decoded video: one tone map, one encoder, the same settings.
TEST(Encode, RenderPngsEncodeToTheVideoRenderWrites) {
    fs::path dir = scratchDir("encode_same");
    auto r = runPlume("render " + kScene + " -o direct.mp4 --png frames -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("encode 'frames/rising_####.png' -o out/encoded.mp4 --scene " + kScene + " -q",
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(listDir(dir / "out"), std::vector<std::string>{"encoded.mp4"});  // no temporary left
    EXPECT_EQ(frameCount(dir / "out" / "encoded.mp4"), 8);
    const std::string direct = decoded(dir / "direct.mp4"),
                      encoded = decoded(dir / "out/encoded.mp4");
    ASSERT_EQ(direct.size(), size_t(8 * 96 * 54 * 3 / 2));
    EXPECT_TRUE(direct == encoded) << "decoded frames differ from plume render's video";

    // The default frame rate and output settings are the scene defaults (24 fps).
    r = runPlume("encode 'frames/rising_####.png' -o plain.mp4 --fps 12 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(test::capture("ffprobe -v error -show_entries stream=r_frame_rate -of "
                            "default=nw=1 '" +
                            (dir / "plain.mp4").string() + "'")
                  .find("r_frame_rate=12/1"),
              std::string::npos);
}

// A folder is its one sequence, as render-vdb and upres take folders: the
// same video as its pattern gives; a folder of two sequences is refused.
TEST(Encode, AFolderIsItsOneSequence) {
    fs::path dir = scratchDir("encode_folder");
    auto r = runPlume("render " + kScene + " --no-video --png frames -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("encode frames -o folder.mp4 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("encode 'frames/rising_####.png' -o pattern.mp4 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(frameCount(dir / "folder.mp4"), 8);
    EXPECT_TRUE(decoded(dir / "folder.mp4") == decoded(dir / "pattern.mp4"));

    fs::copy_file(dir / "frames" / "rising_0001.png", dir / "frames" / "other_0001.png");
    r = runPlume("encode frames -o two.mp4", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "'frames': error: holds more than one sequence (other_####.png, rising_####.png); "
              "pass one as a pattern, e.g. 'frames/other_####.png'\n");
    EXPECT_FALSE(fs::exists(dir / "two.mp4"));
}

// Linear EXR frames are tone-mapped as render tone-maps; only their half-float
// rounding separates the video from plume render's.
TEST(Encode, ExrFramesAreToneMappedLikeRender) {
    fs::path dir = scratchDir("encode_exr");
    auto r = runPlume("render " + kScene + " -o direct.mp4 --exr exr --frames 1-4 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("encode 'exr/rising_####.exr' -o encoded.mp4 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string direct = decoded(dir / "direct.mp4"), encoded = decoded(dir / "encoded.mp4");
    ASSERT_EQ(direct.size(), encoded.size());
    ASSERT_FALSE(direct.empty());
    double sum = 0;
    for (size_t i = 0; i < direct.size(); ++i)
        sum += std::abs(int(uint8_t(direct[i])) - int(uint8_t(encoded[i])));
    EXPECT_LT(sum / double(direct.size()), 0.5);
}

// The exposure travels with the frame: an EXR from a run at render.exposure
// 0.6 encodes, without its scene, to that run's video (the header's
// plume_exposure); a --set of its own still wins.
TEST(Encode, AnExrFramesExposureTravelsInItsHeader) {
    fs::path dir = scratchDir("encode_exr_exposure");
    auto r = runPlume("render " + kScene +
                          " -o direct.mp4 --exr exr --frames 1-4 --set render.exposure=0.6 -q",
                      dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(test::capture("oiiotool --info -v '" + (dir / "exr/rising_0004.exr").string() + "' 2>&1").find("plume_exposure: 0.6"),
              std::string::npos);
    auto meanDifference = [&](const std::string& video) {
        const std::string a = decoded(dir / "direct.mp4"), b = decoded(dir / video);
        EXPECT_EQ(a.size(), b.size());
        double sum = 0;
        for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
            sum += std::abs(int(uint8_t(a[i])) - int(uint8_t(b[i])));
        return sum / double(std::max<size_t>(1, a.size()));
    };
    r = runPlume("encode 'exr/rising_####.exr' -o encoded.mp4 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_LT(meanDifference("encoded.mp4"), 0.5);
    r = runPlume("encode 'exr/rising_####.exr' -o darker.mp4 --set render.exposure=0.2 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_GT(meanDifference("darker.mp4"), 2.0);
}

TEST(Encode, MissingFramesAreNamedAndNothingIsWritten) {
    fs::path dir = scratchDir("encode_missing");
    auto r = runPlume("render " + kScene + " -o direct.mp4 --png frames --frames 1-8 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* gone : {"rising_0003.png", "rising_0005.png", "rising_0006.png"})
        fs::remove(dir / "frames" / gone);
    r = runPlume("encode 'frames/rising_####.png' -o out.mp4", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "plume encode: error: 'frames/rising_####.png' lacks frames 3, 5-6 (of 1-8)\n");
    // --frames names the frames expected past the last one found, too.
    r = runPlume("encode 'frames/rising_####.png' -o out.mp4 --frames 7-10", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "plume encode: error: 'frames/rising_####.png' lacks frames 9-10 (of 7-10)\n");
    r = runPlume("encode 'nowhere/x_####.png' -o out.mp4", dir);
    EXPECT_EQ(r.status, 2);  // a pattern that matches nothing is a usage error
    EXPECT_NE(r.err.find("no PNG files match 'nowhere/x_####.png'"), std::string::npos) << r.err;
    r = runPlume("encode 'frames/rising_####.jpg' -o out.mp4", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_FALSE(fs::exists(dir / "out.mp4"));
}

TEST(Encode, DifferingSizesAreRefusedAndNothingIsWritten) {
    fs::path dir = scratchDir("encode_sizes");
    auto r = runPlume("render " + kScene + " -o a.mp4 --png frames --frames 1-4 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("render " + kScene +
                     " -o b.mp4 --png small --frames 1-4 --set render.width=48"
                     " --set render.height=28 -q",
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    fs::copy_file(dir / "small" / "rising_0003.png", dir / "frames" / "rising_0003.png",
                  fs::copy_options::overwrite_existing);
    fs::create_directories(dir / "out");
    r = runPlume("encode 'frames/rising_####.png' -o out/x.mp4", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "plume encode: error: 'frames/rising_0003.png' is 48x28, 'frames/rising_0001.png' "
              "96x54: every frame must have one size\n");
    EXPECT_EQ(listDir(dir / "out"), std::vector<std::string>{});  // no half video, no temporary
}

// Several sequences tile side by side, each labelled (the wedges' video).
TEST(Encode, SequencesTileSideBySideWithLabels) {
    fs::path dir = scratchDir("encode_tile");
    auto r = runPlume("render " + kScene + " -o a.mp4 --png a --frames 1-2 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("render " + kScene + " -o b.mp4 --png b --frames 1-2 --set physics.vorticity=0 -q",
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume(
        "encode 'a/rising_####.png' 'b/rising_####.png' --label vorticity=0.4 --label "
        "vorticity=0 -o tiled.mp4 -q",
        dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string probe = test::capture(
        "ffprobe -v error -count_frames -show_entries stream=width,height,nb_read_frames -of "
        "default=nw=1 '" +
        (dir / "tiled.mp4").string() + "'");
    EXPECT_NE(probe.find("width=192\nheight=54"), std::string::npos) << probe;
    EXPECT_NE(probe.find("nb_read_frames=2"), std::string::npos) << probe;
    // The label: near-white letters on a near-black box in each tile's corner,
    // where the frames themselves hold only the background's greys.
    const std::string grey = test::capture("ffmpeg -v error -i '" + (dir / "tiled.mp4").string() +
                                           "' -frames:v 1 -f rawvideo -pix_fmt gray - 2>/dev/null");
    ASSERT_EQ(grey.size(), size_t(192 * 54));
    for (int tile = 0; tile < 2; ++tile) {
        int bright = 0, dark = 0;
        for (int y = 2; y < 9; ++y)
            for (int x = 2; x < 60; ++x) {
                const int v = uint8_t(grey[size_t(y) * 192 + tile * 96 + x]);
                bright += v > 180;
                dark += v < 50;
            }
        EXPECT_GT(bright, 40) << "tile " << tile << " has no label";
        EXPECT_GT(dark, 40) << "tile " << tile << " has no label box";
    }
    r = runPlume("encode 'a/rising_####.png' 'b/rising_####.png' --label one -o x.mp4", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "plume encode: error: 1 --label for 2 sequences\n");
}

}  // namespace
}  // namespace plume
