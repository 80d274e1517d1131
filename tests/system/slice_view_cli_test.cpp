// Slice views from the command line: a bad view or plane is one line at the
// key's place (exit 2), a view of a grid a cache lacks names the grid, and
// render and render-vdb write the view's frames like any other.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "io/png.h"
#include "io/vdb_cache.h"
#include "scene/slice_spec.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::runPlume;
using test::scratchDir;

const std::string kRising = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/rising.toml";

int countLines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

TEST(SliceViewCli, AWrongViewNameIsOneLineNamingTheKeyAndTheChoices) {
    const fs::path dir = scratchDir("slice_cli_view_name");
    const auto r = runPlume("check " + kRising + " --set render.view=presure", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("'render.view' must be one of \"shaded\", \"density\""), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("got \"presure\""), std::string::npos) << r.err;

    // A flame in a scene without fire.
    const auto flame = runPlume("check " + kRising + " --set render.view=flame", dir);
    EXPECT_EQ(flame.status, 2) << flame.err;
    EXPECT_EQ(countLines(flame.err), 1) << flame.err;
    EXPECT_NE(flame.err.find("'render.view' = \"flame\": the scene burns nothing"),
              std::string::npos)
        << flame.err;
}

TEST(SliceViewCli, ABadSliceIsOneLineAtItsLine) {
    const fs::path dir = scratchDir("slice_cli_bad_slice");
    std::ifstream in(kRising);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(dir / "bad.toml") << text << "view = \"density\"\nslice = \"w=0.5\"\n";
    auto r = runPlume("check bad.toml", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("bad.toml:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("error: 'render.slice' = \"w=0.5\": the axis must be x, y or z"),
              std::string::npos)
        << r.err;

    // A plane outside the domain (x spans 0 to 1 m).
    r = runPlume("check " + kRising + " --set render.slice=x=1.5", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("'render.slice' = \"x=1.5\": the plane lies outside the domain, which "
                         "spans x = 0 to 1 m"),
              std::string::npos)
        << r.err;

    r = runPlume("check " + kRising + " --set render.slice=x=abc", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("the position must be a number of metres"), std::string::npos) << r.err;
}

TEST(SliceViewCli, PressureOfACacheIsAnErrorNamingTheMissingGrid) {
    const fs::path dir = scratchDir("slice_cli_pressure_vdb");
    auto r = runPlume("bake " + kRising + " --vdb cache --frames 1-2 --quiet", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("render-vdb 'cache/rising_####.vdb' -o p.mp4 --png p --set render.view=pressure",
                 dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("cache/rising_0001.vdb: error: render.view = \"pressure\": no pressure "
                         "grid (the file holds density, temperature, velocity)"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir / "p.mp4"));
    EXPECT_FALSE(fs::exists(dir / "p"));  // refused before any output folder is made

    // A flame of a cache without one, the same way.
    r = runPlume("render-vdb 'cache/rising_####.vdb' --no-video --png f --set render.view=flame",
                 dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("cache/rising_0001.vdb: error: render.view = \"flame\": no flame grid"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir / "f"));

    // A view of what the cache has renders: speed from its velocity, with
    // streamlines, to PNG and EXR.
    r = runPlume("render-vdb 'cache/rising_####.vdb' --scene " + kRising +
                     " --no-video --png png --exr exr --set render.view=speed --set "
                     "render.view_velocity=true --quiet",
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir / "png/rising_0002.png"));
    EXPECT_TRUE(fs::exists(dir / "exr/rising_0002.exr"));
}

