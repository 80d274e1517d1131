// The OpenVDB cache against real files: what plume writes, read back with the
// raw OpenVDB API (as Blender would), Blender-like files read by plume, errors,
// and the bit-exact resume state.
#include "io/vdb_cache.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"
#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "core/error.h"
#include "io/sequence.h"
#include "io/solver_state.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
struct TempDir : test::TempDir {
    TempDir() : test::TempDir("plume_vdb_test") {}
};

// A 16x12x20 domain with a soft blob of smoke, a warm core and a swirling flow.
Fields blobFields() {
    Fields f({16, 12, 20}, 0.1f, {-0.8f, -0.6f, 0.0f});
    const Vec3f centre(8.0f, 6.0f, 7.0f);
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                Vec3f d = Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) - centre;
                float r2 = dot(d, d);
                f.density(i, j, k) = r2 < 16.0f ? std::exp(-r2 / 6.0f) : 0.0f;
                f.temperature(i, j, k) = r2 < 9.0f ? 2.0f - 0.2f * r2 : 0.0f;
            }
    for (int axis = 0; axis < 3; ++axis) {
        ScalarGrid& c = f.component(axis);
        for (int k = 0; k < c.nz(); ++k)
            for (int j = 0; j < c.ny(); ++j)
                for (int i = 0; i < c.nx(); ++i)
                    c(i, j, k) = (i + j + k) % 4 == 0
                                     ? 0.0f
                                     : 0.1f * (axis + 1) * std::sin(0.3f * i + 0.2f * j - 0.1f * k);
    }
    return f;
}

int countActive(const openvdb::GridBase& g) { return int(g.activeVoxelCount()); }

openvdb::GridBase::Ptr readRaw(const std::string& path, const std::string& name,
                               openvdb::MetaMap::Ptr* fileMeta = nullptr) {
    openvdb::initialize();
    openvdb::io::File file(path);
    file.open();
    openvdb::GridBase::Ptr g = file.readGrid(name);
    if (fileMeta) *fileMeta = file.getMetadata();
    file.close();
    return g;
}

// The tiny generator of foreign VDB files: grids named as Blender's Mantaflow
// cache names them, half floats, an index box away from the origin.
struct TestGrid {
    std::string name;
    openvdb::CoordBBox box;  // active voxels
    float value;             // value at box.min; grows by 0.01 per voxel in x
};
void writeTestVdb(const std::string& path, const std::vector<TestGrid>& grids,
                  openvdb::math::Transform::Ptr xform, bool addStaggeredVel = true) {
    openvdb::initialize();
    openvdb::GridPtrVec out;
    for (const TestGrid& t : grids) {
        auto g = openvdb::FloatGrid::create(0.0f);
        auto acc = g->getAccessor();
        for (auto it = t.box.begin(); it; ++it)
            acc.setValue(*it, t.value + 0.01f * float((*it).x() - t.box.min().x()));
        g->setName(t.name);
        g->setGridClass(openvdb::GRID_FOG_VOLUME);
        g->setTransform(xform);
        g->setSaveFloatAsHalf(true);
        out.push_back(g);
    }
    if (addStaggeredVel) {
        auto vel = openvdb::Vec3SGrid::create(openvdb::Vec3s(0.0f));
        vel->tree().setValue(openvdb::Coord(1, 2, 3), openvdb::Vec3s(1, 2, 3));
        vel->setName("vel");
        vel->setGridClass(openvdb::GRID_STAGGERED);
        vel->setTransform(xform);
        out.push_back(vel);
    }
    openvdb::io::File file(path);
    file.setCompression(openvdb::io::COMPRESS_ACTIVE_MASK | openvdb::io::COMPRESS_BLOSC);
    file.write(out);
    file.close();
}

// Runs f, expecting a RunError whose message contains every piece.
template <typename F>
void expectRunError(F&& f, std::initializer_list<std::string> pieces) {
    try {
        f();
        ADD_FAILURE() << "no RunError";
    } catch (const RunError& e) {
        std::string what = e.what();
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        for (const std::string& piece : pieces)
            EXPECT_NE(what.find(piece), std::string::npos) << "'" << piece << "' not in: " << what;
    }
}

