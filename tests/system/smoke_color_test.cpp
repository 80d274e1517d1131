// The smoke's colour (emitter.color, sim/smoke_color.h): two emitters, red
// and blue, give red, blue and purple smoke, in the solver's fields, the
// cache's `color` grid and the rendered frame, with no green anywhere; the
// colour is a mass the closed box keeps; it changes nothing else the solver
// does; it is the same for any thread count, resumes bit for bit and goes
// through upres; and render-vdb draws a cache's colour, plume's and
// Mantaflow's.
#include <gtest/gtest.h>
#include <openvdb/openvdb.h>
#include <openvdb/tools/Dense.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "core/parallel.h"
#include "io/png.h"
#include "io/vdb_cache.h"
#include "render/renderer.h"
#include "scene/loader.h"
#include "sim/solver.h"
#include "sim/upres/upres.h"
#include "support/run.h"
#include "support/scene_errors.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

using test::kSourceDir;

// A closed 1 x 0.5 x 1 m box, two emitters in its lower corners blowing
// toward each other for the first six frames: red from the left, blue from
// the right. They meet in the middle, where the smokes mix.
const char* const kTwoColours = R"(
[domain]
size = [1.0, 0.5, 1.0]
resolution = 32
boundary = "wall"
[time]
frames = 12
[[emitter]]
center = [0.3, 0.25, 0.2]
radius = 0.1
velocity = [1.0, 0, 0]
color = [1, 0, 0]
frames = [1, 6]
[[emitter]]
center = [0.7, 0.25, 0.2]
radius = 0.1
velocity = [-1.0, 0, 0]
color = [0, 0, 1]
frames = [1, 6]
[camera]
position = [0.5, -1.6, 0.5]
look_at = [0.5, 0.25, 0.5]
[render]
width = 96
height = 96
background_top = [0, 0, 0]
background_bottom = [0, 0, 0]
ambient = [0.2, 0.2, 0.2]
)";

Scene twoColours(const std::vector<std::string>& sets = {}) {
    return parseScene(kTwoColours, "two_colours.toml", sets);
}

// Each premultiplied channel and the density, summed over the solve.
struct Masses {
    double density = 0, color[3] = {0, 0, 0};
};
Masses masses(const Solver& solver) {
    Masses m;
    for (const Fields* f : solver.islandFields())
        for (size_t c = 0; c < f->density.size(); ++c) {
            m.density += f->density[c];
            for (int a = 0; a < 3; ++a) m.color[a] += f->color[a][c];
        }
    return m;
}

// Cells of smoke (density above 0.05) whose colour is red, blue and both.
struct Mix {
    int red = 0, blue = 0, purple = 0, cells = 0;
    float green = 0;  // the largest green
};
void count(Mix& m, float d, float r, float g, float b) {
    m.green = std::max(m.green, std::fabs(g));
    if (d < 0.05f) return;
    ++m.cells;
    if (r > 0.9f && b < 0.1f) ++m.red;
    if (b > 0.9f && r < 0.1f) ++m.blue;
}
// Where the two meet the smoke is thinner: purple counts down to 0.01.
void countPurple(Mix& m, float d, float r, float b) {
    if (d > 0.01f && r > 0.25f && b > 0.25f) ++m.purple;
}

