// Points emitters (shape = "points"): a PLY a frame, each point a sphere of
// its radius (or pscale, else the emitter's) emitting smoke with its
// velocity, a continuous trail between frames; the same bits for any thread
// count and after a resume; bad files and sequences refused before a bake.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "core/parallel.h"
#include "core/point_sequence.h"
#include "io/scene_geometry.h"
#include "io/vdb_cache.h"
#include "scene/loader.h"
#include "sim/point_emitters.h"
#include "sim/solver.h"
#include "support/ply_writer.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::plyBytes;
using test::PlyLayout;

// A 2 x 1 x 1 m domain of 32 cells along x (dx = 1/16 m) with no buoyancy,
// so smoke moves only as the points move it.
std::string sceneText(const std::string& emitter, int frames = 6) {
    return "[domain]\nsize = [2.0, 1.0, 1.0]\nresolution = 32\nboundary = \"open\"\n"
           "[time]\nframes = " +
           std::to_string(frames) +
           "\n[physics]\nbuoyancy_density = 0.0\nbuoyancy_heat = 0.0\nvorticity = 0.0\n"
           "[[emitter]]\nshape = \"points\"\n" +
           emitter + "\n[render]\nwidth = 32\nheight = 32\n";
}

Scene loadIn(const fs::path& dir, const std::string& text) {
    test::writeFile((dir / "points.toml").string(), text);
    Scene scene = loadScene((dir / "points.toml").string());
    loadSceneGeometry(scene);
    return scene;
}

// The density's centre along x and its total.
std::pair<double, double> centroidX(const Fields& f) {
    double mass = 0, moment = 0;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                const double d = f.density(i, j, k);
                mass += d;
                moment += d * (f.origin.x + (i + 0.5) * f.dx);
            }
    return {mass > 0 ? moment / mass : 0.0, mass};
}

float densityAt(const Fields& f, Vec3f p) {
    const Vec3f g = (p - f.origin) / f.dx;
    return f.density(int(g.x), int(g.y), int(g.z));
}

TEST(PointEmitter, EachPointEmitsASphereOfItsRadiusOrPscale) {
    const fs::path dir = test::scratchDir("points_radius");
    PlyLayout withRadius;
    withRadius.properties = {"x", "y", "z", "radius"};
    test::writeFile((dir / "big_0001.ply").string(),
                    plyBytes({{0.5, 0.5, 0.5, 0.2}, {1.5, 0.5, 0.5, 0.07}}, withRadius));
    PlyLayout withPscale = withRadius;
    withPscale.properties.back() = "pscale";
    test::writeFile((dir / "scaled_0001.ply").string(),
                    plyBytes({{0.5, 0.5, 0.5, 0.2}}, withPscale));
    test::writeFile((dir / "bare_0001.ply").string(), plyBytes({{0.5, 0.5, 0.5}}));

    auto after = [&](const std::string& file) {
        Solver solver(loadIn(dir, sceneText("file = \"" + file + "\"\nradius = 0.12", 1)));
        solver.advanceFrame(1);
        return Fields(solver.fields());
    };
    const Fields big = after("big_####.ply");
    // Inside each point's sphere, at its centre and 0.15 m out for the 0.2 m one.
    EXPECT_GT(densityAt(big, {0.53f, 0.53f, 0.53f}), 0.9f);
    EXPECT_GT(densityAt(big, {0.53f + 0.15f, 0.53f, 0.53f}), 0.8f);
    EXPECT_GT(densityAt(big, {1.53f, 0.53f, 0.53f}), 0.7f);  // 0.054 m from its centre
    // Beyond the 0.07 m one's radius, and far from both: none.
    EXPECT_LT(densityAt(big, {1.53f + 0.15f, 0.53f, 0.53f}), 0.05f);
    EXPECT_EQ(densityAt(big, {1.0f, 0.53f, 0.53f}), 0.0f);

    const Fields scaled = after("scaled_%04d.ply");  // pscale, and the printf pattern
    EXPECT_GT(densityAt(scaled, {0.53f + 0.15f, 0.53f, 0.53f}), 0.8f);
    // Without a radius in the file, the emitter's (0.12 m): not 0.15 m out.
    const Fields bare = after("bare_####.ply");
    EXPECT_GT(densityAt(bare, {0.53f, 0.53f, 0.53f}), 0.9f);
    EXPECT_LT(densityAt(bare, {0.53f + 0.19f, 0.53f, 0.53f}), 0.05f);
}

