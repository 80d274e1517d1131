// Sparks (sim/sparks.h): their motion against analytic paths, births the
// same for any thread count, frame range and resume, none inside a solid,
// the cache's `sparks` points read back by OpenVDB itself, and their streaks
// in the frame hidden by the smoke in front of them.
#include "sim/sparks.h"

#include <gtest/gtest.h>
#include <openvdb/openvdb.h>
#include <openvdb/points/PointCount.h>
#include <openvdb/points/PointDataGrid.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include "core/parallel.h"
#include "io/exr_file.h"
#include "io/solver_state.h"
#include "io/vdb_cache.h"
#include "io/vdb_sparks.h"
#include "render/sparks/spark_streaks.h"
#include "scene/loader.h"
#include "sim/solver.h"
#include "support/run.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

const std::string kSparkScenes = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/";

// Still air in a box of n cells of dx; the motion has no gravity, no
// buoyancy, no cooling, and a domain too large to leave.
Fields air(int n, float dx) { return Fields({n, n, n}, dx); }

SparkMotion calm(float drag) {
    SparkMotion m;
    m.drag = drag;
    m.buoyancy = 0.0f;
    m.cooling = 0.0f;
    m.gravity = Vec3f(0.0f);
    m.domainSize = Vec3f(1000.0f);
    return m;
}

Spark sparkAt(Vec3f p, Vec3f v) {
    Spark s;
    s.p = p;
    s.v = v;
    s.life = 1e6f;
    s.temperature = 1500.0f;
    return s;
}

TEST(SparkMotion, LargeDragMovesWithAUniformWind) {
    Fields f = air(16, 1.0f / 16.0f);
    f.u.fill(1.5f);
    f.w.fill(-0.5f);
    SparkList sparks{sparkAt({0.3f, 0.5f, 0.6f}, {0, 0, 0})};
    SparkMotion m = calm(1e4f);
    m.gravity = {0, 0, -9.81f};  // at this drag it costs g / drag, 1 mm/s
    const SparkFlow flow({&f});
    for (int s = 0; s < 24; ++s) moveSparks(sparks, flow, m, 1.0f / 96.0f);
    ASSERT_EQ(sparks.size(), 1u);
    EXPECT_NEAR(sparks[0].p.x, 0.3f + 1.5f * 0.25f, 0.01f * 0.375f);
    EXPECT_NEAR(sparks[0].p.z, 0.6f - 0.5f * 0.25f, 0.01f * 0.125f);
    EXPECT_NEAR(sparks[0].v.x, 1.5f, 0.01f);
}

TEST(SparkMotion, NoDragFollowsTheBallisticParabola) {
    Fields f = air(16, 1.0f / 16.0f);
    f.u.fill(3.0f);  // a wind it must not feel
    const Vec3f p0{0.5f, 0.5f, 2.0f}, v0{1.0f, 0.5f, 4.0f}, g{0, 0, -9.81f};
    SparkList sparks{sparkAt(p0, v0)};
    SparkMotion m = calm(0.0f);
    m.gravity = g;
    const SparkFlow flow({&f});
    for (int s = 0; s < 96; ++s) moveSparks(sparks, flow, m, 1.0f / 96.0f);
    ASSERT_EQ(sparks.size(), 1u);
    const Vec3f want = p0 + v0 + g * 0.5f;  // after one second
    const float moved = length(want - p0);
    EXPECT_LT(length(sparks[0].p - want), 0.01f * moved);
    EXPECT_LT(length(sparks[0].v - (v0 + g)), 0.01f * length(v0 + g));
}

