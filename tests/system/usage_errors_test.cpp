// Refusals of the real plume binary: each one line, `WHERE: error: WHAT`
// (a scene's file:line:col, an option with its value, else plume), exit 2,
// in plume's words rather than its argument parser's; and `plume help`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::runPlume;
using test::scratchDir;

const std::string kScene = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/rising.toml";

struct Refusal {
    std::string args;  // after "plume ", run in the test's folder
    std::string line;  // stderr, without its newline
};

// The folder every refusal runs in: a folder named `out`, frames that a
// glob would match, a folder of two VDB sequences, a scene whose emitter
// lies outside its domain. One per test: ctest runs them at once, each in a
// process of its own.
fs::path refusalsFolder(const std::string& name) {
    const fs::path dir = scratchDir(name);
    fs::create_directories(dir / "out");
    fs::create_directories(dir / "frames");
    for (const char* name : {"f_0001.png", "f_0002.png"}) std::ofstream(dir / "frames" / name);
    fs::create_directories(dir / "caches");
    for (const char* name : {"a_0001.vdb", "b_0001.vdb"}) std::ofstream(dir / "caches" / name);
    std::ofstream(dir / "afile") << "a file, not a folder";
    std::ofstream(dir / "far.toml") << "[[emitter]]\ncenter = [5, 1, 1]\n";
    std::ofstream(dir / "filed.toml") << "[[emitter]]\nshape = \"box\"\nfile = \"torch.obj\"\n";
    return dir;
}

const std::vector<Refusal> kRefusals = {
    // The argument parser's refusals, translated.
    {"render " + kScene + " --threads 2 --threads 3",
     "--threads: error: given twice (2, then 3); give it once"},
    {"bake " + kScene + " --vdb cache -o x.mp4",
     "-o x.mp4: error: plume bake writes only the --vdb cache, no video: plume render -o x.mp4 "
     "writes one (and takes --vdb DIR too)"},
    {"bake " + kScene + " -o x.mp4",  // without --vdb too: the stray -o is the mistake
     "-o x.mp4: error: plume bake writes only the --vdb cache, no video: plume render -o x.mp4 "
     "writes one (and takes --vdb DIR too)"},
    {"bake " + kScene + " --vdb cache --png frames",
     "--png frames: error: plume bake writes only the --vdb cache: plume render --png frames "
     "writes frames (and takes --vdb DIR too)"},
    {"render " + kScene + " --thread 2",
     "--thread 2: error: plume render has no option --thread (did you mean --threads?)"},
    {"render " + kScene + " other.toml",
     "'other.toml': error: unexpected argument: plume render takes one scene file (see plume "
     "render --help)"},
    {"bake " + kScene, "plume bake: error: --vdb (or --nvdb) is required (see plume bake --help)"},
    {"upres cache", "plume upres: error: -o is required (see plume upres --help)"},
    {"render", "plume render: error: the scene is required (see plume render --help)"},
    {"",
     "plume: error: no command given (commands: render bake render-vdb upres encode farm "
     "preview new check; see plume --help)"},
    {"render " + kScene + " --threads abc", "--threads abc: error: not a whole number"},
    {"render " + kScene + " --threads 5000", "--threads 5000: error: not in range 0 to 1024"},
    {"render " + kScene + " --threads",
     "--threads: error: needs a value (see plume render --help)"},
    {"farm " + kScene + " --slurm --chunk x", "--chunk x: error: not a whole number"},
    // -o of a video: an .mp4 file.
    {"render " + kScene + " -o out",
     "-o out: error: a folder: name the video in it, e.g. out/shot.mp4"},
    {"render " + kScene + " -o shot.avi",
     "-o shot.avi: error: plume writes MP4 video (H.264), whatever the name says: name it "
     "shot.mp4"},
    {"encode frames -o shot.mov",
     "-o shot.mov: error: plume writes MP4 video (H.264), whatever the name says: name it "
     "shot.mp4"},
    {"farm " + kScene + " --slurm --dry-run -o shot",
     "-o shot: error: plume writes MP4 video (H.264), whatever the name says: name it shot.mp4"},
    // Outputs under a file: the user's path, not the machine's refusal.
    {"render " + kScene + " -o afile/out.mp4",
     "plume: error: cannot make output folder 'afile': 'afile' is a file, not a folder"},
    {"render " + kScene + " --png afile/frames",
     "plume: error: cannot make output folder 'afile/frames': 'afile' is a file, not a folder"},
    // Inputs: a pattern that matches nothing, a glob, a folder of two sequences.
    {"render-vdb 'nothing/x_####.vdb'",
     "plume: error: no VDB files match 'nothing/x_####.vdb' (No such file or directory)"},
    {"encode 'frames/*.png' -o x.mp4",
     "'frames/*.png': error: a glob is not a frame pattern: name the frames as "
     "'frames/f_####.png' (or pass the folder)"},
    {"render-vdb 'caches/*.vdb'",
     "'caches/*.vdb': error: a glob is not a frame pattern: name the frames as "
     "'caches/NAME_####.vdb' (or pass the folder)"},
    {"render-vdb caches",
     "'caches': error: holds more than one sequence (a_####.vdb, b_####.vdb); pass one as a "
     "pattern, e.g. 'caches/a_####.vdb'"},
    // The scene.
    {"check far.toml",
     "far.toml:2:10: error: 'emitter[1].center' = [5, 1, 1]: the emitter lies wholly outside "
     "the domain [0, 0, 0] to [2, 2, 2] (check its center, radius and scale)"},
    {"render filed.toml",
     "filed.toml:3:8: error: 'emitter[1].file' is read only for shape = \"mesh\" or \"points\"; "
     "emitter[1] is "
     "a box (set shape = \"mesh\" to use the file, or drop the file)"},
    {"help rendr", "plume: error: 'rendr' is not a plume command (did you mean 'render'?)"},
};