TEST(VdbCache, WritesGridsBlenderCanRead) {
    TempDir dir;
    Fields f = blobFields();
    std::string path = cacheFramePath(dir.path().string(), "smoke", 3);
    writeVdbFrame(path, f, 3, "smoke", {});

    openvdb::MetaMap::Ptr meta;
    auto density = openvdb::gridPtrCast<openvdb::FloatGrid>(readRaw(path, "density", &meta));
    auto temperature = openvdb::gridPtrCast<openvdb::FloatGrid>(readRaw(path, "temperature"));
    auto velocity = openvdb::gridPtrCast<openvdb::Vec3SGrid>(readRaw(path, "velocity"));
    ASSERT_TRUE(density && temperature && velocity);

    // Metadata: plume made it, which frame of which scene
    std::string creator = meta->metaValue<std::string>("creator");
    EXPECT_EQ(creator.rfind("plume", 0), 0u) << creator;
    EXPECT_EQ(creator.find("Houdini"), std::string::npos);
    EXPECT_EQ(meta->metaValue<int32_t>("frame"), 3);
    EXPECT_EQ(meta->metaValue<std::string>("scene"), "smoke");
    EXPECT_FLOAT_EQ(meta->metaValue<float>("dx"), 0.1f);

    // Classes, backgrounds, storage
    EXPECT_EQ(density->getGridClass(), openvdb::GRID_FOG_VOLUME);
    EXPECT_EQ(temperature->getGridClass(), openvdb::GRID_FOG_VOLUME);
    EXPECT_EQ(velocity->getGridClass(), openvdb::GRID_UNKNOWN);
    EXPECT_EQ(velocity->getVectorType(), openvdb::VEC_CONTRAVARIANT_RELATIVE);
    EXPECT_EQ(density->background(), 0.0f);
    EXPECT_EQ(velocity->background(), openvdb::Vec3s(0.0f));
    EXPECT_TRUE(density->saveFloatAsHalf());

    // Placement: voxel (3, 4, 5) centred at origin + (3.5, 4.5, 5.5) * dx, Z up
    EXPECT_TRUE(density->transform().isLinear());
    EXPECT_NEAR(density->voxelSize().x(), 0.1, 1e-7);
    EXPECT_NEAR(density->voxelSize().z(), 0.1, 1e-7);
    openvdb::Vec3d p = density->transform().indexToWorld(openvdb::Coord(3, 4, 5));
    EXPECT_NEAR(p.x(), -0.8 + 0.35, 1e-6);
    EXPECT_NEAR(p.y(), -0.6 + 0.45, 1e-6);
    EXPECT_NEAR(p.z(), 0.0 + 0.55, 1e-6);

    // Values within half precision; sparse below the tolerance
    auto dacc = density->getConstAccessor();
    auto tacc = temperature->getConstAccessor();
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                openvdb::Coord c(i, j, k);
                float d = f.density(i, j, k);
                if (d > 1e-4f) {
                    ASSERT_TRUE(dacc.isValueOn(c));
                    ASSERT_NEAR(dacc.getValue(c), d, 1e-3f * d + 1e-6f);
                } else {
                    ASSERT_FALSE(dacc.isValueOn(c));
                    ASSERT_EQ(dacc.getValue(c), 0.0f);
                }
                ASSERT_NEAR(tacc.getValue(c), f.temperature(i, j, k), 2e-3f);
            }
    EXPECT_LT(countActive(*density), int(f.cellCount()) / 2);
    EXPECT_GT(countActive(*density), 100);

    // Velocity: the mean of each cell's two faces per axis
    auto vacc = velocity->getConstAccessor();
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                Vec3f want = f.centredVelocity(i, j, k);
                openvdb::Vec3s got = vacc.getValue(openvdb::Coord(i, j, k));
                for (int a = 0; a < 3; ++a)
                    ASSERT_NEAR(got[a], want[a], 2e-4f + 1e-3f * std::abs(want[a]));
            }
}

// The scene's frame rate rides in every file (beside what was there), and
// the domain's world position in the transform: a tool importing the
// sequence can time it and place it.
TEST(VdbCache, RecordsTheFrameRateAndTheDomainsPlace) {
    TempDir dir;
    Fields f = blobFields();
    CacheOptions opt;
    opt.fps = 30;
    opt.worldOrigin = {3.5f, -2.0f, 1.25f};
    std::string path = cacheFramePath(dir.path().string(), "smoke", 1001);
    writeVdbFrame(path, f, 1001, "smoke", opt);

    openvdb::MetaMap::Ptr meta;
    auto density = readRaw(path, "density", &meta);
    EXPECT_EQ(meta->metaValue<float>("plume_fps"), 30.0f);
    EXPECT_EQ(meta->metaValue<int32_t>("frame"), 1001);
    EXPECT_EQ(meta->metaValue<std::string>("scene"), "smoke");
    EXPECT_EQ(meta->metaValue<std::string>("creator").rfind("plume", 0), 0u);
    // The blob's cell 0 sits at f.origin in the domain: in the world, that
    // moved by the domain's place.
    const double dx = f.dx;
    const openvdb::Vec3d corner(3.5 + double(f.origin.x), -2.0 + double(f.origin.y),
                                1.25 + double(f.origin.z));
    EXPECT_EQ(density->transform().indexToWorld(openvdb::Coord(0)),
              corner + openvdb::Vec3d(0.5 * dx));

    const CacheFrame c = readVdbFrame(path);
    EXPECT_EQ(c.fps, 30.0);
    EXPECT_EQ(c.frame, 1001);
    EXPECT_EQ(c.origin, Vec3f(float(corner.x()), float(corner.y()), float(corner.z())));
    // Read relative to the domain's place, a volume is where the solver had it.
    const std::string home = cacheFramePath(dir.path().string(), "home", 1);
    writeVdbFrame(home, f, 1, "home", {});
    EXPECT_EQ(readVdbVolume(path, "density", {}, true, opt.worldOrigin).origin,
              readVdbVolume(home, "density").origin);
}