TEST(SmokeColor, TwoEmittersGiveRedBlueAndPurpleSmokeAndNoGreen) {
    test::TempDir dir("smoke_color");
    const Scene scene = twoColours();
    ASSERT_TRUE(scene.colored());
    Solver solver(scene);
    for (int frame = 1; frame <= 12; ++frame) solver.advanceFrame(frame);

    // The cache's colour, read back through OpenVDB: the colour itself.
    const std::string path = dir.file("two.vdb");
    CacheOptions exact;
    exact.halfFloats = false;
    exact.tolerance = 0.0f;
    writeVdbFrame(path, solver.islandFields(), 12, "two", exact);
    const LoadedVolume v = readVdbVolume(path);
    ASSERT_TRUE(v.hasColor);
    EXPECT_FALSE(v.colorPremultiplied);
    Mix cache;
    for (size_t c = 0; c < v.density.size(); ++c) {
        count(cache, v.density[c], v.color[0][c], v.color[1][c], v.color[2][c]);
        countPurple(cache, v.density[c], v.color[0][c], v.color[2][c]);
    }
    std::printf("cache: %d cells of smoke, %d red, %d blue, %d purple\n", cache.cells, cache.red,
                cache.blue, cache.purple);
    EXPECT_GT(cache.red, cache.cells / 5);
    EXPECT_GT(cache.blue, cache.cells / 5);
    EXPECT_GT(cache.purple, 20);
    EXPECT_EQ(cache.green, 0.0f);

    // The frame, lit by white light and a grey sky over black: red, blue and
    // purple pixels, and not a trace of green.
    Renderer renderer(scene);
    const Solver& solved = solver;  // its fields across islands
    const std::vector<float> rgb = renderer.renderLinear(solved.fields().view(), 12);
    Mix frame;
    float brightest = 0.0f;
    for (size_t p = 0; p + 2 < rgb.size(); p += 3) {
        const float r = rgb[p], g = rgb[p + 1], b = rgb[p + 2];
        brightest = std::max({brightest, r, b});
        frame.green = std::max(frame.green, g);
        const float lit = std::max(r, b);
        if (lit < 0.02f) continue;
        ++frame.cells;
        if (b < 0.1f * r) ++frame.red;
        if (r < 0.1f * b) ++frame.blue;
        if (r > 0.4f * b && b > 0.4f * r) ++frame.purple;
    }
    std::printf("frame: %d lit pixels, %d red, %d blue, %d purple, brightest %.3f\n", frame.cells,
                frame.red, frame.blue, frame.purple, brightest);
    EXPECT_GT(frame.red, frame.cells / 5);
    EXPECT_GT(frame.blue, frame.cells / 5);
    EXPECT_GT(frame.purple, 10);
    EXPECT_EQ(frame.green, 0.0f);
}

TEST(SmokeColor, TheClosedBoxKeepsTheColoursMass) {
    // Two puffs of unequal size made in the first frame, in the middle of
    // the closed box, drift into each other and rise: up to frame 8 they
    // meet and mix, and touch no wall. No smoke comes in or leaves (and
    // none dissipates), and each colour's mass stays as it was: within 0.5%
    // measured, as density's (which the advection keeps to 0.6%). Red and
    // blue, all the smoke there is, sum to its density to the last bits.
    const Scene scene =
        twoColours({"emitter[1].frames=[1, 1]", "emitter[2].frames=[1, 1]",
                    "emitter[1].center=[0.32, 0.25, 0.4]", "emitter[2].center=[0.68, 0.25, 0.4]",
                    "emitter[1].radius=0.15", "emitter[2].radius=0.12",
                    "emitter[1].velocity=[0.6, 0, 0]", "emitter[2].velocity=[-0.6, 0, 0]"});
    Solver solver(scene);
    solver.advanceFrame(1);
    const Masses first = masses(solver);
    ASSERT_GT(first.color[0], 1.5 * first.color[2]);
    for (int frame = 2; frame <= 8; ++frame) {
        solver.advanceFrame(frame);
        const Masses now = masses(solver);
        std::printf("frame %d: density %.5f, red %.5f, blue %.5f of frame 1's\n", frame,
                    now.density / first.density, now.color[0] / first.color[0],
                    now.color[2] / first.color[2]);
        EXPECT_NEAR(now.color[0] / first.color[0], 1.0, 0.01) << "frame " << frame;
        EXPECT_NEAR(now.color[2] / first.color[2], 1.0, 0.01) << "frame " << frame;
        EXPECT_EQ(now.color[1], 0.0);
        EXPECT_NEAR((now.color[0] + now.color[2]) / now.density, 1.0, 1e-5) << "frame " << frame;
    }
    // They did meet: purple smoke where they touch.
    Mix mix;
    for (const Fields* f : solver.islandFields())
        for (size_t c = 0; c < f->density.size(); ++c) {
            const float d = f->density[c];
            countPurple(mix, d, d > 0 ? f->color[0][c] / d : 0, d > 0 ? f->color[2][c] / d : 0);
        }
    EXPECT_GT(mix.purple, 4);
}