TEST(UsageErrors, EachRefusalIsOneLineInPlumesWords) {
    const fs::path dir = refusalsFolder("usage_errors_1");
    for (const Refusal& refusal : kRefusals) {
        const auto r = runPlume(refusal.args, dir);
        EXPECT_EQ(r.status, 2) << "plume " << refusal.args << "\n" << r.err;
        EXPECT_EQ(r.err, refusal.line + "\n") << "plume " << refusal.args;
        EXPECT_EQ(r.out, "") << "plume " << refusal.args;
    }
    // Nothing written: no video, no cache, no frames.
    EXPECT_EQ(test::listDir(dir),
              (std::vector<std::string>{"afile", "caches", "far.toml", "filed.toml", "frames",
                                        "out", "stderr.txt", "stdout.txt"}));
    EXPECT_EQ(test::listDir(dir / "out"), std::vector<std::string>{});
}

// Every output is checked before any is made: a run refused for its last
// output leaves no folder of its first.
TEST(UsageErrors, ARefusedRunMakesNoFolder) {
    const fs::path dir = refusalsFolder("usage_errors_folders");
    for (const std::string& args : {
             "bake " + kScene + " --vdb vc --nvdb afile",
             "render " + kScene + " --vdb vc --png pngs --exr exrs -o afile/out.mp4",
             "render " + kScene + " --png pngs --stats afile/s.csv",
         }) {
        const auto r = runPlume(args, dir);
        EXPECT_EQ(r.status, 2) << "plume " << args << "\n" << r.err;
        for (const char* made : {"vc", "pngs", "exrs"})
            EXPECT_FALSE(fs::exists(dir / made)) << "plume " << args << " made " << made;
    }
}

// Every refusal, whichever part of plume makes it, reads WHERE: error: WHAT
// on one line; one that names no place is plume's ("plume: error: ...").
TEST(UsageErrors, EveryRefusalHasTheFormWhereErrorWhat) {
    const fs::path dir = refusalsFolder("usage_errors_2");
    std::vector<std::string> args;
    for (const Refusal& refusal : kRefusals) args.push_back(refusal.args);
    // Refusals made past the parser, by the commands themselves.
    for (const std::string& more : std::vector<std::string>{
             "render " + kScene + " --png frames --skip-existing",
             "render " + kScene + " --no-video", "encode frames frames --label a -o x.mp4",
             "upres caches -o caches/fine --factor 9", "render " + kScene + " --frames 9-3",
             "render " + kScene + " --set nosuch.key=1"})
        args.push_back(more);
    const std::regex form(R"(^\S[^\n]*: error: \S[^\n]*\n$)");
    for (const std::string& a : args) {
        const auto r = runPlume(a, dir);
        EXPECT_EQ(r.status, 2) << "plume " << a << "\n" << r.err;
        EXPECT_TRUE(std::regex_match(r.err, form)) << "plume " << a << "\n" << r.err;
    }
}

TEST(UsageErrors, HelpCommandPrintsACommandsHelp) {
    const fs::path dir = scratchDir("usage_help");
    const auto top = runPlume("--help", dir);
    ASSERT_EQ(top.status, 0);
    EXPECT_NE(top.out.find("plume help COMMAND"), std::string::npos) << top.out;
    EXPECT_EQ(runPlume("help", dir).out, top.out);
    EXPECT_EQ(runPlume("help help", dir).out, top.out);
    for (const char* command :
         {"render", "bake", "render-vdb", "upres", "encode", "farm", "check"}) {
        const auto help = runPlume(std::string("help ") + command, dir);
        EXPECT_EQ(help.status, 0) << command;
        EXPECT_EQ(help.out, runPlume(std::string(command) + " --help", dir).out) << command;
        EXPECT_NE(help.out.find(std::string("Usage: plume ") + command + " "), std::string::npos)
            << help.out;
    }
    // upres's -o is required, and says so; render-vdb writes no cache, and says none.
    EXPECT_NE(runPlume("help upres", dir).out.find("-o,--output TEXT REQUIRED"), std::string::npos);
    EXPECT_EQ(runPlume("help render-vdb", dir).out.find("--vdb"), std::string::npos);
    EXPECT_NE(runPlume("help farm", dir).out.find("--cpus-per-task"), std::string::npos);
    const auto two = runPlume("help render bake", dir);
    EXPECT_EQ(two.status, 2);
    EXPECT_EQ(two.err, "plume help: error: takes one command name, e.g. plume help render\n");
}

}  // namespace
}  // namespace plume
