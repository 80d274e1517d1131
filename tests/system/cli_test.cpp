// The real plume binary, run as a user runs it: exit statuses, messages, files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/vdb_cache.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::listDir;
using test::runPlume;
using test::scratchDir;

const std::string kGolden = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/";

int countLines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

TEST(Cli, BakeWritesABlenderStyleSequence) {
    fs::path dir = scratchDir("cli_bake");
    auto r = runPlume(
        "bake " + kGolden + "rising.toml --vdb cache --frames 2-4 --stats stats.csv --quiet", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    std::vector<std::string> files = listDir(dir / "cache");
    EXPECT_EQ(files, (std::vector<std::string>{"rising.resume", "rising_0002.vdb",
                                               "rising_0003.vdb", "rising_0004.vdb"}));
    std::ifstream csv(dir / "stats.csv");
    std::string header;
    std::getline(csv, header);
    EXPECT_EQ(header.rfind("frame,substeps,pressure_iterations,", 0), 0u) << header;
    EXPECT_NE(header.find("sim_s,render_s"), std::string::npos);
    // The cells the solver held, the eighth column (before the field totals).
    EXPECT_NE(header.find(",write_s,cells,"), std::string::npos) << header;
    auto column = [](const std::string& line, int index) {
        size_t at = 0;
        for (int c = 0; c < index; ++c) at = line.find(',', at) + 1;
        return line.substr(at, line.find(',', at) - at);
    };
    int rows = 0;
    for (std::string line; std::getline(csv, line);) {
        ++rows;
        // The cells the solver held: some, at most the domain's.
        const long long cells = std::stoll(column(line, 7));
        EXPECT_GT(cells, 0) << line;
        EXPECT_LE(cells, 16LL * 16 * 24) << line;  // rising.toml: 16x16x24
        // Smoke in the domain (density x m^3: the emitter's sphere holds at
        // most 4/3 pi 0.15^3 = 0.014 a frame), no fuel, and a flow that moves.
        EXPECT_TRUE(header.ends_with(",smoke,fuel,peak_speed,read_s,sparks")) << header;
        const double smoke = std::stod(column(line, 8));
        EXPECT_GT(smoke, 0.0) << line;
        EXPECT_LT(smoke, 0.1) << line;
        EXPECT_EQ(column(line, 9), "0") << line;
        EXPECT_GT(std::stod(column(line, 10)), 0.0) << line;
    }
    EXPECT_EQ(rows, 4);  // frames 1-4 were simulated
}

TEST(Cli, ProgressLinesWhenNotATerminal) {
    fs::path dir = scratchDir("cli_progress");
    auto r = runPlume("bake " + kGolden + "rising.toml --vdb cache --frames 1-2", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(countLines(r.err), 3) << r.err;  // two frames and the closing line
    EXPECT_NE(r.err.find("frame 2/8"), std::string::npos) << r.err;  // of the shot's 8
}

// The last line of text, without its newline.
std::string lastLine(std::string text) {
    if (text.ends_with('\n')) text.pop_back();
    return text.substr(text.rfind('\n') + 1);  // npos + 1: the whole text
}

// "... in 12.3 s" -> "... in T s", so the closing line compares exactly.
std::string withoutTime(const std::string& line) {
    const size_t in = line.rfind(" in ");
    if (in == std::string::npos || !line.ends_with(" s")) return line;
    const std::string time = line.substr(in + 4, line.size() - in - 6);
    const bool number = !time.empty() && time.find_first_not_of("0123456789.") == std::string::npos;
    return number ? line.substr(0, in) + " in T s" : line;
}

// As ffmpeg and Blender end: one line naming what was written and the time.
TEST(Cli, RenderClosesWithWhatItWroteAndNothingWhenQuiet) {
    fs::path dir = scratchDir("cli_closing_line");
    auto r = runPlume("render " + kGolden +
                          "rising.toml -o out.mp4 --png frames --vdb cache --stats stats.csv "
                          "--frames 2-3",
                      dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(withoutTime(lastLine(r.err)),
              "plume: wrote out.mp4 (2 frames, 96x54), 2 VDB frames to cache/, 2 PNG frames to "
              "frames/, the statistics to stats.csv in T s")
        << r.err;
    EXPECT_EQ(countLines(r.err), 4) << r.err;  // three frames simulated, the closing line

    r = runPlume("bake " + kGolden + "rising.toml --vdb cache --frames 1", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    // The resume state is named with its size, what it is for and how to drop it.
    const std::string closing = withoutTime(lastLine(r.err));
    EXPECT_TRUE(closing.starts_with("plume: wrote 1 VDB frame to cache/, the resume state to "
                                    "cache/rising.resume (0."))
        << r.err;
    EXPECT_TRUE(closing.ends_with(
        " MB: bake --resume goes on from it; delete it once the cache is final) in T s"))
        << r.err;

    r = runPlume("render-vdb 'cache/rising_####.vdb' -o again.mp4 --scene " + kGolden +
                     "rising.toml --exr exr",
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(withoutTime(lastLine(r.err)),
              "plume: wrote again.mp4 (3 frames, 96x54), 3 EXR frames to exr/ in T s")
        << r.err;

    r = runPlume("encode 'frames/rising_####.png' -o encoded.mp4", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_EQ(withoutTime(lastLine(r.err)),
              "plume: wrote encoded.mp4 (2 frames, 96x54) from frames 2-3 in T s");

    for (const std::string& quiet : std::vector<std::string>{
             "render " + kGolden + "rising.toml -o q.mp4 --png qframes --frames 1 -q",
             "bake " + kGolden + "rising.toml --vdb qcache --frames 1 -q",
             "encode 'frames/rising_####.png' -o q2.mp4 -q"}) {
        r = runPlume(quiet, dir);
        ASSERT_EQ(r.status, 0) << quiet << ": " << r.err;
        EXPECT_EQ(r.err, "") << quiet;
    }
}

TEST(Cli, SameCacheForAnyThreadCount) {
    fs::path dir = scratchDir("cli_threads");
    ASSERT_EQ(runPlume("bake " + kGolden + "obstacle.toml --vdb one --frames 4 --threads 1 -q", dir)
                  .status,
              0);
    ASSERT_EQ(
        runPlume("bake " + kGolden + "obstacle.toml --vdb three --frames 4 --threads 3 -q", dir)
            .status,
        0);
    LoadedVolume a = readVdbVolume((dir / "one" / "obstacle_0004.vdb").string());
    LoadedVolume b = readVdbVolume((dir / "three" / "obstacle_0004.vdb").string());
    ASSERT_EQ(a.density.size(), b.density.size());
    EXPECT_GT(a.density.size(), 0u);
    EXPECT_EQ(a.density.values(), b.density.values());
}

TEST(Cli, BadSceneIsOneLineExitTwoAndWritesNothing) {
    fs::path dir = scratchDir("cli_bad");
    std::ofstream(dir / "bad.toml") << "[domain]\nresolution = 32\n\n[physics]\nvorticty = 0.3\n";
    auto r = runPlume("bake bad.toml --vdb cache", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "bad.toml:5:1: error: unknown key 'physics.vorticty' (did you mean "
              "'physics.vorticity'?)\n");
    EXPECT_FALSE(fs::exists(dir / "cache"));
}

// The schema as JSON, for the Blender add-on (src/blender/): every key of the
// Markdown reference, with its default and range as numbers.
TEST(Cli, ReferenceAsJsonHasEveryKey) {
    fs::path dir = scratchDir("cli_reference_json");
    auto markdown = runPlume("check --reference", dir);
    auto json = runPlume("check --reference --reference-format json", dir);
    ASSERT_EQ(json.status, 0) << json.err;
    EXPECT_EQ(json.out.rfind("{\n  \"sections\": [", 0), 0u) << json.out.substr(0, 80);
    EXPECT_NE(json.out.find("{\"section\": \"domain\", \"key\": \"resolution\", \"type\": "
                            "\"integer\", \"default\": 64, \"min\": 8, \"max\": 1024"),
              std::string::npos);
    EXPECT_NE(json.out.find("\"key\": \"boundary.z_min\", \"type\": \"choice\", \"default\": "
                            "\"wall\", \"min\": null, \"max\": null"),
              std::string::npos);
    std::size_t rows = 0, keys = 0;
    for (std::size_t p = 0; (p = markdown.out.find("\n| `", p)) != std::string::npos; ++p) ++rows;
    for (std::size_t p = 0; (p = json.out.find("\"key\": ", p)) != std::string::npos; ++p) ++keys;
    EXPECT_GT(rows, 100u);
    EXPECT_EQ(keys, rows);
    auto bad = runPlume("check --reference --reference-format yaml", dir);
    EXPECT_NE(bad.status, 0);
}

TEST(Cli, MissingSceneNamesItsPath) {
    fs::path dir = scratchDir("cli_missing");
    auto r = runPlume("render nowhere.toml", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("nowhere.toml"), std::string::npos) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
}

TEST(Cli, BadSetAndFramesAreUsageErrors) {
    fs::path dir = scratchDir("cli_usage");
    auto r = runPlume("bake " + kGolden + "rising.toml --vdb c --set domain.resolution=abc", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("--set domain.resolution=abc: error:", 0), 0u) << r.err;
    r = runPlume("bake " + kGolden + "rising.toml --vdb c --frames 0-5", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "--frames 0-5: error: frames start at 1\n");
    r = runPlume("bake " + kGolden + "rising.toml --vdb c --frames 3-20", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "--frames 3-20: error: the scene has 8 frames (time.frames)\n");
    r = runPlume("bake " + kGolden + "rising.toml --vdb c --no-such-flag", dir);
    EXPECT_EQ(r.status, 2);
    r = runPlume("", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_FALSE(fs::exists(dir / "c"));
}

TEST(Cli, UnwritableOutputFolderFailsBeforeSimulating) {
    fs::path dir = scratchDir("cli_unwritable");
    // /proc refuses new folders even to root.
    auto r = runPlume("bake " + kGolden + "rising.toml --vdb /proc/plume_cache", dir);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("/proc/plume_cache"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("frame"), std::string::npos) << "simulated before checking: " << r.err;
}

TEST(Cli, CheckPrintsTheResolvedScene) {
    fs::path dir = scratchDir("cli_check");
    auto r = runPlume("check " + kGolden + "rising.toml --set physics.vorticity=0.25", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("resolution = 24"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("vorticity = 0.25"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("grid 16x16x24 = 6144 cells"), std::string::npos) << r.out;
}

// The subcommands are one table (cli/main.cpp); a misspelt one is named with
// the nearest, as a misspelt scene key is.
TEST(Cli, UnknownCommandSuggestsTheNearest) {
    fs::path dir = scratchDir("cli_unknown_command");
    auto r = runPlume("rendr scene.toml", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "plume: error: 'rendr' is not a plume command (did you mean 'render'?)\n");
    r = runPlume("bakevdb", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "plume: error: 'bakevdb' is not a plume command (commands: render bake "
              "render-vdb upres encode farm preview new check; see plume --help)\n");
    r = runPlume("--help", dir);
    EXPECT_EQ(r.status, 0);
    for (const char* command : {"render", "bake", "render-vdb", "encode", "farm", "preview", "check"})
        EXPECT_NE(r.out.find(command), std::string::npos) << command;
}

TEST(Cli, VersionAndHelp) {
    fs::path dir = scratchDir("cli_help");
    auto r = runPlume("--version", dir);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("plume ", 0), 0u);
    r = runPlume("render --help", dir);
    EXPECT_EQ(r.status, 0);
    for (const char* option : {"--vdb", "--png", "--exr", "--frames", "--set", "--threads",
                               "--stats", "--report", "--quiet"})
        EXPECT_NE(r.out.find(option), std::string::npos) << option;
}

TEST(Cli, RenderWritesAnH264Video) {
    fs::path dir = scratchDir("cli_render");
    auto r = runPlume(
        "render " + kGolden + "rising.toml -o out/smoke.mp4 --png frames --frames 1-6 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_TRUE(fs::exists(dir / "out" / "smoke.mp4"));
    EXPECT_EQ(listDir(dir / "out"), std::vector<std::string>{"smoke.mp4"});  // no temporary left
    EXPECT_TRUE(fs::exists(dir / "frames" / "rising_0006.png"));
    std::string probe = test::capture(
        "ffprobe -v error -select_streams v:0 -count_frames -show_entries "
        "stream=codec_name,pix_fmt,color_space,nb_read_frames,width,height -of default=nw=1 '" +
        (dir / "out" / "smoke.mp4").string() + "'");
    EXPECT_NE(probe.find("codec_name=h264"), std::string::npos) << probe;
    EXPECT_NE(probe.find("pix_fmt=yuv420p"), std::string::npos) << probe;
    EXPECT_NE(probe.find("color_space=bt709"), std::string::npos) << probe;
    EXPECT_NE(probe.find("nb_read_frames=6"), std::string::npos) << probe;
    EXPECT_NE(probe.find("width=96"), std::string::npos) << probe;
}

// Every frame of a video as grey levels, width x height bytes each, decoded by ffmpeg.
std::vector<std::string> greyFrames(const fs::path& video, int width, int height) {
    const std::string raw = test::capture("ffmpeg -v error -i '" + video.string() +
                                          "' -f rawvideo -pix_fmt gray - 2>/dev/null");
    const size_t bytes = size_t(width) * size_t(height);
    std::vector<std::string> frames;
    for (size_t start = 0; start + bytes <= raw.size(); start += bytes)
        frames.push_back(raw.substr(start, bytes));
    return frames;
}

// The largest spread of grey levels along one row. The background is a
// vertical gradient (each row one colour), so without smoke it is a few levels.
int largestRowSpread(const std::string& frame, int width) {
    int spread = 0;
    for (size_t row = 0; row + size_t(width) <= frame.size(); row += size_t(width)) {
        auto [lo, hi] = std::minmax_element(frame.begin() + row, frame.begin() + row + width,
                                            [](char a, char b) { return uint8_t(a) < uint8_t(b); });
        spread = std::max(spread, int(uint8_t(*hi)) - int(uint8_t(*lo)));
    }
    return spread;
}

double meanAbsDifference(const std::string& a, const std::string& b) {
    double sum = 0;
    for (size_t n = 0; n < a.size(); ++n) sum += std::abs(int(uint8_t(a[n])) - int(uint8_t(b[n])));
    return sum / double(a.size());
}

// Bake, then render the cache with the scene's camera and look: the same
// pictures as rendering the scene straight away.
TEST(Cli, RenderVdbRendersABakedCacheLikeRender) {
    fs::path dir = scratchDir("cli_render_vdb");
    const std::string scene = kGolden + "rising.toml",
                      size = " --set render.width=64 --set render.height=36";
    auto r = runPlume("bake " + scene + " --vdb cache --frames 1-3 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("render-vdb 'cache/rising_####.vdb' -o out.mp4 --scene " + scene +
                     " --grid density --png frames" + size + " -q",
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(listDir(dir / "frames"),
              (std::vector<std::string>{"rising_0001.png", "rising_0002.png", "rising_0003.png"}));
    std::string probe = test::capture(
        "ffprobe -v error -select_streams v:0 -count_frames -show_entries "
        "stream=codec_name,nb_read_frames,width,height -of default=nw=1 '" +
        (dir / "out.mp4").string() + "'");
    EXPECT_NE(probe.find("codec_name=h264"), std::string::npos) << probe;
    EXPECT_NE(probe.find("nb_read_frames=3"), std::string::npos) << probe;
    EXPECT_NE(probe.find("width=64"), std::string::npos) << probe;
    EXPECT_NE(probe.find("height=36"), std::string::npos) << probe;

    r = runPlume("render " + scene + " -o direct.mp4 --frames 1-3" + size + " -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> fromCache = greyFrames(dir / "out.mp4", 64, 36);
    std::vector<std::string> direct = greyFrames(dir / "direct.mp4", 64, 36);
    ASSERT_EQ(fromCache.size(), 3u);
    ASSERT_EQ(direct.size(), 3u);
    for (size_t i = 0; i < fromCache.size(); ++i) {
        // Smoke: about 70 levels across the puff's rows, 3 in background alone.
        EXPECT_GT(largestRowSpread(fromCache[i], 64), 30) << "frame " << i + 1 << " shows no smoke";
        // Measured 0.2-0.3 levels (half-float cache, H.264); 5 from another camera.
        EXPECT_LT(meanAbsDifference(fromCache[i], direct[i]), 1.0)
            << "frame " << i + 1 << " differs from plume render's";
    }
}

TEST(Cli, RenderVdbUnknownGridNamesTheGrids) {
    fs::path dir = scratchDir("cli_render_vdb_grid");
    auto r = runPlume("bake " + kGolden + "rising.toml --vdb cache --frames 1 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("render-vdb 'cache/rising_####.vdb' -o out.mp4 --scene " + kGolden +
                     "rising.toml --grid smoke -q",
                 dir);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err,
              "plume: error: 'cache/rising_0001.vdb' has no grid 'smoke' (grids: density, "
              "temperature, velocity)\n");
}

// A small tmpfs filled up mid-run (needs root, as CI has; skipped otherwise,
// failed with PLUME_REQUIRE_ALL=1).
class FullDisk : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = scratchDir(
            "full_disk_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        disk_ = dir_ / "disk";
        fs::create_directories(disk_);
    }
    // The disk, `bytes` large (in whole pages, as tmpfs counts them); the
    // test returns when mounted_ is false (skipped or failed).
    void mountDisk(std::uintmax_t bytes) {
        const std::string mount = "mount -t tmpfs -o size=" + std::to_string(pages(bytes) / 1024) +
                                  "k tmpfs '" + disk_.string() + "' 2>/dev/null";
        if (std::system(mount.c_str()) != 0) {
            const std::string why = "cannot mount a tmpfs (not root?)";
            if (test::requireAll())
                FAIL() << why << " (PLUME_REQUIRE_ALL=1: nothing may be skipped)";
            GTEST_SKIP() << why;
        }
        mounted_ = true;
    }
    static std::uintmax_t pages(std::uintmax_t bytes) { return (bytes + 4095) / 4096 * 4096; }
    void TearDown() override {
        if (mounted_) std::system(("umount '" + disk_.string() + "'").c_str());
    }
    fs::path dir_, disk_;
    bool mounted_ = false;
};

const std::string kDefaultScene = std::string(PLUME_SOURCE_DIR) + "/scenes/plume.toml";

TEST_F(FullDisk, BakeSaysSoAndKeepsEveryFinishedFrame) {
    // Room for the resume state twice (each file is rewritten through a
    // temporary) and four frames, measured from the same bake's first three
    // on a disk with room: the disk fills a few frames in, whatever size a
    // frame or the state has.
    const std::string bake = "bake " + kDefaultScene + " --set domain.resolution=48 -q --vdb ";
    auto r = runPlume(bake + "room --frames 1-3", dir_);
    ASSERT_EQ(r.status, 0) << r.err;
    std::uintmax_t state = 0, frame = 0;
    for (const std::string& name : listDir(dir_ / "room")) {
        const std::uintmax_t bytes = pages(fs::file_size(dir_ / "room" / name));
        if (name.rfind("plume.resume", 0) == 0)
            state += bytes;
        else
            frame = std::max(frame, bytes);
    }
    ASSERT_GT(state, 0u);
    ASSERT_GT(frame, 0u);
    mountDisk(2 * state + 4 * frame);
    if (!mounted_) return;
    r = runPlume(bake + "'" + (disk_ / "cache").string() + "' --frames 1-60", dir_);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find((disk_ / "cache").string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("disk is full"), std::string::npos) << r.err;
    // Frames 1..n, each whole; nothing half-written under any name.
    int frames = 0;
    for (const std::string& name : listDir(disk_ / "cache")) {
        EXPECT_EQ(name.find(".tmp"), std::string::npos) << name;
        // The resume state: the solver's, and the default scene's upres (.upres.0, .1).
        if (name == "plume.resume" || name.rfind("plume.resume.upres.", 0) == 0) continue;
        char expected[32];
        std::snprintf(expected, sizeof expected, "plume_%04d.vdb", ++frames);
        EXPECT_EQ(name, expected);
        EXPECT_NO_THROW(readVdbFrame((disk_ / "cache" / name).string())) << name;
    }
    std::printf("%d frames on a disk of %ju KiB\n", frames, (2 * state + 4 * frame) / 1024);
    EXPECT_GE(frames, 2) << "the disk filled before a few frames were done";
    EXPECT_LT(frames, 60);
}

TEST_F(FullDisk, RenderSaysSoAndLeavesAPlayableVideo) {
    mountDisk(2 << 20);
    if (!mounted_) return;
    auto r = runPlume("render " + kDefaultScene + " -o '" + (disk_ / "smoke.mp4").string() +
                          "' --png '" + (disk_ / "png").string() +
                          "' --set domain.resolution=32 --set render.width=320 "
                          "--set render.height=180 --frames 1-100 -q",
                      dir_);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    const size_t pngs = listDir(disk_ / "png").size();
    for (const std::string& name : listDir(disk_ / "png")) {
        EXPECT_EQ(name.find(".tmp"), std::string::npos) << name;
        std::ifstream in(disk_ / "png" / name, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        ASSERT_GT(bytes.size(), 12u) << name;
        EXPECT_EQ(bytes.substr(bytes.size() - 8, 4), "IEND") << name << " is cut short";
    }
    std::string probe = test::capture(
        "ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames "
        "-of default=nw=1:nk=1 '" +
        (disk_ / "smoke.mp4").string() + "'");
    ASSERT_FALSE(probe.empty()) << "the video does not open";
    const int decoded = std::stoi(probe);
    EXPECT_GE(decoded, 1);
    EXPECT_NEAR(double(decoded), double(pngs), 1.0) << "video and PNGs hold the frames done";
}

}  // namespace
}  // namespace plume
