// The one frame loop and the cache's own facts (run/frame_loop.h,
// run/cache_sequence.h): every command that reads a cache honours what the
// cache says (its frame rate, its frame numbers and gaps, its grids, the
// scene it came from), and every command has the same progress, statistics
// and closing line.
#include <gtest/gtest.h>
#include <openvdb/openvdb.h>
#include <stb_image.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/vdb_cache.h"
#include "support/run.h"
#include "support/scene_errors.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::kSourceDir;

const std::string kBench = kSourceDir + "/scenes/bench.toml";
const std::string kSmall = " --set domain.resolution=16 --set time.frames=6";
const std::string kFire = kSourceDir + "/tests/blender/tiny_fire.toml";

std::string frameFile(const fs::path& dir, const std::string& name, int frame,
                      const std::string& ext = ".vdb") {
    char file[64];
    std::snprintf(file, sizeof file, "%s_%04d%s", name.c_str(), frame, ext.c_str());
    return (dir / file).string();
}

// The file's metadata and grids through OpenVDB itself, not plume's reader.
struct VdbFile {
    openvdb::MetaMap::Ptr meta;
    openvdb::GridPtrVecPtr grids;
    explicit VdbFile(const std::string& path) {
        openvdb::initialize();
        openvdb::io::File file(path);
        file.open();
        meta = file.getMetadata();
        grids = file.getGrids();
        file.close();
    }
    openvdb::FloatGrid::Ptr floatGrid(const std::string& name) const {
        for (const auto& g : *grids)
            if (g->getName() == name) return openvdb::gridPtrCast<openvdb::FloatGrid>(g);
        return nullptr;
    }
    float fps() const {
        auto m = meta->getMetadata<openvdb::FloatMetadata>("plume_fps");
        return m ? m->value() : 0.0f;
    }
};

float maxOf(const openvdb::FloatGrid& g) {
    float m = 0.0f;
    for (auto v = g.cbeginValueOn(); v; ++v) m = std::max(m, *v);
    return m;
}

size_t lines(const std::string& text) { return size_t(std::count(text.begin(), text.end(), '\n')); }