TEST(VdbCache, FullPrecisionRoundTripsExactly) {
    TempDir dir;
    Fields f = blobFields();
    std::string path = dir.file("smoke_0001.vdb");
    CacheOptions opt;
    opt.halfFloats = false;
    writeVdbFrame(path, f, 1, "smoke", opt);

    auto density = openvdb::gridPtrCast<openvdb::FloatGrid>(readRaw(path, "density"));
    EXPECT_FALSE(density->saveFloatAsHalf());

    CacheFrame c = readVdbFrame(path);
    EXPECT_EQ(c.n, f.n);
    EXPECT_FLOAT_EQ(c.dx, f.dx);
    EXPECT_NEAR(c.origin.x, f.origin.x, 1e-6f);
    EXPECT_NEAR(c.origin.y, f.origin.y, 1e-6f);
    EXPECT_NEAR(c.origin.z, f.origin.z, 1e-6f);
    EXPECT_EQ(c.frame, 1);
    EXPECT_EQ(c.sceneName, "smoke");
    for (size_t m = 0; m < f.cellCount(); ++m) {
        float d = f.density[m], t = f.temperature[m];
        ASSERT_EQ(c.density[m], std::abs(d) > opt.tolerance ? d : 0.0f);
        ASSERT_EQ(c.temperature[m], std::abs(t) > opt.tolerance ? t : 0.0f);
    }
    int k = 7, j = 6, i = 8;
    Vec3f v = f.centredVelocity(i, j, k);
    EXPECT_EQ(c.velocity(i, j, k), v);
}

TEST(VdbCache, HonoursVelocityName) {
    TempDir dir;
    Fields f = blobFields();
    std::string path = dir.file("smoke_0001.vdb");
    CacheOptions opt;
    opt.velocityName = "vel";
    writeVdbFrame(path, f, 1, "smoke", opt);
    EXPECT_EQ(listGrids(path), (std::vector<std::string>{"density", "temperature", "vel"}));
    Grid3<Vec3f> vel = readVdbVelocity(path, "vel");
    ASSERT_EQ(vel.nx(), f.n.x);
    Vec3f want = f.centredVelocity(5, 6, 7), got = vel(5, 6, 7);
    EXPECT_NEAR(got.x, want.x, 1e-3f);
    EXPECT_NEAR(got.z, want.z, 1e-3f);
    expectRunError([&] { readVdbVelocity(path, "velocity"); }, {"has no grid 'velocity'", path});
}

TEST(VdbCache, FireGridsAreNamedAsBlenderNamesThem) {
    TempDir dir;
    Fields f = blobFields();
    std::string path = dir.file("fire_0001.vdb");
    writeVdbFrame(path, f, 1, "fire");
    EXPECT_EQ(listGrids(path), (std::vector<std::string>{"density", "temperature", "velocity"}));
    f.enableFire();
    f.flame(5, 6, 7) = 0.75f;
    f.fuel(4, 4, 4) = 0.5f;
    writeVdbFrame(path, f, 1, "fire");
    EXPECT_EQ(listGrids(path), (std::vector<std::string>{"density", "flame", "fuel", "temperature",
                                                         "velocity"}));
    const LoadedVolume flame = readVdbVolume(path, "flame");
    float peak = 0.0f;
    for (float v : flame.density.values()) peak = std::max(peak, v);
    EXPECT_EQ(peak, 0.75f);
}

TEST(VdbCache, LeavesNoTemporaryFiles) {
    TempDir dir;
    Fields f = blobFields();
    writeVdbFrame(dir.file("smoke_0001.vdb"), f, 1, "smoke", {});
    writeVdbFrame(dir.file("smoke_0001.vdb"), f, 1, "smoke", {});  // rewrite in place
    writeSolverState(resumeStatePath(dir.path().string(), "smoke"), f, 1, "abc");
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir.path()))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"smoke.resume", "smoke_0001.vdb"}));
}

TEST(VdbCache, UnwritableDirectoryIsARunError) {
    TempDir dir;
    std::string path = dir.file("missing/smoke_0001.vdb");
    expectRunError([&] { writeVdbFrame(path, blobFields(), 1, "smoke", {}); },
                   {"cannot write", path});
}