TEST(SmokeColor, TheColourChangesNothingElseTheSolverDoes) {
    // The colour is carried, never felt: the same scene without its colour
    // keys gives the same bits of density, temperature and velocity.
    Scene grey = twoColours();
    for (EmitterSettings& e : grey.emitters) e.colored = false;
    ASSERT_FALSE(grey.colored());
    Solver coloured(twoColours()), plain(grey);
    for (int frame = 1; frame <= 8; ++frame) {
        coloured.advanceFrame(frame);
        plain.advanceFrame(frame);
    }
    const Fields &a = static_cast<const Solver&>(coloured).fields(),
                 &b = static_cast<const Solver&>(plain).fields();
    EXPECT_TRUE(a.colored());
    EXPECT_FALSE(b.colored());
    ASSERT_TRUE(a.box() == b.box());
    for (auto grid : {&Fields::density, &Fields::temperature})
        EXPECT_EQ(std::memcmp((a.*grid).data(), (b.*grid).data(), (a.*grid).size() * 4), 0);
    for (int axis = 0; axis < 3; ++axis)
        EXPECT_EQ(std::memcmp(a.component(axis).data(), b.component(axis).data(),
                              a.component(axis).size() * 4),
                  0);
}

TEST(SmokeColor, SameBitsForAnyThreadCount) {
    const Scene scene = twoColours({"upres.factor=2"});
    auto bake = [&](int threads) {
        setThreadCount(threads);
        Solver solver(scene);
        Upres upres(scene);
        for (int frame = 1; frame <= 6; ++frame) {
            solver.advanceFrame(frame);
            upres.advance(solver.islandFields(), frame);
        }
        return std::make_pair(static_cast<const Solver&>(solver).fields(), upres.fine());
    };
    // Seven: as many slabs as a seven-core machine would split off
    // (core/parallel.h), on however many cores there are.
    const auto one = bake(1), two = bake(7);
    setThreadCount(0);
    for (int a = 0; a < 3; ++a) {
        ASSERT_EQ(one.first.color[a].size(), two.first.color[a].size());
        EXPECT_EQ(std::memcmp(one.first.color[a].data(), two.first.color[a].data(),
                              one.first.color[a].size() * 4),
                  0);
        ASSERT_EQ(one.second.color[a].size(), two.second.color[a].size());
        EXPECT_EQ(std::memcmp(one.second.color[a].data(), two.second.color[a].data(),
                              one.second.color[a].size() * 4),
                  0);
    }
}

// The scene's file in `dir`, for the plume binary.
std::string writeScene(const test::TempDir& dir) {
    std::ofstream(dir.file("two.toml")) << kTwoColours;
    return "two.toml";
}