TEST(SparkMotion, RigidRotationKeepsItsRadiusOverARevolution) {
    // u = omega x (p - c) about z through the box's centre, on the faces:
    // linear, so the grid's trilinear sample is the rotation itself.
    const int n = 32;
    const float dx = 1.0f / n, omega = 2.0f * std::numbers::pi_v<float>;
    Fields f = air(n, dx);
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i <= n; ++i) f.u(i, j, k) = -omega * ((j + 0.5f) * dx - 0.5f);
    for (int k = 0; k < n; ++k)
        for (int j = 0; j <= n; ++j)
            for (int i = 0; i < n; ++i) f.v(i, j, k) = omega * ((i + 0.5f) * dx - 0.5f);
    const float radius = 0.3f;
    SparkList sparks{sparkAt({0.5f + radius, 0.5f, 0.5f}, {0, omega * radius, 0})};
    const SparkFlow flow({&f});
    float worst = 0.0f;
    for (int s = 0; s < 48; ++s) {  // one revolution in 48 substeps of 1/48 s
        moveSparks(sparks, flow, calm(1e5f), 1.0f / 48.0f);
        ASSERT_EQ(sparks.size(), 1u);
        const float r = std::hypot(sparks[0].p.x - 0.5f, sparks[0].p.y - 0.5f);
        worst = std::max(worst, std::fabs(r - radius) / radius);
    }
    EXPECT_LT(worst, 0.01f);
    EXPECT_NEAR(sparks[0].p.x, 0.5f + radius, 0.02f * radius);  // back where it began
}

// The golden fire with sparks from its flame and from its emitter.
Scene sparkScene(std::vector<std::string> extra = {}) {
    std::vector<std::string> keys{"sparks.rate=20000", "sparks.flame_threshold=0.2",
                                  "sparks.lifetime=1", "emitter[1].sparks=200",
                                  "sparks.bounce=0.5"};
    keys.insert(keys.end(), extra.begin(), extra.end());
    return loadScene(kSparkScenes + "fire.toml", keys);
}

bool sameSparks(const SparkList& a, const SparkList& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Spark)) == 0;
}

SparkList bakeSparks(const Scene& scene, int frames) {
    Solver solver(scene);
    for (int frame = 1; frame <= frames; ++frame) solver.advanceFrame(frame);
    return *solver.sparks();
}

TEST(SparkBirths, SameForAnyThreadCount) {
    const Scene scene = sparkScene();
    setThreadCount(1);
    const SparkList one = bakeSparks(scene, 6);
    setThreadCount(2);
    const SparkList two = bakeSparks(scene, 6);
    setThreadCount(3);
    const SparkList three = bakeSparks(scene, 6);
    setThreadCount(0);
    EXPECT_GT(one.size(), 20u);
    EXPECT_TRUE(sameSparks(one, two));
    EXPECT_TRUE(sameSparks(one, three));
}

TEST(SparkBirths, SameAfterAResumeFromTheStateFile) {
    const Scene scene = sparkScene();
    const SparkList straight = bakeSparks(scene, 6);

    Solver stopped(scene);
    for (int frame = 1; frame <= 3; ++frame) stopped.advanceFrame(frame);
    test::TempDir dir("sparks_resume");
    const std::string path = (dir.path() / "fire.resume").string();
    std::vector<SolverStatePart> parts;
    for (const Fields* f : stopped.islandFields()) parts.push_back({f, nullptr});
    writeSolverState(path, parts, 3, "hash", "fire", stopped.sparks());
    SolverSnapshot state = stopped.snapshot();
    const SolverState saved = readSolverState(path, state.fields);
    EXPECT_TRUE(sameSparks(saved.sparks, *stopped.sparks()));

    // A fresh solver given the state (its sparks from the file) goes on as
    // the one that never stopped.
    state = stopped.snapshot();
    state.sparks = saved.sparks;
    Solver resumed(scene);
    resumed.restore(state);
    for (int frame = 4; frame <= 6; ++frame) resumed.advanceFrame(frame);
    EXPECT_GT(straight.size(), 0u);
    EXPECT_TRUE(sameSparks(*resumed.sparks(), straight));
}

TEST(SparkBirths, NoneInsideASolid) {
    // Ballistic sparks born in the burning box fall onto the log under it:
    // they bounce off it or die there, none stays inside.
    const Scene scene =
        sparkScene({"sparks.drag=0", "sparks.buoyancy=0", "emitter[1].sparks=4000"});
    Solver solver(scene);
    size_t seen = 0;
    for (int frame = 1; frame <= 6; ++frame) {
        solver.advanceFrame(frame);
        const SparkFlow flow(solver.islandFields());
        for (const Spark& s : *solver.sparks()) EXPECT_FALSE(flow.solidAt(s.p)) << frame;
        seen += solver.sparks()->size();
    }
    EXPECT_GT(seen, 100u);
}

