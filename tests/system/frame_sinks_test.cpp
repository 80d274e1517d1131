// FrameSinks (src/run/frame_sinks.h): every output of a run checked before any
// simulation work, fed the frames it asked for, and library warnings routed
// beside the progress display (none with --quiet).
#include "run/frame_sinks.h"

#include <gtest/gtest.h>
#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "io/sequence.h"
#include "io/solver_state.h"
#include "run/solver_source.h"
#include "scene/loader.h"
#include "sim/solver.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::listDir;
using test::runPlume;
using test::scratchDir;

const std::string kGolden = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/";

int countOf(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// One simulated frame through every step, as plume's frame loop takes it.
void simulateFrame(FrameSinks& sinks, SolverSource& source, int number) {
    Frame frame = sinks.frame(number);
    const char* stage = "";
    source.produce(frame, stage);
    sinks.writeFields(frame);
    sinks.render(frame, source.view(), number);
    sinks.writePictures(frame);
    sinks.frameDone(frame);
}

TEST(FrameSinks, VideoOntoAFolderIsRefusedBeforeSimulating) {
    fs::path dir = scratchDir("sinks_video_folder");
    fs::create_directories(dir / "outdir");
    std::ofstream(dir / "outdir" / "keep.txt") << "mine";
    auto r = runPlume("render " + kGolden + "rising.toml -o outdir",
                      dir);  // not quiet: frames would show
    EXPECT_EQ(r.status, 2);  // a usage error, found before any work
    EXPECT_EQ(r.err, "-o outdir: error: a folder: name the video in it, e.g. outdir/shot.mp4\n");
    EXPECT_EQ(listDir(dir), (std::vector<std::string>{"outdir", "stderr.txt", "stdout.txt"}));
    EXPECT_EQ(listDir(dir / "outdir"), std::vector<std::string>{"keep.txt"});
}

TEST(FrameSinks, StatsOrStateOntoAFolderIsRefusedBeforeSimulating) {
    fs::path dir = scratchDir("sinks_stats_folder");
    fs::create_directories(dir / "stats.csv");
    auto r = runPlume("bake " + kGolden + "rising.toml --vdb cache --stats stats.csv", dir);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "plume: error: cannot write 'stats.csv': it is a folder\n");

    fs::create_directories(dir / "cache" / "rising.resume");
    r = runPlume("bake " + kGolden + "rising.toml --vdb cache", dir);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "plume: error: cannot write 'cache/rising.resume': it is a folder\n");
    EXPECT_EQ(listDir(dir / "cache"), std::vector<std::string>{"rising.resume"});
}