TEST(VdbRead, ReadsOwnFileOverItsActiveBox) {
    TempDir dir;
    Fields f = blobFields();
    std::string path = dir.file("smoke_0002.vdb");
    writeVdbFrame(path, f, 2, "smoke", {});
    LoadedVolume v = readVdbVolume(path);

    EXPECT_FLOAT_EQ(v.dx, 0.1f);
    EXPECT_TRUE(v.hasTemperature);
    EXPECT_EQ(v.temperatureName, "temperature");
    EXPECT_EQ(v.gridNames, (std::vector<std::string>{"density", "temperature", "velocity"}));
    ASSERT_EQ(v.temperature.nx(), v.density.nx());

    // The active box: every cell whose density is above the tolerance
    int lo[3] = {1 << 20, 1 << 20, 1 << 20}, hi[3] = {-1, -1, -1};
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i)
                if (f.density(i, j, k) > 1e-4f) {
                    int c[3] = {i, j, k};
                    for (int a = 0; a < 3; ++a)
                        lo[a] = std::min(lo[a], c[a]), hi[a] = std::max(hi[a], c[a]);
                }
    ASSERT_EQ(v.density.nx(), hi[0] - lo[0] + 1);
    ASSERT_EQ(v.density.ny(), hi[1] - lo[1] + 1);
    ASSERT_EQ(v.density.nz(), hi[2] - lo[2] + 1);
    EXPECT_NEAR(v.origin.x, f.origin.x + lo[0] * f.dx, 1e-6f);
    EXPECT_NEAR(v.origin.y, f.origin.y + lo[1] * f.dx, 1e-6f);
    EXPECT_NEAR(v.origin.z, f.origin.z + lo[2] * f.dx, 1e-6f);
    for (int k = 0; k < v.density.nz(); ++k)
        for (int j = 0; j < v.density.ny(); ++j)
            for (int i = 0; i < v.density.nx(); ++i) {
                float want = f.density(i + lo[0], j + lo[1], k + lo[2]);
                ASSERT_NEAR(v.density(i, j, k), want > 1e-4f ? want : 0.0f, 1e-3f);
            }
    VolumeView view = v.view();
    EXPECT_EQ(view.density, &v.density);
    EXPECT_EQ(view.temperature, &v.temperature);
}

TEST(VdbRead, ReadsMantaflowLikeCache) {
    TempDir dir;
    // Mantaflow: a scale-only transform (voxel centres at i * dx), half floats,
    // smoke only where it is, so the index box starts away from 0.
    const double dx = 0.05;
    std::string path = dir.file("fluid_data_0007.vdb");
    openvdb::CoordBBox box(openvdb::Coord(10, 5, 3), openvdb::Coord(17, 9, 12));
    writeTestVdb(path, {{"density", box, 0.5f}, {"heat", box, 1.25f}, {"flame", box, 0.1f}},
                 openvdb::math::Transform::createLinearTransform(dx));

    LoadedVolume v = readVdbVolume(path);
    EXPECT_EQ(v.gridNames, (std::vector<std::string>{"density", "flame", "heat", "vel"}));
    EXPECT_NEAR(v.dx, 0.05f, 1e-7f);
    EXPECT_NEAR(v.origin.x, (10 - 0.5) * dx, 1e-6);
    EXPECT_NEAR(v.origin.y, (5 - 0.5) * dx, 1e-6);
    EXPECT_NEAR(v.origin.z, (3 - 0.5) * dx, 1e-6);
    ASSERT_EQ(v.density.nx(), 8);
    ASSERT_EQ(v.density.ny(), 5);
    ASSERT_EQ(v.density.nz(), 10);
    EXPECT_NEAR(v.density(0, 0, 0), 0.5f, 1e-3f);
    EXPECT_NEAR(v.density(7, 4, 9), 0.57f, 1e-3f);
    ASSERT_TRUE(v.hasTemperature);
    EXPECT_EQ(v.temperatureName, "heat");
    EXPECT_NEAR(v.temperature(3, 2, 1), 1.28f, 1e-3f);
    EXPECT_NEAR(v.view().worldMax().z, (12 + 0.5) * dx, 1e-5);
}

TEST(VdbRead, ReadsBlenderMantaflowFireWithItsFlame) {
    TempDir dir;
    // Blender 3.4's fire cache: heat as "temperature" (1.5 to 3 in a flame),
    // "flame" 0..1 where it burns, a "shadow" grid; scale-only transform.
    const double dx = 0.0625;
    std::string path = dir.file("fluid_data_0008.vdb");
    openvdb::CoordBBox box(openvdb::Coord(6, 6, 1), openvdb::Coord(25, 25, 18));
    openvdb::CoordBBox flameBox(openvdb::Coord(9, 9, 1), openvdb::Coord(12, 12, 4));
    writeTestVdb(path,
                 {{"density", box, 0.02f},
                  {"temperature", box, 2.5f},
                  {"flame", flameBox, 0.9f},
                  {"shadow", box, -1.0f}},
                 openvdb::math::Transform::createLinearTransform(dx), false);

    LoadedVolume v = readVdbVolume(path);
    ASSERT_TRUE(v.hasTemperature);
    EXPECT_EQ(v.temperatureName, "temperature");
    EXPECT_NEAR(v.temperature(3, 3, 0), 2.53f, 1e-2f);  // the test grid adds 0.01 per x
    // The flame where it glows, on the density's voxels: index (9, 9, 1) is (3, 3, 0).
    ASSERT_TRUE(v.hasFlame);
    ASSERT_EQ(v.flame.nx(), v.density.nx());
    EXPECT_NEAR(v.flame(3, 3, 0), 0.9f, 1e-3f);
    EXPECT_EQ(v.flame(0, 0, 0), 0.0f);
    EXPECT_EQ(v.flame(7, 7, 4), 0.0f);
    EXPECT_NE(v.view().flame, nullptr);
}