TEST(SmokeColor, AResumedBakeGoesOnBitForBitWithAndWithoutUpresAndUpresCarriesTheColour) {
    // The solver's state holds its colour; upres's its fine grid's (the
    // cache of a bake with upres holds only the fine grid's).
    for (const std::string upres : {"", "--set upres.factor=2 "}) {
        test::TempDir dir("smoke_color_resume");
        const std::string bake =
            "bake " + writeScene(dir) + " " + upres + "--set 'output.vdb_precision=\"exact\"' -q ";
        ASSERT_EQ(test::runPlume(bake + "--set time.frames=8 --vdb whole", dir.path()).status, 0);
        ASSERT_EQ(test::runPlume(bake + "--set time.frames=4 --vdb parts", dir.path()).status, 0);
        const test::RunResult resumed =
            test::runPlume(bake + "--set time.frames=8 --vdb parts --resume", dir.path());
        ASSERT_EQ(resumed.status, 0) << resumed.err;
        for (const char* frame : {"two_0005.vdb", "two_0008.vdb"}) {
            const CacheFrame a = readVdbFrame(dir.file(std::string("whole/") + frame));
            const CacheFrame b = readVdbFrame(dir.file(std::string("parts/") + frame));
            ASSERT_TRUE(a.colored() && b.colored()) << upres << frame;
            for (int c = 0; c < 3; ++c)
                EXPECT_EQ(std::memcmp(a.color[c].data(), b.color[c].data(), a.color[c].size() * 4),
                          0)
                    << upres << frame << " channel " << c;
        }
        if (upres.empty()) continue;
        // The fine grid's colour: red and blue, twice as fine as the base's.
        const LoadedVolume fine = readVdbVolume(dir.file("whole/two_0008.vdb"));
        ASSERT_TRUE(fine.hasColor);
        EXPECT_NEAR(fine.dx, 1.0f / 64.0f, 1e-6f);
        Mix mix;
        for (size_t c = 0; c < fine.density.size(); ++c)
            count(mix, fine.density[c], fine.color[0][c], fine.color[1][c], fine.color[2][c]);
        EXPECT_GT(mix.red, mix.cells / 5);
        EXPECT_GT(mix.blue, mix.cells / 5);
        EXPECT_EQ(mix.green, 0.0f);
    }
}