TEST(SliceViewCli, RenderWritesTheViewOfTheSolversPressure) {
    const fs::path dir = scratchDir("slice_cli_pressure_render");
    const auto r = runPlume("render " + kRising +
                                " --frames 1-2 --no-video --png png --set render.view=pressure "
                                "--quiet",
                            dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const Image image = readPng((dir / "png/rising_0002.png").string());
    ASSERT_EQ(image.width, 96);
    // Not one flat colour: the map, the bar and its labels.
    int distinct = 0;
    for (size_t n = 3; n < image.pixels.size(); n += 3)
        distinct += image.pixels[n] != image.pixels[n - 3];
    EXPECT_GT(distinct, 200);
}

// The farm renders from its cache: a view of what the cache holds goes
// through its scripts like any render key; pressure is refused up front.
TEST(SliceViewCli, TheFarmRendersAViewAndRefusesPressure) {
    const fs::path dir = scratchDir("slice_cli_farm");
    auto r =
        runPlume("farm " + kRising +
                     " --slurm -o out/shot.mp4 --chunk 8 --dry-run --set render.view=vorticity "
                     "--set render.view_velocity=true",
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const fs::path main = dir / "out" / "shot.farm" / "main";
    const std::string bake =
        test::capture("bash '" + (main / "bake.sh").string() + "' 2>&1; echo $?");
    ASSERT_TRUE(bake.ends_with("\n0\n") || bake == "0\n") << bake;
    const std::string render =
        test::capture("cd '" + dir.string() + "' && SLURM_ARRAY_TASK_ID=0 bash '" +
                      (main / "render.sh").string() + "' 2>&1; echo $?");
    ASSERT_TRUE(render.ends_with("\n0\n")) << render;
    const Image image = readPng((main / "frames" / "rising_0008.png").string());
    ASSERT_EQ(image.width, 96);
    int distinct = 0;
    for (size_t n = 3; n < image.pixels.size(); n += 3)
        distinct += image.pixels[n] != image.pixels[n - 3];
    EXPECT_GT(distinct, 200);

    r = runPlume(
        "farm " + kRising + " --slurm -o out2/shot.mp4 --dry-run --set render.view=pressure", dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("render.view = \"pressure\": the farm renders from its cache"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(dir / "out2"));
}

// render-vdb without a scene draws the middle of the sequence's box, not
// half its upper bound: the cache of a domain moved by domain.origin (y from
// 6 to 7 m) gives the very frame of the plane at the box's middle given.
TEST(SliceViewCli, RenderVdbsDefaultPlaneIsTheMiddleOfAMovedCache) {
    const fs::path dir = scratchDir("slice_cli_moved");
    std::ofstream(dir / "moved.toml") << R"([domain]
origin = [2.0, 6.0, -1.0]
size = [1.0, 1.0, 1.5]
resolution = 24
boundary = "open"
[time]
frames = 3
max_substeps = 2
[[emitter]]
shape = "sphere"
center = [2.5, 6.5, -0.75]
radius = 0.15
density = 1.0
temperature = 1.5
)";
    auto r = runPlume("bake moved.toml --vdb cache -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    // The sequence's box as render-vdb finds it: every frame's density.
    Vec3f lo(1e30f), hi(-1e30f);
    for (const char* frame : {"moved_0001.vdb", "moved_0002.vdb", "moved_0003.vdb"}) {
        const VolumeBounds b = readVdbBounds((dir / "cache" / frame).string(), "density");
        lo = vmin(lo, b.worldMin);
        hi = vmax(hi, b.worldMax);
    }
    ASSERT_GT(lo.y, 5.5f);
    // The camera render-vdb frames the box with looks along +y.
    const std::string middle = sliceText(SliceSpec{1, 0.5f * (lo.y + hi.y)});
    const std::string render =
        "render-vdb 'cache/moved_####.vdb' --no-video --frames 3 -q "
        "--set render.view=density --set render.width=160 --set render.height=90 --png ";
    r = runPlume(render + "default", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume(render + "given --set render.slice=" + middle, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const Image byDefault = readPng((dir / "default/moved_0003.png").string());
    const Image given = readPng((dir / "given/moved_0003.png").string());
    EXPECT_TRUE(byDefault.pixels == given.pixels) << "the default plane is not " << middle;
    // The plane crosses the smoke: bright viridis (green above 150) on much
    // of the frame's left half, away from the colour bar.
    int bright = 0;
    for (int y = 0; y < given.height; ++y)
        for (int x = 0; x < given.width / 2; ++x) bright += given.pixel(x, y)[1] > 150;
    EXPECT_GT(bright, 20);
}

}  // namespace
}  // namespace plume