TEST(VdbRead, ReadsTranslatedTransformAndFlameAsEmission) {
    TempDir dir;
    auto xform = openvdb::math::Transform::createLinearTransform(0.2);
    xform->postTranslate(openvdb::Vec3d(1.0, -2.0, 0.5));
    std::string path = dir.file("fire_0001.vdb");
    openvdb::CoordBBox box(openvdb::Coord(-3, 2, 0), openvdb::Coord(2, 4, 6));
    openvdb::CoordBBox flameBox(openvdb::Coord(-1, 3, 1), openvdb::Coord(0, 3, 2));
    writeTestVdb(path, {{"density", box, 1.0f}, {"flame", flameBox, 0.75f}}, xform, false);

    LoadedVolume v = readVdbVolume(path);
    EXPECT_NEAR(v.dx, 0.2f, 1e-7f);
    EXPECT_NEAR(v.origin.x, 1.0 + (-3 - 0.5) * 0.2, 1e-5);
    EXPECT_NEAR(v.origin.y, -2.0 + (2 - 0.5) * 0.2, 1e-5);
    EXPECT_NEAR(v.origin.z, 0.5 - 0.5 * 0.2, 1e-5);
    ASSERT_TRUE(v.hasTemperature);
    EXPECT_EQ(v.temperatureName, "flame");
    EXPECT_NEAR(v.temperature(2, 1, 1), 0.75f, 1e-3f);  // index (-1, 3, 1)
    EXPECT_EQ(v.temperature(0, 0, 0), 0.0f);
}

TEST(VdbRead, ResamplesTemperatureOnAnotherTransform) {
    TempDir dir;
    openvdb::initialize();
    auto fine = openvdb::math::Transform::createLinearTransform(0.1);
    auto coarse = openvdb::math::Transform::createLinearTransform(0.2);
    auto density = openvdb::FloatGrid::create(0.0f);
    density->setName("density");
    density->setTransform(fine);
    density->fill(openvdb::CoordBBox(openvdb::Coord(0), openvdb::Coord(7)), 1.0f);
    auto heat = openvdb::FloatGrid::create(0.0f);
    heat->setName("temperature");
    heat->setTransform(coarse);
    heat->fill(openvdb::CoordBBox(openvdb::Coord(-2), openvdb::Coord(6)), 3.0f);
    heat->tree().voxelizeActiveTiles();
    std::string path = dir.file("mixed.vdb");
    openvdb::io::File(path).write({density, heat});

    LoadedVolume v = readVdbVolume(path);
    ASSERT_TRUE(v.hasTemperature);
    EXPECT_NEAR(v.temperature(4, 4, 4), 3.0f, 1e-5f);
}

TEST(VdbRead, NonUniformVoxelsWarnAndUseX) {
    TempDir dir;
    std::string path = dir.file("stretched.vdb");
    openvdb::math::Mat4d stretch = openvdb::math::Mat4d::identity();
    stretch.setToScale(openvdb::Vec3d(0.1, 0.2, 0.1));
    auto xform = openvdb::math::Transform::createLinearTransform(stretch);
    openvdb::CoordBBox box(openvdb::Coord(0), openvdb::Coord(3));
    writeTestVdb(path, {{"density", box, 0.5f}}, xform, false);
    testing::internal::CaptureStderr();
    LoadedVolume v = readVdbVolume(path);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NEAR(v.dx, 0.1f, 1e-7f);
    EXPECT_NE(err.find("warning"), std::string::npos) << err;
    EXPECT_NE(err.find(path), std::string::npos) << err;
}

TEST(VdbRead, MissingGridNamesTheGridsThere) {
    TempDir dir;
    std::string path = dir.file("fluid_data_0001.vdb");
    openvdb::CoordBBox box(openvdb::Coord(0), openvdb::Coord(3));
    writeTestVdb(path, {{"heat", box, 1.0f}, {"flame", box, 1.0f}},
                 openvdb::math::Transform::createLinearTransform(0.1));
    expectRunError([&] { readVdbVolume(path); },
                   {"'" + path + "' has no grid 'density' (grids: flame, heat, vel)"});
    expectRunError([&] { readVdbVolume(path, "vel"); }, {"grid 'vel'", path, "vec3s", "not float"});
    EXPECT_EQ(listGrids(path), (std::vector<std::string>{"flame", "heat", "vel"}));
}