// With --quiet nothing but errors, warnings too.
TEST(FrameLines, QuietHidesTheCachesWarnings) {
    test::TempDir dir("frame_loop");
    auto r = test::runPlume("bake '" + kBench + "'" + kSmall + " --set time.fps=30 --vdb B -q",
                            dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume("render-vdb 'B/bench_####.vdb' --scene '" + kBench + "'" + kSmall +
                           " --set render.width=32 --set render.height=18 --no-video --png P -q",
                       dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
}

TEST(CacheFacts, AThirtyFpsCachePlaysAtThirtyInRenderVdbAndUpres) {
    test::TempDir dir("frame_loop");
    auto r = test::runPlume("bake '" + kBench + "'" + kSmall + " --set time.fps=30 --vdb B -q",
                            dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume(
        "render-vdb 'B/bench_####.vdb' -o v.mp4 --set render.width=64 --set render.height=36 -q",
        dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(test::capture("ffprobe -v error -select_streams v:0 -show_entries "
                            "stream=r_frame_rate -of csv=p=0 '" +
                            dir.file("v.mp4") + "'"),
              "30/1\n");
    // upres steps its fine smoke at the cache's rate, and records it.
    r = test::runPlume("upres 'B/bench_####.vdb' -o F -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(VdbFile(frameFile(dir.path() / "F", "bench", 6)).fps(), 30.0f);
    // A scene file that says otherwise is told, in one line, and the cache wins.
    r = test::runPlume("render-vdb 'B/bench_####.vdb' --scene '" + kBench + "'" + kSmall +
                           " --set render.width=64 --set render.height=36 -o w.mp4",
                       dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("plume: warning: '" + kBench +
                         "' runs at 24 fps, the cache at 30: using the cache's"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(test::capture("ffprobe -v error -select_streams v:0 -show_entries "
                            "stream=r_frame_rate -of csv=p=0 '" +
                            dir.file("w.mp4") + "'"),
              "30/1\n");
}

TEST(CacheFacts, AGapInTheFramesIsRefusedNamingIt) {
    test::TempDir dir("frame_loop");
    auto r = test::runPlume("bake '" + kBench + "'" + kSmall + " --vdb B -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    fs::remove(frameFile(dir.path() / "B", "bench", 3));
    r = test::runPlume("render-vdb 'B/bench_####.vdb' -o v.mp4 -q", dir.path());
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("error: frame 3 is missing"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir.path() / "v.mp4"));
    // Either side of the gap renders.
    r = test::runPlume(
        "render-vdb 'B/bench_####.vdb' --frames 4-6 --no-video --png P "
        "--set render.width=32 --set render.height=18 -q",
        dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(test::listDir(dir.path() / "P"),
              (std::vector<std::string>{"bench_0004.png", "bench_0005.png", "bench_0006.png"}));
}

TEST(CacheFacts, ADamagedFrameOutsideTheRangeDoesNotStopTheRun) {
    test::TempDir dir("frame_loop");
    auto r = test::runPlume("bake '" + kBench + "'" + kSmall + " --vdb B -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string damaged = frameFile(dir.path() / "B", "bench", 6);
    fs::resize_file(damaged, fs::file_size(damaged) / 2);
    r = test::runPlume(
        "render-vdb 'B/bench_####.vdb' --frames 1-2 --no-video --png P "
        "--set render.width=32 --set render.height=18",
        dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("bench_0006.vdb"), std::string::npos) << r.err;  // said, not fatal
    EXPECT_EQ(test::listDir(dir.path() / "P"),
              (std::vector<std::string>{"bench_0001.png", "bench_0002.png"}));
    // The damaged frame itself still fails, in one line.
    r = test::runPlume("render-vdb 'B/bench_####.vdb' --frames 6 --no-video --png Q -q",
                       dir.path());
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("bench_0006.vdb"), std::string::npos) << r.err;
}

TEST(CacheFacts, AnotherScenesFileIsToldAndTheFramesKeepTheCachesName) {
    test::TempDir dir("frame_loop");
    auto r = test::runPlume("bake '" + kBench + "'" + kSmall + " --vdb B -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume("render-vdb 'B/bench_####.vdb' --scene '" + kFire +
                           "' --set time.frames=6 --set render.width=32 --set render.height=18 "
                           "--no-video --png P",
                       dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("is scene 'tiny_fire', the cache was baked from 'bench'"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(fs::exists(frameFile(dir.path() / "P", "bench", 1, ".png")));
    EXPECT_FALSE(fs::exists(frameFile(dir.path() / "P", "tiny_fire", 1, ".png")));
}

// Another tool's fire cache (a plume fire bake with a grid plume does not
// write added, read without its scene): upres keeps its flame, at the fine
// voxels, and carries the grid it does not know as it is.
TEST(UpresFrames, AFireCacheWithoutItsSceneKeepsItsFlameAndEveryGrid) {
    test::TempDir dir("frame_loop");
    auto r = test::runPlume("bake '" + kFire +
                                "' --set time.frames=6 --set domain.resolution=16 "
                                "--vdb B -q",
                            dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    {
        openvdb::initialize();
        const std::string path = frameFile(dir.path() / "B", "tiny_fire", 6);
        VdbFile base(path);
        ASSERT_TRUE(base.floatGrid("flame"));
        ASSERT_GT(maxOf(*base.floatGrid("flame")), 0.0f);
        auto react = base.floatGrid("flame")->deepCopy();
        react->setName("react");
        base.grids->push_back(react);
        openvdb::io::File out(path);
        out.write(*base.grids, *base.meta);
    }
    r = test::runPlume("upres 'B/tiny_fire_####.vdb' -o F --stats s.csv", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const VdbFile fine(frameFile(dir.path() / "F", "tiny_fire", 6));
    auto flame = fine.floatGrid("flame");
    ASSERT_TRUE(flame) << "upres dropped the flame";
    EXPECT_GT(maxOf(*flame), 0.0f);
    const VdbFile base(frameFile(dir.path() / "B", "tiny_fire", 6));
    EXPECT_NEAR(flame->voxelSize()[0], base.floatGrid("flame")->voxelSize()[0] / 2, 1e-6);
    auto react = fine.floatGrid("react");
    ASSERT_TRUE(react) << "upres dropped a grid it does not know";
    EXPECT_EQ(maxOf(*react), maxOf(*base.floatGrid("react")));
    // The frame loop's lines: one a frame, what it did, and the closing line.
    EXPECT_NE(r.err.find("frame 6/6: read "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(", upres "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("plume: wrote 6 VDB frames to F/"), std::string::npos) << r.err;
    std::ifstream stats(dir.file("s.csv"));
    std::string header, row;
    std::getline(stats, header);
    int rows = 0;
    while (std::getline(stats, row)) ++rows;
    EXPECT_EQ(rows, 6);
}

// Mean of a PNG's pixels (all channels), read by stb_image.
double meanOf(const std::string& png) {
    int w = 0, h = 0, n = 0;
    unsigned char* p = stbi_load(png.c_str(), &w, &h, &n, 3);
    if (!p) return -1.0;
    double sum = 0.0;
    for (int i = 0; i < w * h * 3; ++i) sum += p[i];
    stbi_image_free(p);
    return sum / (w * h * 3);
}

// A first fire's cache, rendered without its scene, keeps its dark soot: the
// cache says its smoke is all the fire's (plume_soot_only).
TEST(CacheFacts, AFireCacheSaysItsSmokeIsSoot) {
    test::TempDir dir("frame_loop");
    std::ofstream(dir.file("fire.toml")) << "[domain]\nsize = [1.0, 1.0, 1.5]\nresolution = 20\n"
                                            "[time]\nframes = 24\n[[emitter]]\nshape = \"box\"\n"
                                            "center = [0.5, 0.5, 0.1]\nsize = [0.3, 0.3, 0.1]\n"
                                            "fuel = 1.0\n";
    auto r = test::runPlume("bake fire.toml --vdb B --frames 24 -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string path = frameFile(dir.path() / "B", "fire", 24);
    const std::string look = " --no-video --set render.width=96 --set render.height=96 -q";
    r = test::runPlume("render-vdb B/fire_0024.vdb --png soot" + look, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    {
        VdbFile file(path);
        auto soot = file.meta->getMetadata<openvdb::BoolMetadata>("plume_soot_only");
        ASSERT_TRUE(soot && soot->value()) << "the cache does not say its smoke is soot";
        file.meta->removeMeta("plume_soot_only");
        openvdb::io::File out(path);
        out.write(*file.grids, *file.meta);
    }
    r = test::runPlume("render-vdb B/fire_0024.vdb --png grey" + look, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const double soot = meanOf(frameFile(dir.path() / "soot", "fire", 24, ".png"));
    const double grey = meanOf(frameFile(dir.path() / "grey", "fire", 24, ".png"));
    ASSERT_GT(soot, 0.0);
    EXPECT_LT(soot, grey - 1.0) << "soot " << soot << ", grey smoke " << grey;
}

TEST(FrameLines, EachCommandSaysWhatItDid) {
    test::TempDir dir("frame_loop");
    auto r = test::runPlume("bake '" + kBench + "'" + kSmall + " --vdb B --frames 1-2", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("frame 1/6: "), std::string::npos) << r.err;  // of the shot's 6
    EXPECT_NE(r.err.find(" substeps, "), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("render "), std::string::npos) << r.err;  // a bake renders nothing
    r = test::runPlume(
        "render-vdb 'B/bench_####.vdb' --no-video --png P --set render.width=32 "
        "--set render.height=18",
        dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("frame 2/2: read "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(", render "), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("substeps"), std::string::npos) << r.err;  // nothing simulated
    // A bake of some frames into a cache of others says so.
    r = test::runPlume("bake '" + kBench + "'" + kSmall + " --vdb B --frames 1", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("holds 1 frame (2-2) of an earlier bake"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// A cache's frame rate wins over its scene's, and the warning says how to
// choose the scene's: --set time.fps. Done as it says, the video runs at
// the scene's 24, with nothing to warn about; without the scene, --set
// time.fps sets it too.
TEST(CacheFacts, SetTimeFpsOverridesTheCachesFrameRateAsTheWarningSays) {
    test::TempDir dir("frame_loop");
    auto r = test::runPlume("bake '" + kBench + "'" + kSmall + " --set time.fps=30 --vdb B -q",
                            dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string render =
        "render-vdb 'B/bench_####.vdb' --set render.width=32 --set "
        "render.height=18 --frames 1-3";
    r = test::runPlume(render + " --scene '" + kBench + "'" + kSmall + " -o w.mp4", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string advice = "(--set time.fps=24 to use the scene's)";
    ASSERT_NE(r.err.find(advice), std::string::npos) << r.err;
    auto rate = [&](const std::string& video) {
        return test::capture(
            "ffprobe -v error -select_streams v:0 -show_entries "
            "stream=r_frame_rate -of csv=p=0 '" +
            dir.file(video) + "'");
    };
    EXPECT_EQ(rate("w.mp4"), "30/1\n");
    r = test::runPlume(
        render + " --scene '" + kBench + "'" + kSmall + " --set time.fps=24 -o s.mp4", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("fps, the cache at"), std::string::npos) << r.err;
    EXPECT_EQ(rate("s.mp4"), "24/1\n");
    r = test::runPlume(render + " --set time.fps=25 -o alone.mp4 -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(rate("alone.mp4"), "25/1\n");
}

}  // namespace
}  // namespace plume