// A points emitter's smoke takes its colour, as a shape's does: red points
// and a blue sphere, the colour grid holding colour x density.
// A point under a cell across (4 cm at 6.25 cm cells), 2 cm off a cell's
// centre, reaches its density there, as a shape does (issue 57): its soft
// edge is its radius, not a cell (which gave 0.82).
TEST(PointEmitter, APointUnderACellAcrossReachesItsValues) {
    const fs::path dir = test::scratchDir("points_small");
    PlyLayout withRadius;
    withRadius.properties = {"x", "y", "z", "radius"};
    test::writeFile((dir / "small_0001.ply").string(),
                    plyBytes({{0.55125, 0.53125, 0.53125, 0.04}}, withRadius));
    Solver solver(loadIn(dir, sceneText("file = \"small_####.ply\"", 1)));
    solver.advanceFrame(1);
    EXPECT_GT(densityAt(solver.fields(), {0.53125f, 0.53125f, 0.53125f}), 0.95f);
}

TEST(PointEmitter, ItsSmokeTakesItsColor) {
    const fs::path dir = test::scratchDir("points_color");
    test::writeFile((dir / "red_0001.ply").string(), plyBytes({{0.5, 0.5, 0.5}}));
    Solver solver(loadIn(dir, sceneText("file = \"red_####.ply\"\nradius = 0.12\n"
                                        "color = [1.0, 0.0, 0.0]\n"
                                        "[[emitter]]\ncenter = [1.5, 0.5, 0.5]\n"
                                        "radius = 0.12\ncolor = [0.0, 0.0, 1.0]",
                                        1)));
    solver.advanceFrame(1);
    const Fields& f = solver.fields();
    ASSERT_TRUE(f.colored());
    auto at = [&](Vec3f p) {
        const Vec3f g = (p - f.origin) / f.dx;
        return f.density.index(int(g.x), int(g.y), int(g.z));
    };
    const size_t red = at({0.53f, 0.53f, 0.53f}), blue = at({1.53f, 0.53f, 0.53f});
    ASSERT_GT(f.density.values()[red], 0.9f);
    EXPECT_NEAR(f.color[0].values()[red], f.density.values()[red], 1e-6f);
    EXPECT_EQ(f.color[1].values()[red], 0.0f);
    EXPECT_EQ(f.color[2].values()[red], 0.0f);
    EXPECT_EQ(f.color[0].values()[blue], 0.0f);
    EXPECT_GT(f.color[2].values()[blue], 0.9f);
}

// Points that stay where they are but whose files say they move at 1.5 m/s
// along x: the smoke they emit moves with that velocity (inherit_velocity 1),
// not at all with inherit_velocity 0.
void writeStillPoints(const fs::path& dir, int frames, double vx) {
    PlyLayout layout;
    layout.properties = {"x", "y", "z", "radius", "vx", "vy", "vz"};
    for (int f = 1; f <= frames; ++f) {
        char name[32];
        std::snprintf(name, sizeof name, "parts_%04d.ply", f);
        test::writeFile(
            (dir / name).string(),
            plyBytes({{0.5, 0.5, 0.5, 0.1, vx, 0, 0}, {0.5, 0.4, 0.5, 0.1, vx, 0, 0}}, layout));
    }
}

// A swarm moving along x at 2.4 m/s (0.1 m a frame), as a particle cache
// holds it: another place every frame.
void writeSwarm(const fs::path& dir, int frames) {
    PlyLayout layout;
    layout.properties = {"x", "y", "z", "pscale", "vx", "vy", "vz"};
    for (int f = 1; f <= frames; ++f) {
        std::vector<std::vector<double>> rows;
        for (int n = 0; n < 20; ++n)
            rows.push_back({0.3 + 0.1 * f + 0.02 * n, 0.4 + 0.01 * n, 0.5 - 0.005 * n,
                            0.05 + 0.003 * n, 2.4, 0.1 * (n % 3), 0});
        char name[32];
        std::snprintf(name, sizeof name, "swarm_%04d.ply", f);
        test::writeFile((dir / name).string(), plyBytes(rows, layout));
    }
}

TEST(PointEmitter, SmokeMovesWithThePointsVelocity) {
    const fs::path dir = test::scratchDir("points_velocity");
    writeStillPoints(dir, 8, 0.0);
    // Their own file of moving points, and a scene for each.
    const fs::path moving = dir / "moving";
    fs::create_directories(moving);
    writeStillPoints(moving, 8, 1.5);
    auto run = [](const Scene& scene) {
        Solver solver(scene);
        for (int frame = 1; frame <= 8; ++frame) solver.advanceFrame(frame);
        return centroidX(solver.fields());
    };
    const auto still = run(loadIn(dir, sceneText("file = \"parts_####.ply\"", 8)));
    const auto carried = run(loadIn(moving, sceneText("file = \"parts_####.ply\"", 8)));
    const auto ignored =
        run(loadIn(moving, sceneText("file = \"parts_####.ply\"\ninherit_velocity = 0.0", 8)));
    ASSERT_GT(still.second, 1.0);
    EXPECT_NEAR(still.first, 0.5, 0.02);
    // A third of a second at up to 1.5 m/s: the smoke streams out ahead.
    EXPECT_GT(carried.first, still.first + 0.1);
    EXPECT_NEAR(ignored.first, still.first, 0.05);
}