TEST(VdbRead, TruncatedOrForeignFileIsARunError) {
    TempDir dir;
    std::string path = dir.file("smoke_0001.vdb");
    CacheOptions opt;
    opt.halfFloats = false;
    writeVdbFrame(path, blobFields(), 1, "smoke", opt);
    const auto size = fs::file_size(path);
    // Cut in the header, inside density, and inside the velocity, which a
    // render never reads but which still shows the file is not whole.
    for (double kept : {0.02, 0.3, 0.5, 0.9, 0.999}) {
        std::string cut = dir.file("cut_0001.vdb");
        fs::copy_file(path, cut, fs::copy_options::overwrite_existing);
        fs::resize_file(cut, uintmax_t(double(size) * kept));
        SCOPED_TRACE(kept);
        expectRunError([&] { readVdbVolume(cut); }, {cut, "is not a readable VDB file ("});
    }

    std::string text = dir.file("notes_0001.vdb");
    std::ofstream(text) << "this is not a VDB file\n";
    expectRunError([&] { readVdbVolume(text); }, {text, "is not a readable VDB file ("});
    expectRunError([&] { listGrids(text); }, {text, "is not a readable VDB file ("});

    std::string empty = dir.file("empty_0001.vdb");
    std::ofstream{empty};
    expectRunError([&] { readVdbVolume(empty); }, {empty, "is not a readable VDB file ("});
}

// OpenVDB trusts the lengths in a file's header; cut inside the header or the
// metadata, it used to read an unset length and allocate gigabytes. Every cut
// must be a plain RunError, and memory must stay near what the test had.
TEST(VdbRead, CutAnywhereIsARunErrorWithoutABlowUp) {
    TempDir dir;
    std::string path = dir.file("smoke_0001.vdb");
    writeVdbFrame(path, blobFields(), 1, "smoke", CacheOptions{});
    const auto size = fs::file_size(path);
    std::vector<uintmax_t> cuts;
    for (uintmax_t n = 1; n < std::min<uintmax_t>(size, 600); n += 3) cuts.push_back(n);
    for (uintmax_t n = 600; n < size; n += size / 16) cuts.push_back(n);
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    const std::string cut = dir.file("cut_0001.vdb");
    for (uintmax_t n : cuts) {
        fs::copy_file(path, cut, fs::copy_options::overwrite_existing);
        fs::resize_file(cut, n);
        SCOPED_TRACE("kept " + std::to_string(n) + " of " + std::to_string(size) + " bytes");
        expectRunError([&] { readVdbVolume(cut); }, {cut, "is not a readable VDB file ("});
    }
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 256 * 1024) << "KiB more at peak";
}

TEST(VdbRead, MissingFileIsARunError) {
    TempDir dir;
    std::string path = dir.file("nothing_0001.vdb");
    expectRunError([&] { readVdbVolume(path); }, {"cannot read '" + path + "': no such file"});
}

TEST(VdbRead, EmptyDensityGivesOneClearVoxel) {
    TempDir dir;
    Fields f({8, 8, 8}, 0.25f);
    std::string path = dir.file("smoke_0001.vdb");
    writeVdbFrame(path, f, 1, "smoke", {});
    LoadedVolume v = readVdbVolume(path);
    ASSERT_EQ(v.density.size(), 1u);
    EXPECT_EQ(v.density[0], 0.0f);
    EXPECT_NEAR(v.origin.x, 0.0f, 1e-6f);
}

// Random values that stress a bit-exact copy: signs, tiny and subnormal
// magnitudes, exact and negative zeros.
void fillAwkward(ScalarGrid& g, std::mt19937& rng) {
    std::uniform_real_distribution<float> u(-10.0f, 10.0f);
    std::uniform_int_distribution<int> pick(0, 9);
    for (size_t m = 0; m < g.size(); ++m) {
        switch (pick(rng)) {
            case 0:
                g[m] = 0.0f;
                break;
            case 1:
                g[m] = -0.0f;
                break;
            case 2:
                g[m] = u(rng) * 1e-38f;
                break;  // subnormal
            case 3:
                g[m] = u(rng) * 1e-7f;
                break;
            default:
                g[m] = u(rng);
        }
    }
}