TEST(SparkCache, PointsGridReadByOpenVdb) {
    const Scene scene = sparkScene();
    Solver solver(scene);
    for (int frame = 1; frame <= 4; ++frame) solver.advanceFrame(frame);
    const SparkList& sparks = *solver.sparks();
    ASSERT_GT(sparks.size(), 0u);
    test::TempDir dir("sparks_vdb");
    const std::string path = (dir.path() / "fire_0004.vdb").string();
    CacheOptions opt;
    opt.worldOrigin = {10, 20, 30};
    opt.sparks = &sparks;
    writeVdbFrame(path, solver.islandFields(), 4, "fire", opt);

    // OpenVDB itself: a PointDataGrid named sparks in the file beside the
    // frame, one point a spark, with Houdini's attributes; the frame's own
    // file holds volumes only.
    openvdb::initialize();
    {
        openvdb::io::File frame(path);
        frame.open();
        for (auto g = frame.beginName(); g != frame.endName(); ++g)
            EXPECT_NE(g.gridName(), "sparks") << "the sparks are in the volume file";
        frame.close();
    }
    ASSERT_EQ(sparkVdbPath(path), (dir.path() / "fire_0004_sparks.vdb").string());
    openvdb::io::File file(sparkVdbPath(path));
    file.open();
    auto grid = openvdb::gridPtrCast<openvdb::points::PointDataGrid>(file.readGrid("sparks"));
    ASSERT_TRUE(grid);
    EXPECT_EQ(openvdb::points::pointCount(grid->tree()), sparks.size());
    const auto& descriptor = grid->tree().cbeginLeaf()->attributeSet().descriptor();
    for (const char* name : {"P", "v", "age", "temperature", "pscale"})
        EXPECT_NE(descriptor.find(name), openvdb::points::AttributeSet::INVALID_POS) << name;
    file.close();

    // plume's reader: the same sparks, where the world put them.
    const SparkList back = readVdbSparks(path, opt.worldOrigin);
    ASSERT_EQ(back.size(), sparks.size());
    SparkList byId = sparks;
    std::sort(byId.begin(), byId.end(), [](const Spark& a, const Spark& b) { return a.id < b.id; });
    for (size_t i = 0; i < back.size(); ++i) {
        EXPECT_EQ(back[i].id, byId[i].id);
        EXPECT_LT(length(back[i].p - byId[i].p), 1e-4f);
        EXPECT_EQ(back[i].temperature, byId[i].temperature);
    }
}

