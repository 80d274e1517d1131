// Two real plume runs writing the same outputs at once (a farm task requeued
// beside its straggler, a second terminal): each writes its own temporaries
// (core/atomic_file.h), the last rename wins, and both succeed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::listDir;
using test::scratchDir;

const std::string kRising = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/rising.toml";

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct TwoRuns {
    std::string statusA, statusB, errA, errB;
};

// Starts `plume ARGS` twice at once in dir and waits for both.
TwoRuns runTwiceAtOnce(const std::string& args, const fs::path& dir) {
    const std::string plume = "'" PLUME_BINARY "' " + args;
    const std::string cmd = "cd '" + dir.string() + "' && { " + plume +
                            " 2>a.err </dev/null; echo $? >a.status; } & { cd '" + dir.string() +
                            "' && " + plume + " 2>b.err </dev/null; echo $? >b.status; } & wait";
    std::system(cmd.c_str());  // /bin/sh
    return {slurp(dir / "a.status"), slurp(dir / "b.status"), slurp(dir / "a.err"),
            slurp(dir / "b.err")};
}

TEST(CliTwoWriters, TwoRendersOfOneVideoBothSucceedAndItPlays) {
    const fs::path dir = scratchDir("two_writers_video");
    const TwoRuns r = runTwiceAtOnce(
        "render " + kRising + " -o out.mp4 --set render.width=320 --set render.height=180 -q", dir);
    EXPECT_EQ(r.statusA, "0\n") << r.errA;
    EXPECT_EQ(r.statusB, "0\n") << r.errB;
    EXPECT_EQ(r.errA + r.errB, "");
    const std::string probe = test::capture(
        "ffprobe -v error -select_streams v:0 -count_frames -show_entries "
        "stream=codec_name,nb_read_frames -of default=nw=1 '" +
        (dir / "out.mp4").string() + "'");
    EXPECT_NE(probe.find("nb_read_frames=8"), std::string::npos) << probe;
    for (const std::string& name : listDir(dir))  // no temporary left
        EXPECT_FALSE(name.starts_with("out.mp4.")) << name;
}

TEST(CliTwoWriters, TwoRunsIntoOnePngAndVdbFolderBothSucceed) {
    const fs::path dir = scratchDir("two_writers_frames");
    const TwoRuns r = runTwiceAtOnce(
        "render " + kRising + " --no-video --png frames --vdb cache --stats stats.csv -q", dir);
    EXPECT_EQ(r.statusA, "0\n") << r.errA;
    EXPECT_EQ(r.statusB, "0\n") << r.errB;
    std::vector<std::string> pngs, vdbs;
    for (int frame = 1; frame <= 8; ++frame) {
        char name[32];
        std::snprintf(name, sizeof name, "rising_%04d", frame);
        pngs.push_back(std::string(name) + ".png");
        vdbs.push_back(std::string(name) + ".vdb");
    }
    EXPECT_EQ(listDir(dir / "frames"), pngs);
    EXPECT_EQ(listDir(dir / "cache"), vdbs);
    EXPECT_TRUE(slurp(dir / "stats.csv").starts_with("frame,"));
}

}  // namespace
}  // namespace plume