bool sameBits(const ScalarGrid& a, const ScalarGrid& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(CacheResume, StateRoundTripsBitForBit) {
    TempDir dir;
    std::mt19937 rng(7);
    Fields f({13, 9, 11}, 0.05f, {0.5f, -1.0f, 2.0f});
    for (ScalarGrid* g : {&f.u, &f.v, &f.w, &f.density, &f.temperature}) fillAwkward(*g, rng);
    // Whole leaves of zeros and of one value must survive too
    for (size_t m = 0; m < 600; ++m) f.density[m] = 0.25f;
    for (size_t m = 0; m < f.solid.size(); ++m) f.solid[m] = (m * 7) % 5 == 0 ? 1 : 0;
    f.time = 1.0 / 3.0;

    std::string path = resumeStatePath(dir.path().string(), "smoke");
    Grid3<double> pressure(13, 9, 11);
    for (size_t m = 0; m < pressure.size(); ++m) pressure[m] = std::ldexp(double(m) + 0.1, -40);
    writeSolverState(path, f, 17, "0123456789abcdef", "smoke run", &pressure);

    Fields g({13, 9, 11}, 0.05f, {0.5f, -1.0f, 2.0f});
    g.density.fill(99.0f);  // reading must overwrite every sample
    Grid3<double> p;
    SolverState s = readSolverState(path, g, &p);
    EXPECT_EQ(s.frame, 17);
    EXPECT_EQ(s.sceneHash, "0123456789abcdef");
    EXPECT_EQ(s.sceneName, "smoke run");
    EXPECT_EQ(g.time, f.time);
    EXPECT_TRUE(sameBits(f.u, g.u));
    EXPECT_TRUE(sameBits(f.v, g.v));
    EXPECT_TRUE(sameBits(f.w, g.w));
    EXPECT_TRUE(sameBits(f.density, g.density));
    EXPECT_TRUE(sameBits(f.temperature, g.temperature));
    EXPECT_EQ(f.solid.values(), g.solid.values());
    EXPECT_EQ(p.values(), pressure.values());

    // Without a saved pressure the warm start reads back as zeros.
    writeSolverState(path, f, 17, "0123456789abcdef", "smoke");
    p.fill(5.0);
    readSolverState(path, g, &p);
    EXPECT_EQ(p.values(), std::vector<double>(pressure.size(), 0.0));
}

TEST(CacheResume, StateKeepsFireAndTheSparseBox) {
    TempDir dir;
    std::mt19937 rng(11);
    // A 6x5x4 box at (3, 2, 1) of a 16x12x10 domain, burning.
    Fields f({6, 5, 4}, 0.1f, Vec3f(0.3f, 0.2f, 0.1f));
    f.offset = {3, 2, 1};
    f.domainCells = {16, 12, 10};
    f.enableFire();
    for (ScalarGrid* g : {&f.u, &f.v, &f.w, &f.density, &f.temperature, &f.fuel, &f.flame})
        fillAwkward(*g, rng);
    std::string path = resumeStatePath(dir.path().string(), "fire");
    writeSolverState(path, f, 4, "h");

    // Read into fields of the whole domain: they take the file's box.
    Fields g({16, 12, 10}, 0.1f);
    g.domainCells = {16, 12, 10};
    g.enableFire();
    readSolverState(path, g);
    EXPECT_EQ(g.n, f.n);
    EXPECT_EQ(g.offset, f.offset);
    EXPECT_EQ(g.origin.x, f.origin.x);
    EXPECT_TRUE(sameBits(f.fuel, g.fuel));
    EXPECT_TRUE(sameBits(f.flame, g.flame));
    EXPECT_TRUE(sameBits(f.w, g.w));

    // A scene without fire cannot take a burning state.
    Fields cold({16, 12, 10}, 0.1f);
    cold.domainCells = {16, 12, 10};
    expectRunError([&] { readSolverState(path, cold); }, {path, "with fire"});
}

TEST(CacheResume, RefusesAForeignOrDamagedHeader) {
    TempDir dir;
    Fields f({4, 4, 4}, 0.1f);
    std::string path = resumeStatePath(dir.path().string(), "smoke");
    writeSolverState(path, f, 3, "hash");
    std::string bytes;
    {
        std::ifstream in(path, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    auto rewrite = [&](const std::string& from, const std::string& to) {
        std::string changed = bytes;
        changed.replace(changed.find(from), from.size(), to);
        std::ofstream(path, std::ios::binary) << changed;
    };
    rewrite("plume resume state 2", "plume resume state 1");
    expectRunError([&] { readSolverState(path, f); }, {path, "another plume version"});
    rewrite("box 0 0 0 4 4 4", "box 2 0 0 4 4 4");
    expectRunError([&] { readSolverState(path, f); }, {path, "box outside its domain"});
    rewrite("frame 3", "frame x");
    expectRunError([&] { readSolverState(path, f); }, {path, "'frame' line is unreadable"});
    rewrite("\ndata\n", "\nnodata\n");
    expectRunError([&] { readSolverState(path, f); }, {path, "header has no end"});
    std::ofstream(path, std::ios::binary) << bytes << "xx";
    expectRunError([&] { readSolverState(path, f); }, {path, "runs on past its grids"});
    // A sparse solve's islands: a count that is not one, boxes that are
    // missing or lie outside the box around them.
    rewrite("\nfire ", "\nislands 2 0 0 0 2 2 2\nfire ");
    expectRunError([&] { readSolverState(path, f); }, {path, "'islands' line is unreadable"});
    rewrite("\nfire ", "\nislands 1 0 0 0 2 2 2\nfire ");
    expectRunError([&] { readSolverState(path, f); }, {path, "'islands' line is unreadable"});
    rewrite("\nfire ", "\nislands 2 0 0 0 2 2 2 2 2 2 5 4 4\nfire ");
    expectRunError([&] { readSolverState(path, f); }, {path, "an island outside its box"});
}

// Several islands: each one's grids in its place of the box around them, and
// the islands listed; a file cut short is refused.
TEST(CacheResume, IslandsRoundTrip) {
    TempDir dir;
    const Vec3i domain{16, 8, 8};
    auto island = [&](Vec3i lo, Vec3i n, float value) {
        Fields f(n, 0.1f, Vec3f(float(lo.x), float(lo.y), float(lo.z)) * 0.1f);
        f.offset = lo;
        f.domainCells = domain;
        f.density.fill(value);
        f.u.fill(value + 1.0f);
        return f;
    };
    const Fields a = island({0, 0, 0}, {4, 8, 8}, 1.0f), b = island({8, 0, 0}, {8, 4, 8}, 2.0f);
    Grid3<double> pa(4, 8, 8, Vec3f(0.5f), 3.0), pb(8, 4, 8, Vec3f(0.5f), 4.0);
    std::string path = resumeStatePath(dir.path().string(), "two");
    writeSolverState(path, {{&a, &pa}, {&b, &pb}}, 5, "hash");

    Fields f(domain, 0.1f);
    f.domainCells = domain;
    Grid3<double> pressure;
    const SolverState state = readSolverState(path, f, &pressure);
    ASSERT_EQ(state.islands.size(), 2u);
    EXPECT_EQ(state.islands[1], (Box3i{{8, 0, 0}, {16, 4, 8}}));
    EXPECT_EQ(f.offset, (Vec3i{0, 0, 0}));
    EXPECT_EQ(f.n, domain);
    EXPECT_EQ(f.density(3, 7, 7), 1.0f);
    EXPECT_EQ(f.density(8, 3, 0), 2.0f);
    EXPECT_EQ(f.u(12, 3, 2), 3.0f);
    EXPECT_EQ(pressure(2, 2, 2), 3.0);
    EXPECT_EQ(pressure(15, 3, 7), 4.0);

    std::string bytes;
    {
        std::ifstream in(path, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() - 8);
    expectRunError([&] { readSolverState(path, f); }, {path, "truncated"});
}

TEST(CacheResume, RefusesAnotherGridSize) {
    TempDir dir;
    Fields f({8, 8, 8}, 0.1f);
    std::string path = resumeStatePath(dir.path().string(), "smoke");
    writeSolverState(path, f, 3, "hash");
    Fields other({8, 8, 9}, 0.1f);
    expectRunError([&] { readSolverState(path, other); }, {path, "8x8x8", "8x8x9"});
    Fields finer({8, 8, 8}, 0.05f);
    expectRunError([&] { readSolverState(path, finer); }, {path, "voxel size"});
}

TEST(CacheResume, RefusesATruncatedState) {
    TempDir dir;
    Fields f({8, 8, 8}, 0.1f);
    f.u.fill(1.5f);
    std::string path = resumeStatePath(dir.path().string(), "smoke");
    writeSolverState(path, f, 3, "hash");
    fs::resize_file(path, fs::file_size(path) - 10);
    expectRunError([&] { readSolverState(path, f); }, {path, "is truncated"});
}

TEST(CacheResume, RefusesAFrameFileOrNothing) {
    TempDir dir;
    std::string frame = dir.file("smoke_0001.vdb");
    Fields f({8, 8, 8}, 0.1f);
    writeVdbFrame(frame, f, 1, "smoke", {});
    expectRunError([&] { readSolverState(frame, f); }, {frame, "not a plume resume state"});
    std::string missing = dir.file("smoke.resume");
    expectRunError([&] { readSolverState(missing, f); }, {missing, "no such file"});
}

TEST(CacheResume, StateStaysOutOfTheSequence) {
    TempDir dir;
    EXPECT_EQ(resumeStatePath("cache", "smoke"), "cache/smoke.resume");
    Fields f({4, 4, 4}, 0.1f);
    f.density(1, 1, 1) = 1.0f;
    writeVdbFrame(cacheFramePath(dir.path().string(), "smoke", 1), f, 1, "smoke", {});
    writeVdbFrame(cacheFramePath(dir.path().string(), "smoke", 2), f, 2, "smoke", {});
    writeSolverState(resumeStatePath(dir.path().string(), "smoke"), f, 2, "h");
    EXPECT_EQ(expandSequence(dir.file("smoke_####.vdb")).size(), 2u);
    EXPECT_EQ(expandSequence(dir.path().string()).size(), 2u);
}

}  // namespace
}  // namespace plume