// One point crossing the domain at 12 m/s (half a metre a frame, eight of
// its radii): the smoke it leaves is one trail, with no gap between frames
// or substeps; before its first file and after its last there is none.
TEST(PointEmitter, AFastPointLeavesAContinuousTrail) {
    const fs::path dir = test::scratchDir("points_trail");
    PlyLayout layout;
    layout.properties = {"x", "y", "z", "radius", "vx", "vy", "vz"};
    for (int f = 3; f <= 4; ++f) {
        char name[32];
        std::snprintf(name, sizeof name, "dart_%04d.ply", f);
        const double x = 0.5 + 0.5 * (f - 3);  // 0.5 at frame 3, 1.0 at frame 4
        test::writeFile((dir / name).string(), plyBytes({{x, 0.5, 0.5, 0.06, 12, 0, 0}}, layout));
    }
    Scene scene = loadIn(dir, sceneText("file = \"dart_####.ply\"\ninherit_velocity = 0.0", 5));
    scene.physics.temperatureDissipation = 0;
    Solver solver(scene);
    solver.advanceFrame(1);
    solver.advanceFrame(2);
    EXPECT_EQ(centroidX(solver.fields()).second, 0.0) << "no smoke before the first file";
    solver.advanceFrame(3);
    solver.advanceFrame(4);
    // Still air (no velocity imposed, no buoyancy): a substep a frame, each
    // sweeping the point from where it was a frame before: x = 0 to 1.
    const Fields& f = solver.fields();
    for (float x = 0.05f; x < 0.95f; x += f.dx)
        EXPECT_GT(densityAt(f, {x, 0.53f, 0.53f}), 0.5f) << "a gap in the trail at x = " << x;
    EXPECT_EQ(densityAt(f, {1.2f, 0.53f, 0.53f}), 0.0f);
    const double mass = centroidX(f).second;
    solver.advanceFrame(5);
    EXPECT_NEAR(centroidX(solver.fields()).second, mass, 1e-6 * mass)
        << "no smoke after the last file";
}

TEST(PointEmitter, BitIdenticalForAnyThreadCount) {
    const fs::path dir = test::scratchDir("points_threads");
    writeSwarm(dir, 4);
    const Scene scene = loadIn(dir, sceneText("file = \"swarm_####.ply\"\nnoise = 0.5", 4));
    auto run = [&](int threads) {
        setThreadCount(threads);
        Solver solver(scene);
        for (int frame = 1; frame <= 4; ++frame) solver.advanceFrame(frame);
        setThreadCount(0);
        return Fields(solver.fields());
    };
    const Fields a = run(1), b = run(3);
    ASSERT_EQ(a.density.size(), b.density.size());
    EXPECT_EQ(std::memcmp(a.density.data(), b.density.data(), a.density.size() * 4), 0);
    EXPECT_EQ(std::memcmp(a.u.data(), b.u.data(), a.u.size() * 4), 0);
    EXPECT_EQ(std::memcmp(a.w.data(), b.w.data(), a.w.size() * 4), 0);
}

