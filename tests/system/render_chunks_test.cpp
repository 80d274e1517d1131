// Frames rendered in chunks, as a farm's job array renders them: each frame is
// the same file whichever --frames range renders it, and a chunk run again
// redoes only the frames whose files are missing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::listDir;
using test::runPlume;
using test::scratchDir;

const std::string kScene = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/rising.toml";

std::string bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string frameName(int frame, const char* extension) {
    char name[64];
    std::snprintf(name, sizeof name, "rising_%04d%s", frame, extension);
    return name;
}

TEST(RenderChunks, RenderVdbChunksMatchAWholeRun) {
    fs::path dir = scratchDir("chunks_render_vdb");
    auto r = runPlume("bake " + kScene + " --vdb cache -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string cache = " 'cache/rising_####.vdb' --scene " + kScene;
    r = runPlume("render-vdb" + cache + " --png whole --exr whole --no-video -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* range : {"1-3", "4-7", "8"}) {
        r = runPlume("render-vdb" + cache + " --frames " + range +
                         " --png chunks --exr chunks --no-video --skip-existing -q",
                     dir);
        ASSERT_EQ(r.status, 0) << range << ": " << r.err;
    }
    ASSERT_EQ(listDir(dir / "chunks").size(), 16u);
    for (int frame = 1; frame <= 8; ++frame)
        for (const char* ext : {".png", ".exr"})
            EXPECT_TRUE(bytes(dir / "whole" / frameName(frame, ext)) ==
                        bytes(dir / "chunks" / frameName(frame, ext)))
                << frameName(frame, ext) << " differs between the chunk and the whole run";
    EXPECT_FALSE(fs::exists(dir / "rising.mp4"));  // --no-video

    // Without --no-video the frames start at --frames: a video of 4-7.
    r = runPlume("render-vdb" + cache + " --frames 4-7 -o part.mp4 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(test::capture("ffprobe -v error -count_frames -show_entries stream=nb_read_frames "
                            "-of default=nw=1 '" +
                            (dir / "part.mp4").string() + "'")
                  .find("nb_read_frames=4"),
              std::string::npos);
    r = runPlume("render-vdb" + cache + " --frames 4-12 -o part.mp4 -q", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "--frames 4-12: error: the sequence holds frames 1-8\n");
}

// An exact cache (32-bit, nothing dropped), read over the whole domain as the
// solver's fields are: render-vdb draws plume render's very frames from it.
TEST(RenderChunks, AnExactCacheRendersLikeRender) {
    fs::path dir = scratchDir("chunks_exact");
    auto r = runPlume("render " + kScene +
                          " --png direct --vdb cache --no-video"
                          " --set output.vdb_precision=exact -q",
                      dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("render-vdb 'cache/rising_####.vdb' --scene " + kScene +
                     " --frames 5-8 --png chunk --no-video -q",
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    for (int frame = 5; frame <= 8; ++frame)
        EXPECT_TRUE(bytes(dir / "direct" / frameName(frame, ".png")) ==
                    bytes(dir / "chunk" / frameName(frame, ".png")))
            << frameName(frame, ".png") << " differs between render and render-vdb";
}

// A re-run chunk: files written atomically are whole if they exist, so
// existence is what "done" means; only the missing frame is rendered again.
TEST(RenderChunks, ARerunChunkRedoesOnlyMissingFrames) {
    fs::path dir = scratchDir("chunks_skip");
    auto r = runPlume("bake " + kScene + " --vdb cache --frames 1-6 -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string chunk = "render-vdb 'cache/rising_####.vdb' --scene " + kScene +
                              " --frames 3-6 --png frames --no-video --skip-existing";
    r = runPlume(chunk + " -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string frame5 = bytes(dir / "frames" / frameName(5, ".png"));
    // A marker in frame 4's place shows whether the frame is rewritten.
    std::ofstream(dir / "frames" / frameName(4, ".png")) << "kept";
    fs::remove(dir / "frames" / frameName(5, ".png"));
    r = runPlume(chunk, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("skipped 3 frame(s)"), std::string::npos) << r.err;
    EXPECT_EQ(bytes(dir / "frames" / frameName(4, ".png")), "kept");
    EXPECT_TRUE(bytes(dir / "frames" / frameName(5, ".png")) == frame5);

    // render (simulating) skips rendering the same way; a video needs every frame.
    r = runPlume("render " + kScene + " --frames 3-6 --png frames --no-video --skip-existing -q",
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(bytes(dir / "frames" / frameName(4, ".png")), "kept");
    r = runPlume(chunk.substr(0, chunk.find(" --no-video")) + " --skip-existing -o x.mp4", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "--skip-existing: error: it writes no video (a video takes every frame): add --no-video\n");
}

}  // namespace
}  // namespace plume
