// render.integrator = "path" through the real binary: it draws the beauty,
// and says what it leaves out: --deep is refused before the run (exit 2, no
// folder), render.passes warns once and the EXR holds the beauty.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

const char* kScene = R"([domain]
size = [1.0, 1.0, 1.0]
resolution = 16
[time]
frames = 2
[[emitter]]
shape = "sphere"
center = [0.5, 0.5, 0.25]
radius = 0.15
density = 2.0
temperature = 1.0
[render]
width = 32
height = 24
integrator = "path"
samples = 2
passes = ["all"]
)";

TEST(PathIntegratorCli, RefusesDeepAndWarnsOfPasses) {
    const fs::path dir = test::scratchDir("path_integrator_cli");
    std::ofstream(dir / "s.toml") << kScene;
    const test::RunResult deep = test::runPlume("render s.toml --deep deep --no-video", dir);
    EXPECT_EQ(deep.status, 2) << deep.err;
    EXPECT_NE(deep.err.find("--deep: error: a deep image is the march's samples; "
                            "render.integrator is \"path\""),
              std::string::npos)
        << deep.err;
    EXPECT_FALSE(fs::exists(dir / "deep"));

    const test::RunResult exr = test::runPlume("render s.toml --exr exr --no-video", dir);
    ASSERT_EQ(exr.status, 0) << exr.err;
    const std::string warning = "render.passes: render.integrator = \"path\" traces the beauty only";
    const size_t at = exr.err.find(warning);
    EXPECT_NE(at, std::string::npos) << exr.err;
    EXPECT_EQ(exr.err.find(warning, at + 1), std::string::npos) << "said once: " << exr.err;
    EXPECT_TRUE(fs::exists(dir / "exr" / "s_0002.exr"));
}

}  // namespace
}  // namespace plume
