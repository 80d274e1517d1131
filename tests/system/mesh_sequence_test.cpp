// Mesh sequences (`file = "body_####.obj"`): real OBJ files written here, read
// through Assimp and OpenVDB, posed by the scene and pushing the air in the
// real solver; bad sequences through the real binary.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/parallel.h"
#include "core/shape_sequence.h"
#include "io/mesh_file.h"
#include "io/scene_geometry.h"
#include "io/sequence_motion.h"
#include "io/vdb_cache.h"
#include "scene/describe.h"
#include "scene/loader.h"
#include "sim/obstacles.h"
#include "sim/solver.h"
#include "support/mesh_text.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

std::string frameName(const std::string& stem, int frame) {
    char digits[16];
    std::snprintf(digits, sizeof digits, "%04d", frame);
    return stem + "_" + digits + ".obj";
}

// The scene `toml` in dir, loaded with its geometry; no buoyancy or
// vorticity, open on every side, so only the solids move the air.
Scene sceneIn(const fs::path& dir, const std::string& name, const std::string& toml) {
    write(dir / name, toml);
    Scene s = loadScene((dir / name).string());
    s.domain.boundary.fill(Boundary::Open);
    s.physics.buoyancyDensity = s.physics.buoyancyHeat = 0.0f;
    s.physics.vorticity = 0.0f;
    s.solver.tolerance = 1e-5f;
    loadSceneGeometry(s);
    return s;
}

bool sameBits(const ScalarGrid& a, const ScalarGrid& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// The cell-centred velocity of cell (i, j, k).
Vec3f cellVelocity(const Fields& f, int i, int j, int k) {
    return Vec3f(f.u(i, j, k) + f.u(i + 1, j, k), f.v(i, j, k) + f.v(i, j + 1, k),
                 f.w(i, j, k) + f.w(i, j, k + 1)) *
           0.5f;
}

// An icosphere about (0.5, 0.5, 0.5) in a 1 m box at 32 cells whose radius
// grows at kGrowth m/s: file N holds it at time N / 24 s.
constexpr float kR0 = 0.15f, kGrowth = 0.3f, kFps = 24.0f;
float radiusAt(double seconds) { return kR0 + kGrowth * float(seconds); }

// With `alternate`, every other file is subdivided once more: no two
// consecutive files share their topology.
Scene inflatingSphere(const fs::path& dir, bool alternate = false) {
    for (int n = 1; n <= 10; ++n)
        write(dir / frameName("ball", n),
              test::icosphereText(radiusAt(n / kFps), alternate && n % 2 ? 4 : 3, Vec3f(0.5f)));
    return sceneIn(dir, "inflate.toml",
                   "[domain]\nsize = [1, 1, 1]\nresolution = 32\n[time]\ncfl = 1\n"
                   "max_substeps = 4\n[[obstacle]]\nshape = \"mesh\"\nfile = \"ball_####.obj\"\n"
                   "center = [0, 0, 0]\n");
}

// Potential flow around a sphere whose radius R grows at dR/dt: u_r(r) =
// R^2 dR/dt / r^2 outside it. The air a voxel or two beyond the surface
// has it within 30%, and no smoke is ever inside the sphere: with the
// vertices' motion (one topology) and with the level set's (a new topology
// every file).
class InflatingSphere : public testing::TestWithParam<bool> {};

TEST_P(InflatingSphere, MovesTheAirAsPotentialFlow) {
    // One folder each: ctest runs the two at once.
    const fs::path dir =
        test::scratchDir(GetParam() ? "sequence_inflate_new" : "sequence_inflate_one");
    const Scene scene = inflatingSphere(dir, GetParam());
    Solver solver(scene);
    Fields& f = solver.fields();
    f.density.fill(1.0f);
    const float dx = f.dx;
    for (int frame = 1; frame <= 6; ++frame) {
        solver.advanceFrame(frame);
        const float radius = radiusAt(frame / kFps);
        int inside = 0;
        for (int k = 0; k < f.n.z; ++k)
            for (int j = 0; j < f.n.y; ++j)
                for (int i = 0; i < f.n.x; ++i) {
                    const float r = length(Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * dx - Vec3f(0.5f));
                    if (r >= radius - 0.5f * dx) continue;
                    ++inside;
                    ASSERT_EQ(f.density(i, j, k), 0.0f) << "frame " << frame << " r " << r;
                }
        EXPECT_GT(inside, 300) << "frame " << frame;
    }
    // At t = 0.25 s: the mean of measured over predicted radial speed on a
    // shell 1.5 to 3 voxels out.
    const float radius = radiusAt(6 / kFps);
    double ratio = 0;
    int cells = 0;
    for (int k = 1; k < f.n.z - 1; ++k)
        for (int j = 1; j < f.n.y - 1; ++j)
            for (int i = 1; i < f.n.x - 1; ++i) {
                const Vec3f d = Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * dx - Vec3f(0.5f);
                const float r = length(d);
                if (r < radius + 1.5f * dx || r > radius + 3.0f * dx) continue;
                const float measured = dot(cellVelocity(f, i, j, k), d / r);
                const float predicted = radius * radius * kGrowth / (r * r);
                ratio += measured / predicted;
                ++cells;
            }
    ASSERT_GT(cells, 500);
    ratio /= cells;
    EXPECT_NEAR(ratio, 1.0, 0.3) << "measured / potential flow over " << cells << " cells";
}

INSTANTIATE_TEST_SUITE_P(MeshSequence, InflatingSphere, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& info) {
                             return info.param ? "NewTopologyEveryFile" : "OneTopology";
                         });

