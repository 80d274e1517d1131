// `plume new KIND`: every starting point is a scene plume takes and runs;
// --size scales it; a file already there is never replaced.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

const char* const kKinds[] = {"chimney", "wispy",    "billowy", "fog",      "candle",
                              "campfire", "torch", "fireball", "explosion"};

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Each kind written, checked, and two frames of it baked and drawn at a
// small size, at 16 cells: it runs as written, with nothing to fix first.
TEST(NewScene, EveryKindIsASceneThatRuns) {
    const fs::path dir = test::scratchDir("new_scene_kinds");
    for (const char* kind : kKinds) {
        const test::RunResult made = test::runPlume(std::string("new ") + kind, dir);
        ASSERT_EQ(made.status, 0) << kind << ": " << made.err;
        const fs::path scene = dir / (std::string(kind) + ".toml");
        ASSERT_TRUE(fs::exists(scene)) << kind;
        EXPECT_NE(made.out.find("plume render " + scene.filename().string()), std::string::npos)
            << made.out;
        const std::string text = slurp(scene);
        EXPECT_EQ(text.rfind("# Written by `plume new ", 0), 0u) << text;
        EXPECT_EQ(text.find('{' + std::string("m:")), std::string::npos) << kind;
        const test::RunResult run = test::runPlume(
            "render " + scene.filename().string() +
                " --frames 2 --no-video --png png --set domain.resolution=16 --set upres.factor=1"
                " --set render.width=32 --set render.height=24 --quiet",
            dir);
        EXPECT_EQ(run.status, 0) << kind << ": " << run.err;
        EXPECT_TRUE(fs::exists(dir / "png" / (std::string(kind) + "_0002.png"))) << kind;
    }
}

// --size sets the domain's longest side; positions scale with it, and a
// speed by the square root (the campfire at 4.8 m is twice its 2.4 m).
TEST(NewScene, SizeScalesTheScene) {
    const fs::path dir = test::scratchDir("new_scene_size");
    ASSERT_EQ(test::runPlume("new torch -o small.toml --quiet", dir).status, 0);
    ASSERT_EQ(test::runPlume("new torch -o big.toml --size 4 --quiet", dir).status, 0);
    const test::RunResult small = test::runPlume("check small.toml", dir);
    const test::RunResult big = test::runPlume("check big.toml", dir);
    ASSERT_EQ(small.status, 0) << small.err;
    ASSERT_EQ(big.status, 0) << big.err;
    const std::string s = slurp(dir / "small.toml"), b = slurp(dir / "big.toml");
    EXPECT_NE(s.find("size = [0.5, 0.5, 1.0]"), std::string::npos) << s;
    EXPECT_NE(b.find("size = [2.0, 2.0, 4.0]"), std::string::npos) << b;
    EXPECT_NE(s.find("velocity = [0.0, 0.0, 3.0]"), std::string::npos) << s;
    EXPECT_NE(b.find("velocity = [0.0, 0.0, 6.0]"), std::string::npos) << b;
    EXPECT_NE(b.find("# Written by `plume new torch --size 4`"), std::string::npos) << b;
}

// A scene already at the path stays as it was; an unknown kind is refused.
TEST(NewScene, NeverReplacesAFileAndRefusesAnUnknownKind) {
    const fs::path dir = test::scratchDir("new_scene_refusals");
    std::ofstream(dir / "mine.toml") << "# my own scene\n";
    const test::RunResult again = test::runPlume("new fog -o mine.toml", dir);
    EXPECT_EQ(again.status, 2);
    EXPECT_NE(again.err.find("'mine.toml' is already there"), std::string::npos) << again.err;
    EXPECT_EQ(slurp(dir / "mine.toml"), "# my own scene\n");
    EXPECT_EQ(std::count(again.err.begin(), again.err.end(), '\n'), 1) << again.err;

    const test::RunResult unknown = test::runPlume("new smog", dir);
    EXPECT_EQ(unknown.status, 2);
    EXPECT_NE(unknown.err.find("chimney"), std::string::npos) << unknown.err;
    EXPECT_FALSE(fs::exists(dir / "smog.toml"));
}

}  // namespace
}  // namespace plume