TEST(SmokeColor, AnExactCacheRendersItsColoursAsRenderDrewThem) {
    // render-vdb of plume's exact cache, with its scene, draws the frames
    // render drew from the solver, bit for bit: the `color` grid holds the
    // very colours the renderer took from the solver's fields.
    test::TempDir dir("smoke_color_exact");
    const std::string scene = writeScene(dir);
    test::RunResult r = test::runPlume("render " + scene +
                                           " --frames 1-9 --vdb cache --png direct --no-video -q "
                                           "--set 'output.vdb_precision=\"exact\"'",
                                       dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume("render-vdb 'cache/two_####.vdb' --scene " + scene +
                           " --frames 9 --png fromcache --no-video -q",
                       dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const Image direct = readPng(dir.file("direct/two_0009.png"));
    const Image cached = readPng(dir.file("fromcache/two_0009.png"));
    EXPECT_TRUE(direct.pixels == cached.pixels);
}

// Over black, lit by a white sun and sky.
const char* const kOverBlack =
    " --set 'render.background_top=[0, 0, 0]' --set 'render.background_bottom=[0, 0, 0]'"
    " --set 'render.ambient=[0.2, 0.2, 0.2]'";

// The mean colour of the lit pixels in the left and the right half of a PNG.
struct Halves {
    float left[3] = {0, 0, 0}, right[3] = {0, 0, 0};
};
Halves halves(const std::string& png) {
    const Image image = readPng(png);
    Halves h;
    double sum[2][3] = {}, n[2] = {0, 0};
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const uint8_t* p = image.pixel(x, y);
            if (std::max({p[0], p[1], p[2]}) < 40) continue;
            const int side = x < image.width / 2 ? 0 : 1;
            for (int c = 0; c < 3; ++c) sum[side][c] += p[c];
            n[side] += 1;
        }
    for (int c = 0; c < 3; ++c) {
        h.left[c] = n[0] ? float(sum[0][c] / n[0]) : 0.0f;
        h.right[c] = n[1] ? float(sum[1][c] / n[1]) : 0.0f;
    }
    return h;
}

TEST(SmokeColor, RenderVdbDrawsAForeignColorGrid) {
    // A cache written by OpenVDB itself, not plume's io: a density cube of
    // 16^3 voxels, its left half yellow and its right half cyan in a `color`
    // vector grid, as Houdini or a Blender export would hold them.
    test::TempDir dir("smoke_color_foreign");
    openvdb::initialize();
    auto density = openvdb::FloatGrid::create(0.0f);
    auto color = openvdb::Vec3SGrid::create(openvdb::Vec3s(0.0f));
    auto d = density->getAccessor();
    auto c = color->getAccessor();
    for (int k = 0; k < 16; ++k)
        for (int j = 0; j < 16; ++j)
            for (int i = 0; i < 16; ++i) {
                d.setValue(openvdb::Coord(i, j, k), 0.5f);
                c.setValue(openvdb::Coord(i, j, k), i < 8 ? openvdb::Vec3s(1.0f, 1.0f, 0.0f)
                                                          : openvdb::Vec3s(0.0f, 1.0f, 1.0f));
            }
    auto xform = openvdb::math::Transform::createLinearTransform(0.05);
    density->setTransform(xform);
    color->setTransform(xform);
    density->setName("density");
    color->setName("color");
    openvdb::io::File(dir.file("cube_0001.vdb")).write({density, color});
    const test::RunResult r = test::runPlume(
        "render-vdb 'cube_####.vdb' --set render.width=64 --set render.height=48 --set "
        "'camera.position=[0.4, -2.0, 0.4]' --set 'camera.look_at=[0.4, 0.4, 0.4]' "
        "--png png --no-video -q" +
            std::string(kOverBlack),
        dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const Halves h = halves(dir.file("png/cube_0001.png"));
    std::printf("left %.0f %.0f %.0f, right %.0f %.0f %.0f\n", h.left[0], h.left[1], h.left[2],
                h.right[0], h.right[1], h.right[2]);
    EXPECT_GT(h.left[0], 2.0f * h.left[2]);  // yellow: red and green, little blue
    EXPECT_GT(h.left[1], 2.0f * h.left[2]);
    EXPECT_GT(h.right[2], 2.0f * h.right[0]);  // cyan: green and blue, little red
    EXPECT_GT(h.right[1], 2.0f * h.right[0]);
}

// tests/data/mantaflow_colors/: Blender's Mantaflow (3.4.1) baking two smoke
// flows at 24 cells, red on the left and blue on the right, frame 6
// (tests/blender/bake_mantaflow.py ... 24 6 COLORS).
const std::string kMantaflowColors = kSourceDir + "/tests/data/mantaflow_colors/";

TEST(SmokeColor, MantaflowsColourChannelsArePremultipliedByDensity) {
    const LoadedVolume v = readVdbVolume(kMantaflowColors + "fluid_data_0006.vdb");
    ASSERT_TRUE(v.hasColor);
    EXPECT_TRUE(v.colorPremultiplied);
    // The red smoke's red channel grows with its density (a colour itself
    // would be the flow's 1 wherever there is smoke): about 0.1 where it is
    // thin, the density itself where it is thick (measured: a median of 0.85
    // of it, Mantaflow's advection and emission of the two drifting apart).
    std::vector<float> thick;
    double thinRed = 0;
    int thin = 0;
    for (size_t c = 0; c < v.density.size(); ++c) {
        const float d = v.density[c], r = v.color[0][c], b = v.color[2][c];
        if (d < 0.05f || b > 1e-3f) continue;
        if (d < 0.3f) thinRed += r, ++thin;
        if (d > 0.7f) thick.push_back(r / d);
    }
    ASSERT_GT(thin, 20);
    ASSERT_GT(thick.size(), 20u);
    std::nth_element(thick.begin(), thick.begin() + thick.size() / 2, thick.end());
    const float median = thick[thick.size() / 2];
    std::printf("thin red smoke: red %.3f; thick: red over density %.3f\n", thinRed / thin, median);
    EXPECT_LT(thinRed / thin, 0.3);
    EXPECT_GT(median, 0.7f);
    EXPECT_LT(median, 1.1f);
    // render-vdb draws it in its colours: red on the left, blue on the right.
    test::TempDir dir("smoke_color_mantaflow");
    const test::RunResult r = test::runPlume(
        "render-vdb '" + kMantaflowColors +
            "fluid_data_####.vdb' --set render.width=64 --set render.height=48 --png png "
            "--no-video -q" +
            std::string(kOverBlack),
        dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const Halves h = halves(dir.file("png/fluid_data_0006.png"));
    std::printf("left %.0f %.0f %.0f, right %.0f %.0f %.0f\n", h.left[0], h.left[1], h.left[2],
                h.right[0], h.right[1], h.right[2]);
    EXPECT_GT(h.left[0], 3.0f * std::max(h.left[1], h.left[2]));
    EXPECT_GT(h.right[2], 3.0f * std::max(h.right[0], h.right[1]));
}

TEST(SmokeColor, FiresSootTakesTheFlameSmokeColor) {
    // A fire beside a white smoke: the soot the fire makes is
    // physics.flame_smoke_color, mixed with white only where they meet.
    const Scene scene = parseScene(R"(
[domain]
size = [1.0, 0.5, 1.0]
resolution = 24
[[emitter]]
center = [0.25, 0.25, 0.15]
radius = 0.08
fuel = 1.0
temperature = 2.0
[[emitter]]
center = [0.8, 0.25, 0.15]
radius = 0.08
color = [1, 1, 1]
[physics]
flame_smoke_color = [0.2, 0.1, 0.05]
)",
                                   "fire.toml");
    Solver solver(scene);
    for (int frame = 1; frame <= 10; ++frame) solver.advanceFrame(frame);
    const Fields& f = static_cast<const Solver&>(solver).fields();
    ASSERT_TRUE(f.colored());
    int soot = 0;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x / 3; ++i) {  // the fire's third of the box
                const float d = f.density(i, j, k);
                if (d < 0.02f) continue;
                ++soot;
                EXPECT_NEAR(f.color[0](i, j, k) / d, 0.2f, 0.01f);
                EXPECT_NEAR(f.color[1](i, j, k) / d, 0.1f, 0.01f);
                EXPECT_NEAR(f.color[2](i, j, k) / d, 0.05f, 0.01f);
            }
    EXPECT_GT(soot, 10);
}

TEST(SmokeColor, KeysChangeTheColourAnEmitterEmits) {
    // Keys alone give an emitter its colour: red to frame 6, blue from frame
    // 8. The smoke that rose first is red, what it emits last blue.
    const Scene scene = parseScene(R"(
[domain]
size = [0.5, 0.5, 1.0]
resolution = 32
[[emitter]]
center = [0.25, 0.25, 0.12]
radius = 0.08
[[emitter.key]]
frame = 6
color = [1, 0, 0]
[[emitter.key]]
frame = 8
color = [0, 0, 1]
)",
                                   "keyed.toml");
    ASSERT_TRUE(scene.colored());
    Solver solver(scene);
    for (int frame = 1; frame <= 16; ++frame) solver.advanceFrame(frame);
    const Fields& f = static_cast<const Solver&>(solver).fields();
    // The density-weighted colour of the lowest and the highest smoke.
    auto layer = [&](bool top) {
        double red = 0, blue = 0;
        for (int k = 0; k < f.n.z; ++k) {
            double d = 0;
            for (int j = 0; j < f.n.y; ++j)
                for (int i = 0; i < f.n.x; ++i) d += f.density(i, j, k);
            if (d < 0.5) continue;  // not much smoke in this layer
            if (top ? k < f.n.z / 2 : k > 6) continue;
            for (int j = 0; j < f.n.y; ++j)
                for (int i = 0; i < f.n.x; ++i) {
                    red += f.color[0](i, j, k);
                    blue += f.color[2](i, j, k);
                }
        }
        return red / std::max(red + blue, 1e-9);
    };
    const double low = layer(false), high = layer(true);
    std::printf("red share: %.3f at the bottom, %.3f at the top\n", low, high);
    EXPECT_LT(low, 0.1);
    EXPECT_GT(high, 0.6);
}

}  // namespace
}  // namespace plume