TEST(MeshSequence, InflatingSphereIsBitIdenticalForAnyThreadCount) {
    const fs::path dir = test::scratchDir("sequence_threads");
    auto run = [&](int threads) {
        setThreadCount(threads);
        Solver solver(inflatingSphere(dir));
        solver.fields().density.fill(1.0f);
        for (int frame = 1; frame <= 3; ++frame) solver.advanceFrame(frame);
        setThreadCount(0);
        return solver.fields();
    };
    const Fields a = run(1), b = run(3);
    EXPECT_TRUE(sameBits(a.u, b.u));
    EXPECT_TRUE(sameBits(a.w, b.w));
    EXPECT_TRUE(sameBits(a.density, b.density));
    EXPECT_EQ(a.solid.values(), b.solid.values());
}

// A plate 0.1 m thick (two voxels) moving along x at 2 m/s: file N holds it
// at x = 0.2 + 2 N / 24 m, through a 1.6 x 0.8 x 0.8 m box at 32 cells.
Scene movingPlate(const fs::path& dir, const std::string& physics = "") {
    for (int n = 1; n <= 12; ++n)
        write(dir / frameName("plate", n),
              test::boxText({0.1f, 0.5f, 0.5f}, {0.2f + 2.0f * n / kFps, 0.4f, 0.4f}));
    return sceneIn(dir, "plate.toml",
                   "[domain]\nsize = [1.6, 0.8, 0.8]\nresolution = 32\n[time]\ncfl = 0.5\n"
                   "max_substeps = 8\n" +
                       physics +
                       "[[obstacle]]\nshape = \"mesh\"\n"
                       "file = \"plate_%04d.obj\"\ncenter = [0, 0, 0]\n");
}

// The faces between the plate and the air ahead of it, across its middle,
// all at `speed` (m/s of simulated time) within 10%.
void expectPlateFaces(const Fields& f, float speed, int frame) {
    int faces = 0;
    for (int k = 5; k < 11; ++k)
        for (int j = 5; j < 11; ++j)
            for (int i = 1; i < f.n.x; ++i)
                if (f.solid(i - 1, j, k) && !f.solid(i, j, k)) {
                    ++faces;
                    EXPECT_NEAR(f.u(i, j, k), speed, 0.1f * speed) << "frame " << frame;
                }
    EXPECT_EQ(faces, 36) << "frame " << frame;
}