// pyopenvdb's readAll, the most common Python reader, takes no points grid:
// a fire's frame file must still read whole, and its sparks file beside it
// holds them. A frame without sparks leaves no earlier bake's sparks file.
TEST(SparkCache, EveryFrameFileReadsWholeInPyopenvdb) {
    test::TempDir dir("sparks_pyopenvdb");
    const std::string scene = kSparkScenes + "fire.toml";
    const std::string set = " --set sparks.rate=20000 --set sparks.flame_threshold=0.2";
    auto r = test::runPlume("bake '" + scene + "' --frames 1-4 --vdb cache -q" + set, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const fs::path frame = dir.path() / "cache" / "fire_0004.vdb";
    ASSERT_TRUE(fs::exists(dir.path() / "cache" / "fire_0004_sparks.vdb"));
    ASSERT_GT(readVdbSparks(frame.string()).size(), 0u);
    const std::string read = test::capture(
        "/usr/bin/python3 -c \"import pyopenvdb, sys; grids, meta = pyopenvdb.readAll(sys.argv[1]); "
        "print(sorted(g.name for g in grids))\" '" + frame.string() + "' 2>&1");
    EXPECT_NE(read.find("'density'"), std::string::npos) << read;
    EXPECT_EQ(read.find("Error"), std::string::npos) << read;

    // The same frames again without sparks: their sparks files go.
    r = test::runPlume("bake '" + scene + "' --frames 1-4 --vdb cache -q",
                       dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(fs::exists(dir.path() / "cache" / "fire_0004_sparks.vdb"));
}

TEST(SparkCache, SameOverFrameRangesFromTheBinary) {
    test::TempDir dir("sparks_frames");
    const std::string scene = kSparkScenes + "fire.toml";
    const std::string set =
        " --set sparks.rate=20000 --set sparks.flame_threshold=0.2 --set emitter[1].sparks=200";
    const auto all =
        test::runPlume("bake '" + scene + "' --frames 1-4 --vdb all" + set, dir.path());
    ASSERT_EQ(all.status, 0) << all.err;
    const auto part =
        test::runPlume("bake '" + scene + "' --frames 3-4 --vdb part" + set, dir.path());
    ASSERT_EQ(part.status, 0) << part.err;
    const SparkList a = readVdbSparks((dir.path() / "all" / "fire_0004.vdb").string());
    const SparkList b = readVdbSparks((dir.path() / "part" / "fire_0004.vdb").string());
    ASSERT_GT(a.size(), 0u);
    EXPECT_TRUE(sameSparks(a, b));
}

TEST(SparkStreaks, RenderVdbDrawsTheCachesSparks) {
    // The same bake with and without sparks; render-vdb of each: the one with
    // sparks is brighter somewhere and darker nowhere.
    test::TempDir dir("sparks_render_vdb");
    const std::string scene = kSparkScenes + "fire.toml";
    const std::string set = " --set sparks.rate=40000 --set sparks.flame_threshold=0.2";
    ASSERT_EQ(
        test::runPlume("bake '" + scene + "' --frames 6-6 --vdb with" + set, dir.path()).status, 0);
    ASSERT_EQ(test::runPlume("bake '" + scene + "' --frames 6-6 --vdb without", dir.path()).status,
              0);
    for (const char* c : {"with", "without"})
        ASSERT_EQ(test::runPlume(std::string("render-vdb '") + c + "/fire_####.vdb' --scene '" +
                                     scene + "' --set render.passes=sparks --exr " + c + "_exr",
                                 dir.path())
                      .status,
                  0);
    const ExrImage with = readExr((dir.path() / "with_exr" / "fire_0006.exr").string());
    const ExrImage without = readExr((dir.path() / "without_exr" / "fire_0006.exr").string());
    EXPECT_NE(std::find(with.channels.begin(), with.channels.end(), "sparks.R"),
              with.channels.end());
    const std::vector<float>& a = with.rgba;
    const std::vector<float>& b = without.rgba;
    ASSERT_EQ(a.size(), b.size());
    float brighter = 0.0f, darker = 0.0f;
    for (size_t n = 0; n < a.size(); ++n) {
        brighter = std::max(brighter, a[n] - b[n]);
        darker = std::max(darker, b[n] - a[n]);
    }
    EXPECT_GT(brighter, 0.05f);
    EXPECT_LT(darker, 1e-6f);

    // The path integrator draws them over its frame too (its paths the same
    // with and without: hashed from pixel and sample).
    for (const char* c : {"with", "without"})
        ASSERT_EQ(test::runPlume(std::string("render-vdb '") + c + "/fire_####.vdb' --scene '" +
                                     scene + "' --set render.integrator=path --set "
                                             "render.samples=1 --exr " + c + "_path",
                                 dir.path())
                      .status,
                  0);
    const ExrImage pathWith = readExr((dir.path() / "with_path" / "fire_0006.exr").string());
    const ExrImage pathWithout = readExr((dir.path() / "without_path" / "fire_0006.exr").string());
    ASSERT_EQ(pathWith.rgba.size(), pathWithout.rgba.size());
    brighter = darker = 0.0f;
    for (size_t n = 0; n < pathWith.rgba.size(); ++n) {
        brighter = std::max(brighter, pathWith.rgba[n] - pathWithout.rgba[n]);
        darker = std::max(darker, pathWithout.rgba[n] - pathWith.rgba[n]);
    }
    EXPECT_GT(brighter, 0.05f);
    EXPECT_LT(darker, 1e-6f);
}

TEST(SparkStreaks, GlowUnlessSmokeHidesThem) {
    const int w = 128, h = 96;
    CameraSettings cs;
    cs.position = {0.5f, -2.0f, 0.5f};
    cs.lookAt = {0.5f, 0.5f, 0.5f};
    cs.fov = 40.0f;
    const Camera camera(cs, w, h);
    ScalarGrid density(16, 16, 16);
    VolumeView volume{&density, nullptr, {0, 0, 0}, 1.0f / 16.0f};
    Spark s = sparkAt({0.5f, 0.7f, 0.5f}, {2.0f, 0.0f, 0.0f});
    s.pscale = 0.01f;
    SparkLook look;
    look.shutter = 0.2f;  // a streak 0.4 m long across the view
    auto energy = [&](const LinearImage& image, int x0, int x1) {
        float sum = 0.0f;
        for (int y = 0; y < h; ++y)
            for (int x = x0; x < x1; ++x) sum += image.rgb[(size_t(y) * w + x) * 3];
        return sum;
    };
    LinearImage clear(w, h);
    drawSparks({s}, camera, volume, look, clear);
    float px0, py0, px1, py1;
    camera.project(s.p - s.v * 0.1f, px0, py0);
    camera.project(s.p + s.v * 0.1f, px1, py1);
    const float total = energy(clear, 0, w);
    EXPECT_GT(total, 0.0f);
    // Spread evenly along |v| x shutter: all of it between the ends, half
    // on either side of the middle, a little in each end's columns.
    EXPECT_GT(px1 - px0, 15.0f);
    EXPECT_NEAR(energy(clear, int(px0) - 1, int(px1) + 2), total, 1e-3f * total);
    EXPECT_LT(energy(clear, int(px0) - 1, int(px0) + 2), 0.2f * total);
    EXPECT_NEAR(energy(clear, 0, int(std::lround(0.5f * (px0 + px1)))), 0.5f * total,
                0.05f * total);
    // A wall of smoke between it and the camera.
    for (int k = 0; k < 16; ++k)
        for (int i = 0; i < 16; ++i)
            for (int j = 2; j < 5; ++j) density(i, j, k) = 1.0f;
    LinearImage hidden(w, h);
    drawSparks({s}, camera, volume, look, hidden);
    EXPECT_LT(energy(hidden, 0, w), 0.01f * total);
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

TEST(SparkKeys, BadValuesAreOneLineAtTheirKey) {
    test::TempDir dir("sparks_keys");
    for (const char* bad : {"drag = -1.0", "lifetime = 0.0", "bounce = 1.5", "rate = \"many\""}) {
        std::ofstream(dir.file("bad.toml")) << "[domain]\nresolution = 16\n\n[sparks]\n"
                                            << bad << "\n";
        const auto r = test::runPlume("check bad.toml", dir.path());
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_EQ(r.err.rfind("bad.toml:5:", 0), 0u) << r.err;
        EXPECT_NE(r.err.find("error: 'sparks."), std::string::npos) << r.err;
    }
    std::ofstream(dir.file("bad.toml")) << "[[emitter]]\nsparks = -3.0\n";
    const auto r = test::runPlume("check bad.toml", dir.path());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("bad.toml:2:", 0), 0u) << r.err;
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// Buoyancy lifts a spark hotter than the air: sparks.buoyancy g per 1000 K
// above it, against gravity. In still air at 293 K, with no drag and no
// cooling, a spark at 1293 K accelerates by g (1 - buoyancy) downward: at
// buoyancy 2 it rises at g, at 0.3 it falls at 0.7 g, exactly as a body
// under constant acceleration (v = a t, z = z0 + a t^2 / 2).
TEST(Sparks, HotSparksRiseByTheirBuoyancy) {
    for (const float buoyancy : {2.0f, 0.3f}) {
        SparkMotion motion;
        motion.drag = 0.0f;
        motion.cooling = 0.0f;
        motion.buoyancy = buoyancy;
        SparkList sparks(1);
        sparks[0].p = {1.0f, 1.0f, 1.0f};
        sparks[0].temperature = kSparkAirKelvin + 1000.0f;
        sparks[0].life = 10.0f;
        const SparkFlow stillAir(std::vector<const Fields*>{});
        for (int step = 0; step < 5; ++step) moveSparks(sparks, stillAir, motion, 0.02f);
        ASSERT_EQ(sparks.size(), 1u) << "buoyancy " << buoyancy;
        const double a = -9.81 * (1.0 - buoyancy), t = 0.1;
        EXPECT_NEAR(sparks[0].v.z, a * t, 1e-5) << "buoyancy " << buoyancy;
        EXPECT_NEAR(sparks[0].p.z, 1.0 + 0.5 * a * t * t, 1e-5) << "buoyancy " << buoyancy;
        EXPECT_EQ(sparks[0].p.x, 1.0f);
        EXPECT_EQ(sparks[0].v.x, 0.0f);
    }
}

}  // namespace
}  // namespace plume