TEST(PointEmitter, ABakeResumesBitForBit) {
    const fs::path dir = test::scratchDir("points_resume");
    writeSwarm(dir, 6);
    test::writeFile((dir / "points.toml").string(), sceneText("file = \"swarm_####.ply\"", 6));
    const std::string exact = " -q --set output.vdb_precision=exact";
    auto r = test::runPlume("bake points.toml --vdb whole" + exact, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume("bake points.toml --vdb parts --frames 1-3" + exact, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume("bake points.toml --vdb parts --resume --set output.vdb_precision=exact",
                       dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const CacheFrame a = readVdbFrame((dir / "whole" / "points_0006.vdb").string());
    const CacheFrame b = readVdbFrame((dir / "parts" / "points_0006.vdb").string());
    ASSERT_EQ(a.density.size(), b.density.size());
    ASSERT_GT(a.density.size(), 0u);
    EXPECT_TRUE(
        std::equal(a.density.data(), a.density.data() + a.density.size(), b.density.data()));
}

// A bad file or sequence: one line at the scene's `file` key naming the
// file, exit 2, and no cache begun.
TEST(PointEmitter, BadFilesAndSequencesStopBeforeTheBake) {
    const fs::path dir = test::scratchDir("points_bad");
    writeStillPoints(dir, 3, 0.0);
    const std::string good = plyBytes({{0.5, 0.5, 0.5}});
    test::writeFile((dir / "cut_0001.ply").string(), good.substr(0, good.size() - 2));
    test::writeFile((dir / "faces_0001.ply").string(),
                    "ply\nformat ascii 1.0\nelement face 0\nproperty list uchar int "
                    "vertex_indices\nend_header\n");
    test::writeFile((dir / "header_0001.ply").string(), "ply\nformat ascii 1.0\nelement vertex\n");
    test::writeFile((dir / "gap_0001.ply").string(), good);
    test::writeFile((dir / "gap_0003.ply").string(), good);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"cut_####.ply", "'cut_0001.ply': the data ends in vertex 0 of 1"},
        {"faces_####.ply", "'faces_0001.ply': the PLY file has no vertex element"},
        {"header_####.ply", "'header_0001.ply': expected 'element NAME COUNT' (PLY header line 3)"},
        {"gap_####.ply", "no file for frame 2 of 'gap_####.ply' (its files run from frame 1 to 3)"},
        {"none_####.ply", "no PLY files match 'none_####.ply'"},
        {"none.ply", "cannot read 'none.ply' (no such file)"},
    };
    for (const auto& [file, why] : cases) {
        test::writeFile((dir / "bad.toml").string(), sceneText("file = \"" + file + "\""));
        const test::RunResult r = test::runPlume("bake bad.toml --vdb cache -q", dir);
        EXPECT_EQ(r.status, 2) << file << ": " << r.err;
        // The file key's value sits on the scene's line 13, column 8.
        EXPECT_EQ(r.err, "bad.toml:13:8: error: emitter[1].file: " + why + "\n") << file;
        EXPECT_FALSE(fs::exists(dir / "cache")) << file;
    }
    // Points are world positions: a center would be ignored.
    test::writeFile((dir / "bad.toml").string(),
                    sceneText("file = \"parts_####.ply\"\ncenter = [1.0, 0.5, 0.5]"));
    const test::RunResult r = test::runPlume("check bad.toml", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "bad.toml:14:10: error: 'emitter[1].center' is not read for shape = \"points\": the "
              "points file's positions are world positions\n");
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// A face between two cells takes the mean of their points' velocity, as far
// as the two are covered on average: a face inside a sphere takes its
// velocity exactly, a face between a covered cell and an uncovered one goes
// halfway from the air's. One point at rest of radius 0.2 m, the emitter's
// velocity 3 m/s along x, in air at 1 m/s along x and 0.5 m/s along y.
TEST(PointEmitter, AFaceTakesTheMeanOfItsTwoCellsVelocity) {
    const Vec3f centre(0.5f), velocity(3.0f, 0.0f, 0.0f);
    const float radius = 0.2f, air = 1.0f, across = 0.5f;
    PointSequence::File file;
    file.path = "one point";
    file.count = 1;
    file.lo = centre - Vec3f(radius), file.hi = centre + Vec3f(radius);
    EmitterSettings e;
    e.shape = Shape::Points;
    e.radius = radius;
    e.velocity = velocity;
    e.points = std::make_shared<PointSequence>(std::vector<PointSequence::File>{file}, true,
                                               [&](const std::string&) {
                                                   PointFrame points;
                                                   points.position = {centre};
                                                   return points;
                                               });
    Fields f({24, 24, 24}, 1.0f / 24);
    f.u.fill(air);
    f.v.fill(across);
    const ShotSpan shot{1.0 / 24, 1.0 / 96, 1.0, 24.0};
    applyPointEmitter(f, e, 0.0, shot);

    // How much of a cell the sphere covers: wholly within half a cell inside
    // the radius, not at all beyond half a cell outside it, linearly between.
    auto coverage = [&](int i, int j, int k) {
        const float d = length(f.cellCentre(i, j, k) - centre);
        return std::clamp(0.5f - (d - radius) / f.dx, 0.0f, 1.0f);
    };
    int full = 0, part = 0;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 1; i < f.n.x; ++i) {
                const float mean = 0.5f * (coverage(i - 1, j, k) + coverage(i, j, k));
                full += mean == 1.0f;
                part += mean > 0.0f && mean < 1.0f;
                EXPECT_NEAR(f.u(i, j, k), air + (velocity.x - air) * mean, 1e-4f)
                    << "face " << i << " " << j << " " << k << ", covered " << mean;
            }
    // Across it, the faces inside hold none of the air's sideways motion.
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 1; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                const float mean = 0.5f * (coverage(i, j - 1, k) + coverage(i, j, k));
                EXPECT_NEAR(f.v(i, j, k), across * (1.0f - mean), 1e-4f)
                    << "face " << i << " " << j << " " << k << ", covered " << mean;
            }
    EXPECT_GT(full, 200);
    EXPECT_GT(part, 100);
}

}  // namespace
}  // namespace plume
