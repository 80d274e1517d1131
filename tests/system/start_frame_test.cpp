// time.start_frame: a studio's shot numbered from 1001 names its files
// NAME_1001.*, takes --frames 1001-..., keys and emitter.frames in those
// numbers, and writes them in the stats and progress lines; each frame is
// the very picture the same shot numbered from 1 gives.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/vdb_cache.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::listDir;
using test::runPlume;

// A small shot whose keys and emission window are numbered from `start`.
std::string shot(int start) {
    std::ostringstream s;
    s << "[domain]\nsize = [1.0, 1.0, 1.5]\nresolution = 20\nboundary = \"open\"\n"
      << "[time]\nframes = 6\nmax_substeps = 2\nstart_frame = " << start << "\n"
      << "[[emitter]]\nshape = \"sphere\"\nradius = 0.15\ntemperature = 1.5\nnoise = 0.3\n"
      << "center = [0.5, 0.5, 0.25]\nframes = [" << start << ", " << start + 3 << "]\n"
      << "[[emitter.key]]\nframe = " << start << "\ndensity = 1.0\n"
      << "[[emitter.key]]\nframe = " << start + 2.5 << "\ndensity = 3.0\n"
      << "[camera]\nposition = [0.5, -1.8, 0.75]\nlook_at = [0.5, 0.5, 0.7]\n"
      << "[[camera.key]]\nframe = " << start << "\nfov = 45\n"
      << "[[camera.key]]\nframe = " << start + 5 << "\nfov = 35\n"
      << "[render]\nwidth = 48\nheight = 28\n";
    return s.str();
}

std::string bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

fs::path writeShot(const fs::path& dir, int start) {
    fs::create_directories(dir);
    std::ofstream(dir / "shot.toml") << shot(start);
    return dir;
}

TEST(StartFrame, AShotFrom1001IsTheShotFrom1Renumbered) {
    const fs::path root = test::scratchDir("start_frame");
    const fs::path one = writeShot(root / "one", 1), studio = writeShot(root / "studio", 1001);
    const std::string outputs = " --png png --vdb cache --stats stats.csv --no-video";
    auto r = runPlume(
        "render shot.toml --frames 2-6" + outputs + " --set output.vdb_precision=exact", one);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume(
        "render shot.toml --frames 1002-1006" + outputs + " --set output.vdb_precision=exact",
        studio);
    ASSERT_EQ(r.status, 0) << r.err;

    // Files, by number, padded to four digits.
    EXPECT_EQ(listDir(studio / "png"),
              (std::vector<std::string>{"shot_1002.png", "shot_1003.png", "shot_1004.png",
                                        "shot_1005.png", "shot_1006.png"}));
    for (int f = 2; f <= 6; ++f) {
        const std::string from1 = "shot_000" + std::to_string(f);
        const std::string from1001 = "shot_100" + std::to_string(f);
        EXPECT_TRUE(bytes(one / "png" / (from1 + ".png")) ==
                    bytes(studio / "png" / (from1001 + ".png")))
            << from1001 << ".png differs from " << from1 << ".png";
        const CacheFrame a = readVdbFrame((one / "cache" / (from1 + ".vdb")).string());
        const CacheFrame b = readVdbFrame((studio / "cache" / (from1001 + ".vdb")).string());
        EXPECT_EQ(b.frame, 1000 + f);
        EXPECT_EQ(a.frame, f);
        ASSERT_EQ(a.density.size(), b.density.size());
        EXPECT_TRUE(
            std::equal(a.density.data(), a.density.data() + a.density.size(), b.density.data()))
            << from1001;
    }
    // The stats' frame column and the progress lines.
    std::ifstream stats(studio / "stats.csv");
    std::string header, row;
    std::getline(stats, header);
    std::getline(stats, row);
    EXPECT_EQ(row.substr(0, 5), "1001,") << row;  // simulated, not written: still a row
    EXPECT_NE(r.err.find("frame 1006/1006: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("frame 1001/1006: "), std::string::npos) << r.err;

    // render-vdb of the numbered cache with its scene: the same frames, the same names.
    r = runPlume("render-vdb 'cache/shot_####.vdb' --scene shot.toml --png again --no-video -q",
                 studio);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(listDir(studio / "again"), listDir(studio / "png"));
    EXPECT_TRUE(bytes(studio / "again" / "shot_1004.png") ==
                bytes(studio / "png" / "shot_1004.png"));
}

TEST(StartFrame, FramesOutsideTheShotAreUsageErrors) {
    const fs::path dir = writeShot(test::scratchDir("start_frame_errors"), 1001);
    auto r = runPlume("bake shot.toml --vdb c --frames 1-3", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "--frames 1-3: error: frames start at 1001 (time.start_frame)\n");
    r = runPlume("bake shot.toml --vdb c --frames 1004-1010", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "--frames 1004-1010: error: the scene's frames are 1001-1006 (time.start_frame, "
              "time.frames)\n");
    EXPECT_FALSE(fs::exists(dir / "c"));
    r = runPlume("check shot.toml --set time.start_frame=-5", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "--set time.start_frame=-5: error: 'time.start_frame' = -5 is out of range [0, "
              "1000000]\n");
    EXPECT_TRUE(r.out.empty());
}

TEST(StartFrame, ResumeAndUpresFollowTheNumbers) {
    const fs::path dir = writeShot(test::scratchDir("start_frame_resume"), 1001);
    auto r = runPlume("bake shot.toml --vdb whole -q --set output.vdb_precision=exact", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume(
        "bake shot.toml --vdb parts -q --frames 1001-1003 --set output.vdb_precision=exact", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("bake shot.toml --vdb parts --resume --set output.vdb_precision=exact", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("plume: resuming after frame 1003"), std::string::npos) << r.err;
    const CacheFrame a = readVdbFrame((dir / "whole" / "shot_1006.vdb").string());
    const CacheFrame b = readVdbFrame((dir / "parts" / "shot_1006.vdb").string());
    ASSERT_EQ(a.density.size(), b.density.size());
    EXPECT_TRUE(
        std::equal(a.density.data(), a.density.data() + a.density.size(), b.density.data()));

    // plume upres reads the sequence from the scene's first frame.
    r = runPlume("upres 'whole/shot_####.vdb' --scene shot.toml --factor 2 -o fine -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(listDir(dir / "fine").size(), 6u);
    EXPECT_TRUE(fs::exists(dir / "fine" / "shot_1001.vdb"));
    EXPECT_TRUE(fs::exists(dir / "fine" / "shot_1006.vdb"));
}

TEST(StartFrame, PaddingGrowsPastFourDigits) {
    const fs::path dir = writeShot(test::scratchDir("start_frame_padding"), 9998);
    auto r = runPlume("bake shot.toml --vdb c -q --set time.frames=3", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(listDir(dir / "c"), (std::vector<std::string>{"shot.resume", "shot_10000.vdb",
                                                            "shot_9998.vdb", "shot_9999.vdb"}));
}

}  // namespace
}  // namespace plume