TEST(FrameSinks, QuietSilencesLibraryWarnings) {
    fs::path dir = scratchDir("sinks_quiet");
    openvdb::initialize();
    // Voxels twice as tall as wide: plume warns that it renders them as cubes.
    openvdb::math::Mat4d stretch = openvdb::math::Mat4d::identity();
    stretch.setToScale(openvdb::Vec3d(0.1, 0.1, 0.2));
    auto grid = openvdb::FloatGrid::create(0.0f);
    grid->setName("density");
    grid->setTransform(openvdb::math::Transform::createLinearTransform(stretch));
    grid->fill(openvdb::CoordBBox(openvdb::Coord(0), openvdb::Coord(5)), 0.5f);
    openvdb::io::File((dir / "tall_0001.vdb").string()).write({grid});
    const std::string args =
        "render-vdb tall_0001.vdb -o out.mp4 --set render.width=32 --set render.height=18";

    auto r = runPlume(args, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(countOf(r.err, "plume: warning: 'tall_0001.vdb': grid 'density' has voxel size"), 1)
        << r.err;

    r = runPlume(args + " -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
}

TEST(FrameSinks, CreatesNothingBeforeOpen) {
    fs::path dir = scratchDir("sinks_open");
    const Scene scene = loadScene(kGolden + "rising.toml");
    RunOutputs outputs;
    outputs.videoPath = (dir / "out.mp4").string();
    outputs.pngDir = (dir / "png").string();
    {
        FrameSinks sinks(scene, outputs, 1, 1, true);
        // Checked, not made: a run refused by a later check leaves no folder behind.
        EXPECT_TRUE(listDir(dir).empty());
        sinks.open(scene);
        EXPECT_TRUE(listDir(dir / "png").empty());
        const std::vector<std::string> open = listDir(dir);
        ASSERT_EQ(open.size(), 2u);
        EXPECT_TRUE(open[0].starts_with("out.mp4.partial.")) << open[0];  // the run's own
        EXPECT_EQ(open[1], "png");
        SolverSource source(scene);
        simulateFrame(sinks, source, 1);
        sinks.finish();
    }
    EXPECT_EQ(listDir(dir), (std::vector<std::string>{"out.mp4", "png"}));
    EXPECT_EQ(listDir(dir / "png"), std::vector<std::string>{"rising_0001.png"});
}

TEST(FrameSinks, FramesBeforeTheFirstAreOnlyRecorded) {
    fs::path dir = scratchDir("sinks_frames");
    const Scene scene = loadScene(kGolden + "rising.toml");
    RunOutputs outputs;
    outputs.vdbDir = (dir / "cache").string();
    outputs.pngDir = (dir / "png").string();
    outputs.exrDir = (dir / "exr").string();
    outputs.statsPath = (dir / "stats.csv").string();
    outputs.statePath = resumeStatePath(outputs.vdbDir, scene.name);
    {
        FrameSinks sinks(scene, outputs, 2, 3, true);
        SolverSource source(scene);
        sinks.open(scene);
        for (int frame = 1; frame <= 3; ++frame) simulateFrame(sinks, source, frame);
        sinks.finish();
    }
    EXPECT_EQ(listDir(dir / "cache"),
              (std::vector<std::string>{"rising.resume", "rising_0002.vdb", "rising_0003.vdb"}));
    EXPECT_EQ(listDir(dir / "png"),
              (std::vector<std::string>{"rising_0002.png", "rising_0003.png"}));
    EXPECT_EQ(listDir(dir / "exr"),
              (std::vector<std::string>{"rising_0002.exr", "rising_0003.exr"}));
    std::ifstream csv(dir / "stats.csv");
    std::vector<std::string> frames;
    for (std::string line; std::getline(csv, line);)
        frames.push_back(line.substr(0, line.find(',')));
    EXPECT_EQ(frames, (std::vector<std::string>{"frame", "1", "2", "3"}));
    Fields f(scene.domain.cells(), scene.domain.dx());
    EXPECT_EQ(readSolverState(outputs.statePath, f).frame, 3);
}

// A frame asks the source for what its sinks need and no more: the grids
// only of a written frame, the resume state's parts and the totals of every
// simulated one; a run with neither gets a frame of pictures alone.
TEST(FrameSinks, AFrameAsksForWhatItsSinksNeed) {
    fs::path dir = scratchDir("sinks_asked");
    const Scene scene = loadScene(kGolden + "rising.toml");
    RunOutputs outputs;
    outputs.vdbDir = (dir / "cache").string();
    outputs.statsPath = (dir / "stats.csv").string();
    outputs.statePath = resumeStatePath(outputs.vdbDir, scene.name);
    {
        FrameSinks sinks(scene, outputs, 2, 2, true);
        EXPECT_EQ(sinks.frame(1).asked, unsigned(kResume | kTotals));  // only simulated
        EXPECT_EQ(sinks.frame(2).asked, unsigned(kGrids | kResume | kTotals));
        SolverSource source(scene);
        Frame frame = sinks.frame(2);
        const char* stage = "";
        source.produce(frame, stage);
        EXPECT_NE(frame.grids.feed, nullptr);
        EXPECT_EQ(frame.resume.feed, frame.grids.feed);  // one feed, made once
        EXPECT_GT(frame.totals.smoke, 0.0);
        EXPECT_NE(frame.did.find(" substeps, "), std::string::npos) << frame.did;
    }
    RunOutputs pictures;
    pictures.pngDir = (dir / "png").string();
    FrameSinks sinks(scene, pictures, 1, 1, true);
    Frame frame = sinks.frame(1);
    EXPECT_EQ(frame.asked, 0u);
    SolverSource source(scene);
    const char* stage = "";
    source.produce(frame, stage);
    EXPECT_EQ(frame.grids.feed, nullptr);
    EXPECT_TRUE(frame.grids.islands.empty());
    EXPECT_EQ(frame.resume.feed, nullptr);
    EXPECT_EQ(frame.totals.smoke, 0.0);
}

}  // namespace
}  // namespace plume