// In slow motion the plate keeps its pace in the shot (2 m/s a second of
// the shot): to the air, slowed to half, it moves at 4 m/s.
TEST(MeshSequence, InSlowMotionThePlateKeepsItsPaceInTheShot) {
    const fs::path dir = test::scratchDir("sequence_plate_slow");
    Solver solver(movingPlate(dir, "[physics]\ntime_scale = 0.5\n"));
    for (int frame = 1; frame <= 5; ++frame) {
        solver.advanceFrame(frame);
        if (frame >= 3) expectPlateFaces(solver.fields(), 4.0f, frame);
    }
}

TEST(MeshSequence, PlateDrivesTheAirAtItsFace) {
    const fs::path dir = test::scratchDir("sequence_plate");
    Solver solver(movingPlate(dir));
    for (int frame = 1; frame <= 6; ++frame) {
        solver.advanceFrame(frame);
        // It holds still before file 1, then starts.
        if (frame >= 3) expectPlateFaces(solver.fields(), 2.0f, frame);
    }
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// A ball (r = 0.12 m) flying along x at 2 m/s through smoke, as a sequence
// of the same mesh moved a frame's travel each file, and as that mesh keyed
// with center keys at the same frames.
Scene rigidBall(const fs::path& dir, bool sequence, float shift = 0.0f) {
    auto at = [&](int n) { return Vec3f(0.3f + shift + 2.0f * n / kFps, 0.4f, 0.4f); };
    std::string obstacle;
    if (sequence) {
        for (int n = 1; n <= 12; ++n)
            write(dir / frameName("ball", n), test::icosphereText(0.12f, 3, at(n)));
        obstacle = "file = \"ball_####.obj\"\ncenter = [0, 0, 0]\n";
    } else {
        write(dir / "ball.obj", test::icosphereText(0.12f, 3));
        obstacle = "file = \"ball.obj\"\n[[obstacle.key]]\nframe = 1\ncenter = [" +
                   std::to_string(at(1).x) +
                   ", 0.4, 0.4]\n[[obstacle.key]]\nframe = 12\ncenter = [" +
                   std::to_string(at(12).x) + ", 0.4, 0.4]\n";
    }
    return sceneIn(dir, sequence ? "sequence.toml" : "keyed.toml",
                   "[domain]\nsize = [1.6, 0.8, 0.8]\nresolution = 32\n[time]\ncfl = 0.5\n"
                   "max_substeps = 8\n[[obstacle]]\nshape = \"mesh\"\n" +
                       obstacle);
}

// Close, not equal: each file's SDF is sampled on the lattice where its mesh
// lies, the keyed one where the key moves it, and the two trilinear errors
// differ by up to 5% of a voxel; a cell whose centre lies that near the
// surface is solid in one substep of one run and not the other's, and its
// faces' velocity then differs by the ball's speed (measured: the same
// substeps, up to 8 of 56 solid cells differing at a frame's end, |u| 1.6 to
// 2.3% apart in L2, at most 0.17 m/s at a face, smoke mass 0.03% apart).
TEST(MeshSequence, RigidSequenceGivesTheKeyedResult) {
    const fs::path dir = test::scratchDir("sequence_rigid");
    Solver keyed(rigidBall(dir, false)), sequence(rigidBall(dir, true));
    keyed.fields().density.fill(1.0f);
    sequence.fields().density.fill(1.0f);
    for (int frame = 1; frame <= 6; ++frame) {
        const FrameStats a = keyed.advanceFrame(frame), b = sequence.advanceFrame(frame);
        EXPECT_EQ(a.substeps, b.substeps) << "frame " << frame;
        const Fields &fa = keyed.fields(), &fb = sequence.fields();
        int solidDiffer = 0, solid = 0;
        for (size_t c = 0; c < fa.solid.size(); ++c) {
            solidDiffer += (fa.solid[c] != 0) != (fb.solid[c] != 0);
            solid += fa.solid[c] != 0;
        }
        EXPECT_LE(solidDiffer, solid / 5) << "frame " << frame;
        double d2 = 0, u2 = 0, massA = 0, massB = 0;
        for (const ScalarGrid* g : {&fa.u, &fa.v, &fa.w}) {
            const ScalarGrid& h = g == &fa.u ? fb.u : g == &fa.v ? fb.v : fb.w;
            for (size_t c = 0; c < g->size(); ++c) {
                d2 += double((*g)[c] - h[c]) * ((*g)[c] - h[c]);
                u2 += double((*g)[c]) * (*g)[c];
            }
        }
        for (size_t c = 0; c < fa.density.size(); ++c)
            massA += fa.density[c], massB += fb.density[c];
        if (frame >= 2) {
            EXPECT_LT(std::sqrt(d2 / u2), 0.05) << "frame " << frame;
        }
        EXPECT_NEAR(massB / massA, 1.0, 1e-3) << "frame " << frame;
    }
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

const fs::path kBadSequences = fs::path(PLUME_SOURCE_DIR) / "tests/data/bad_sequences";

// Each bad sequence stops `plume check` and `plume render` before any
// simulation: one line at the scene's `file` key naming the file, exit 2,
// nothing written.
TEST(MeshSequence, BadSequencesAreOneLineAndExitTwo) {
    const fs::path dir = test::scratchDir("sequence_bad");
    for (const fs::directory_entry& e : fs::directory_iterator(kBadSequences))
        fs::copy(e.path(), dir / e.path().filename());
    const std::pair<const char*, const char*> cases[] = {
        {"missing_frame",
         "missing_frame.toml:9:8: error: obstacle[1].file: 'gap_0003.obj' is missing (the "
         "sequence has files for frames 1 to 4: it needs every one between)\n"},
        {"open_and_closed",
         "open_and_closed.toml:9:8: error: obstacle[1].file: 'torn_0002.obj' is not closed (3 "
         "open edges), while 'torn_0001.obj' is\n"},
        {"no_match",
         "no_match.toml:9:8: error: emitter[1].file: no mesh files match 'nobody_####.obj'\n"},
    };
    for (const auto& [name, message] : cases) {
        const std::string scene = std::string(name) + ".toml";
        test::RunResult r = test::runPlume("check " + scene, dir);
        EXPECT_EQ(r.status, 2) << name;
        EXPECT_EQ(r.err, message);
        EXPECT_EQ(r.out, "") << name;
        r = test::runPlume("render " + scene + " -o out.mp4 --vdb cache --quiet", dir);
        EXPECT_EQ(r.status, 2) << name;
        EXPECT_EQ(r.err, message);
        EXPECT_FALSE(fs::exists(dir / "out.mp4")) << name;
        EXPECT_FALSE(fs::exists(dir / "cache")) << name;
    }
}

// The fuzz target's seeds of sequences (tests/fuzz/seeds) load, describe
// themselves and load again to the same text, as the target demands of them.
TEST(MeshSequence, FuzzSeedsRoundTrip) {
    const fs::path seeds = fs::path(PLUME_SOURCE_DIR) / "tests/fuzz/seeds";
    int count = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(seeds)) {
        const std::string name = e.path().filename().string();
        if (!name.starts_with("sequence")) continue;
        ++count;
        std::ifstream in(e.path());
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        const std::string described = describeScene(parseScene(text, "fuzz.toml"));
        EXPECT_EQ(describeScene(parseScene(described, "fuzz.toml")), described) << name;
        EXPECT_TRUE(described.find("_####.") != std::string::npos ||
                    described.find("_%04d.") != std::string::npos)
            << name;
    }
    EXPECT_EQ(count, 4);
}

// A bake of a plate sequence and a growing emitter sequence, numbered from
// frame 1001, stopped after three frames and resumed, ends bit for bit as
// the bake that never stopped.
TEST(MeshSequence, ResumeGoesOnBitForBit) {
    const fs::path dir = test::scratchDir("sequence_resume");
    for (int n = 1001; n <= 1006; ++n) {
        const float t = float(n - 1000) / kFps;
        write(dir / frameName("plate", n),
              test::boxText({0.1f, 0.4f, 0.4f}, {0.2f + 1.5f * t, 0.5f, 0.4f}));
        write(dir / frameName("puff", n), test::icosphereText(0.1f + 0.5f * t, 2, Vec3f(0.0f)));
    }
    write(dir / "shot.toml",
          "[domain]\nsize = [1, 1, 1]\nresolution = 20\n[time]\nstart_frame = 1001\nframes = 6\n"
          "[[emitter]]\nshape = \"mesh\"\nfile = \"puff_####.obj\"\ncenter = [0.6, 0.5, 0.3]\n"
          "mode = \"surface\"\nthickness = 0.1\n"
          "[[obstacle]]\nshape = \"mesh\"\nfile = \"plate_####.obj\"\ncenter = [0, 0, 0]\n");
    const std::string bake = "bake shot.toml -q --set output.vdb_precision=exact ";
    auto r = test::runPlume(bake + "--vdb whole", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume(bake + "--vdb parts --frames 1001-1003", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume(bake + "--vdb parts --resume", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    for (int n : {1004, 1006}) {
        const std::string name = "shot_" + std::to_string(n) + ".vdb";
        const CacheFrame a = readVdbFrame((dir / "whole" / name).string());
        const CacheFrame b = readVdbFrame((dir / "parts" / name).string());
        ASSERT_EQ(a.density.size(), b.density.size());
        EXPECT_TRUE(sameBits(a.density, b.density)) << name;
        ASSERT_EQ(a.velocity.size(), b.velocity.size());
        EXPECT_EQ(
            std::memcmp(a.velocity.data(), b.velocity.data(), a.velocity.size() * sizeof(Vec3f)), 0)
            << name;
        float densest = 0.0f;
        for (float d : a.density.values()) densest = std::max(densest, d);
        EXPECT_GT(densest, 0.5f) << name;
    }
}

// A sphere sequence moving along x at 1.2 m/s emits smoke that takes
// inherit_velocity of its motion, as a keyed emitter's does (MovingEmitter).
TEST(MeshSequence, EmitterGivesItsSmokeItsMotion) {
    const fs::path dir = test::scratchDir("sequence_emitter");
    auto at = [](double seconds) { return 0.4f + 1.2f * float(seconds); };
    for (int n = 1; n <= 4; ++n)
        write(dir / frameName("torch", n),
              test::icosphereText(0.15f, 3, {at(n / kFps), 0.5f, 0.5f}));
    auto uInside = [&](float inherit) {
        Scene s = sceneIn(dir, "torch.toml",
                          "[domain]\nsize = [2, 1, 1]\nresolution = 40\n[[emitter]]\n"
                          "shape = \"mesh\"\nfile = \"torch_####.obj\"\ncenter = [0, 0, 0]\n"
                          "inherit_velocity = " +
                              std::to_string(inherit) + "\n");
        Solver solver(s);
        solver.advanceFrame(1);  // before file 1 it holds still
        solver.advanceFrame(2);
        solver.substep(0.01f);
        // The face at the torch's centre then.
        return solver.fields().u(int(at(2 / kFps + 0.005) / 0.05f + 0.5f), 10, 10);
    };
    const float none = uInside(0.0f), full = uInside(1.0f), halfway = uInside(0.5f);
    EXPECT_NEAR(none, 0.0f, 0.05f);
    EXPECT_GT(full, 0.8f);
    EXPECT_LT(full, 1.3f);
    EXPECT_NEAR(halfway, 0.5f * full, 0.1f * full);
}

// A volume emitter wider than the surface's band (9 cells of radius against
// a reach of 5) holds its surface's motion all through it, at its centre
// too; an obstacle's is only near its surface, where the solver reads it.
TEST(MeshSequence, VolumeEmitterMovesItsSmokeThroughout) {
    const fs::path dir = test::scratchDir("sequence_wide_emitter");
    auto at = [](double seconds) { return 0.5f + 1.2f * float(seconds); };
    for (int n = 1; n <= 4; ++n)
        write(dir / frameName("blob", n), test::icosphereText(0.45f, 3, {at(n / kFps), 0.5f, 0.5f}));
    Scene s = sceneIn(dir, "blob.toml",
                      "[domain]\nsize = [2, 1, 1]\nresolution = 40\n[[emitter]]\n"
                      "shape = \"mesh\"\nfile = \"blob_####.obj\"\ncenter = [0, 0, 0]\n"
                      "[[obstacle]]\nshape = \"mesh\"\nfile = \"blob_####.obj\"\n"
                      "center = [0, 0, 0]\n");
    const Vec3f centre(at(2.5 / kFps), 0.5f, 0.5f);
    const SolidPose emitter = s.emitters[0].sequence->solidAt(2.5);
    const SolidPose obstacle = s.obstacles[0].sequence->solidAt(2.5);
    ASSERT_TRUE(emitter.velocity && obstacle.velocity);
    EXPECT_NEAR(emitter.velocity->sample(centre).x, 1.2f, 0.05f);
    EXPECT_NEAR(emitter.velocity->sample(centre + Vec3f(0.2f, 0.0f, 0.0f)).x, 1.2f, 0.05f);
    EXPECT_NEAR(obstacle.velocity->sample(centre).x, 0.0f, 1e-6f) << "the obstacle's fill changed";
}

// Keys move a sequence as a whole: the growing sphere carried along x at
// 1 m/s by center keys pushes the air ahead at 1 + dR/dt and draws it behind
// at 1 - dR/dt.
TEST(MeshSequence, KeysMoveTheSequenceAsAWhole) {
    const fs::path dir = test::scratchDir("sequence_keys");
    for (int n = 1; n <= 10; ++n)
        write(dir / frameName("ball", n), test::icosphereText(radiusAt(n / kFps), 3));
    Scene scene = sceneIn(dir, "keys.toml",
                          "[domain]\nsize = [1.5, 1, 1]\nresolution = 48\n[time]\ncfl = 1\n"
                          "[[obstacle]]\nshape = \"mesh\"\nfile = \"ball_####.obj\"\n"
                          "[[obstacle.key]]\nframe = 0\ncenter = [0.5, 0.5, 0.5]\n"
                          "[[obstacle.key]]\nframe = 24\ncenter = [1.5, 0.5, 0.5]\n");
    Solver solver(scene);
    for (int frame = 1; frame <= 4; ++frame) solver.advanceFrame(frame);
    const Fields& f = solver.fields();
    const int j = 16, k = 16;  // through the sphere's centre (0.5 m = 16 cells)
    int back = -1, front = -1;
    for (int i = 1; i < f.n.x; ++i) {
        if (!f.solid(i - 1, j, k) && f.solid(i, j, k) && back < 0) back = i;
        if (f.solid(i - 1, j, k) && !f.solid(i, j, k)) front = i;
    }
    ASSERT_GT(back, 0);
    ASSERT_GT(front, back);
    EXPECT_NEAR(f.u(front, j, k), 1.0f + kGrowth, 0.1f);
    EXPECT_NEAR(f.u(back, j, k), 1.0f - kGrowth, 0.1f);
}

// Between two files, a plate two voxels thick that moves four voxels is
// still a plate halfway (its middle inside, its old and new places outside),
// and the velocity there is its displacement per frame.
TEST(MeshSequence, WarpKeepsAThinPlateBetweenFiles) {
    const fs::path dir = test::scratchDir("sequence_warp");
    const float voxel = 0.05f;
    write(dir / "a.obj", test::boxText({0.1f, 0.6f, 0.6f}, {0.0f, 0.0f, 0.0f}));
    write(dir / "b.obj", test::boxText({0.1f, 0.6f, 0.6f}, {0.2f, 0.0f, 0.0f}));
    const TriangleMesh a = readMeshFile((dir / "a.obj").string());
    const TriangleMesh b = readMeshFile((dir / "b.obj").string());
    ASSERT_TRUE(sameTopology(a, b));
    const LevelSet la = levelSetFromMesh(a, voxel, 3.0f), lb = levelSetFromMesh(b, voxel, 3.0f);
    const Lattice lattice = unite(latticeOf(la), latticeOf(lb));
    const Grid3<Vec3f> d = displacementField(a, b, lattice, 0.2f + 4.0f * voxel);
    const LevelSet half = warpBlend(la, lb, d, lattice, 0.5f);
    EXPECT_LT(half.sample({0.1f, 0.0f, 0.0f}), -0.5f * 0.05f + 0.01f);  // the middle: inside
    EXPECT_GT(half.sample({0.0f, 0.0f, 0.0f}), 0.03f);                  // where it was
    EXPECT_GT(half.sample({0.2f, 0.0f, 0.0f}), 0.03f);                  // where it goes
    EXPECT_NEAR(half.sample({0.16f, 0.0f, 0.0f}), 0.01f, 0.01f);        // its face
    // Its displacement, near the plate and a little beyond it.
    for (float x : {0.05f, 0.1f, 0.3f}) {
        const Vec3f g = (Vec3f(x, 0.1f, 0.0f) - lattice.origin()) / voxel;
        const Vec3f moved = d.sample(g);
        EXPECT_NEAR(moved.x, 0.2f, 1e-4f) << x;
        EXPECT_NEAR(moved.y, 0.0f, 1e-4f) << x;
    }
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// A mesh sequence's own surface velocity is local (metres per second of its
// own frame, before placing): the faces take it through the shape's scale and
// rotation, as its points are placed. A box at rest, turned 90 degrees about z
// and stretched 2x along its local x, whose surface moves at (1, 0.5, 0)
// locally: (2, 0.5, 0) scaled, (-0.5, 2, 0) turned, at every face it touches.
TEST(MeshSequence, ItsOwnVelocityTurnsAndScalesWithTheShape) {
    Fields f({16, 16, 16}, 1.0f / 16);
    ObstacleSettings box;
    box.shape = Shape::Box;
    box.center = {0.5f, 0.5f, 0.5f};
    box.size = {0.2f, 0.3f, 0.3f};
    box.rotation = {0.0f, 0.0f, 90.0f};
    box.scale = {2.0f, 1.0f, 1.0f};
    auto own = std::make_shared<SurfaceVelocity>();
    own->velocity = Grid3<Vec3f>(9, 9, 9, Vec3f(0.0f), Vec3f(1.0f, 0.5f, 0.0f));
    own->origin = Vec3f(-1.0f);  // local [-1, 1] on every axis, past the box's faces
    own->voxelSize = 0.25f;
    box.surfaceVelocity = own;
    const std::vector<ObstacleSettings> still{box};
    const float fastest = rasterizeMovingObstacles(f, still, still, still, 1.0f / 24);
    const Vec3f expected(-0.5f, 2.0f, 0.0f);
    EXPECT_NEAR(fastest, 2.0f, 1e-5f);
    int faces[3] = {0, 0, 0};
    for (int axis = 0; axis < 3; ++axis) {
        const ScalarGrid& g = f.solidVelocity.component(axis);
        for (int k = 0; k < g.nz(); ++k)
            for (int j = 0; j < g.ny(); ++j)
                for (int i = 0; i < g.nx(); ++i) {
                    const int im = i - (axis == 0), jm = j - (axis == 1), km = k - (axis == 2);
                    const bool solid = (i < f.n.x && j < f.n.y && k < f.n.z && f.solid(i, j, k)) ||
                                       (im >= 0 && jm >= 0 && km >= 0 && f.solid(im, jm, km));
                    if (!solid) continue;
                    ++faces[axis];
                    EXPECT_NEAR(g(i, j, k), expected[axis], 1e-5f)
                        << "axis " << axis << " face " << i << " " << j << " " << k;
                }
    }
    EXPECT_GT(faces[0], 100);
    EXPECT_GT(faces[1], 100);
}

}  // namespace
}  // namespace plume
