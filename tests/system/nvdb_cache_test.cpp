// The NanoVDB cache (--nvdb) against real files: NanoVDB's own tools list and
// validate what the binary writes; its values, read by NanoVDB's reader, are
// compared voxel by voxel with the VDB frame read by OpenVDB; bad codec keys
// stop the run before anything is written.
#include "io/nvdb_cache.h"

#include <gtest/gtest.h>
// plume writes Blosc-compressed NanoVDB files (io/nvdb_private.h).
#define NANOVDB_USE_BLOSC
#include <nanovdb/util/IO.h>
#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "io/vdb_cache.h"
#include "support/run.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

const std::string kScenes = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/";

bool haveTool(const std::string& tool) {
    return test::capture("command -v " + tool + " 2>/dev/null").find(tool) != std::string::npos;
}

std::set<std::string> vdbGridNames(const std::string& path) {
    openvdb::initialize();
    openvdb::io::File file(path);
    file.open();
    std::set<std::string> names;
    for (auto it = file.beginName(); it != file.endName(); ++it) names.insert(it.gridName());
    return names;
}

openvdb::GridBase::Ptr vdbGrid(const std::string& path, const std::string& name) {
    openvdb::initialize();
    openvdb::io::File file(path);
    file.open();
    return file.readGrid(name);
}

// The golden fire with sparks, so the frame holds every kind of grid plume
// writes: fog volumes, the velocity vectors and the sparks' points.
const std::string kFireSparks =
    " --set sparks.rate=20000 --set sparks.flame_threshold=0.2 --set emitter[1].sparks=200";

TEST(NvdbCache, NanoVdbsOwnToolsListAndValidateEveryGridOfTheVdbFrame) {
    if (!haveTool("nanovdb_print") || !haveTool("nanovdb_validate")) {
        if (test::requireAll())
            FAIL() << "nanovdb_print/nanovdb_validate missing (libnanovdb-tools)";
        GTEST_SKIP() << "nanovdb_print/nanovdb_validate missing (libnanovdb-tools)";
    }
    test::TempDir dir("plume_nvdb");
    const std::string scene = kScenes + "fire.toml";
    const auto r = test::runPlume(
        "bake '" + scene + "' --frames 6-6 --vdb v --nvdb n" + kFireSparks, dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string nvdb = dir.file("n/fire_0006.nvdb"), vdb = dir.file("v/fire_0006.vdb");
    EXPECT_EQ(test::listDir(dir.path() / "n"), std::vector<std::string>{"fire_0006.nvdb"});

    // The VDB's sparks are in the file beside its frame; the NanoVDB keeps them in its one file.
    const std::string sparksVdb = dir.file("v/fire_0006_sparks.vdb");
    std::set<std::string> names = vdbGridNames(vdb);
    EXPECT_FALSE(names.count("sparks")) << "the frame's own VDB holds volumes only";
    for (const std::string& name : vdbGridNames(sparksVdb)) names.insert(name);
    for (const char* grid : {"density", "temperature", "velocity", "flame", "fuel", "sparks"})
        EXPECT_TRUE(names.count(grid)) << grid;

    // nanovdb_print lists each of the VDB's grids, by name, in its table.
    const std::string printed = test::capture("nanovdb_print '" + nvdb + "' 2>&1");
    EXPECT_NE(printed.find("contains the following " + std::to_string(names.size()) + " grids"),
              std::string::npos)
        << printed;
    for (const std::string& name : names)
        EXPECT_NE(printed.find(" " + name + " "), std::string::npos) << name << "\n" << printed;
    EXPECT_NE(printed.find("PNTDAT"), std::string::npos) << printed;  // the sparks, as points
    const auto validated = test::capture("nanovdb_validate '" + nvdb + "'; echo \"status $?\"");
    // (it says "failed" of a bad grid and still exits 0; plume's full checksum
    // lets it check every voxel)
    EXPECT_NE(validated.find("status 0"), std::string::npos) << validated;
    EXPECT_EQ(validated.find("failed"), std::string::npos) << validated;

    // Each grid placed in the world as the VDB's grid is.
    for (const nanovdb::io::GridMetaData& meta : nanovdb::io::readGridMetaData(nvdb)) {
        ASSERT_TRUE(names.count(meta.gridName)) << meta.gridName;
        const auto grid = vdbGrid(meta.gridName == "sparks" ? sparksVdb : vdb, meta.gridName);
        const openvdb::Vec3d voxel = grid->voxelSize();
        EXPECT_NEAR(meta.voxelSize[0], voxel[0], 1e-9) << meta.gridName;
        const auto handle = nanovdb::io::readGrid(nvdb, meta.gridName);
        const nanovdb::GridData* data = reinterpret_cast<const nanovdb::GridData*>(handle.data());
        const nanovdb::Vec3d nanoWorld = data->mMap.applyMap(nanovdb::Vec3d(3, -2, 5));
        const openvdb::Vec3d world = grid->indexToWorld(openvdb::Vec3d(3, -2, 5));
        for (int a = 0; a < 3; ++a) EXPECT_NEAR(nanoWorld[a], world[a], 1e-6) << meta.gridName;
    }

    // --nvdb alone writes the same file, and no VDB.
    ASSERT_EQ(
        test::runPlume("bake '" + scene + "' --frames 6-6 --nvdb alone" + kFireSparks, dir.path())
            .status,
        0);
    // (with the bake's resume state beside it, as a --vdb folder holds it)
    EXPECT_EQ(test::listDir(dir.path() / "alone"),
              (std::vector<std::string>{"fire.resume", "fire_0006.nvdb"}));
    EXPECT_EQ(test::capture("cmp '" + nvdb + "' '" + dir.file("alone/fire_0006.nvdb") + "'"), "");
}

// A 72-cell domain, most of it smoke: a wide soft blob, a warm core, a swirl.
Fields smokyFields() {
    Fields f({72, 72, 72}, 0.05f, {-1.8f, -1.8f, 0.0f});
    const Vec3f centre(36.0f, 36.0f, 36.0f);
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                const Vec3f d = Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) - centre;
                const float r2 = dot(d, d);
                f.density(i, j, k) =
                    r2 < 1300.0f ? 2.0f * std::exp(-r2 / 500.0f) * (1.1f + std::sin(0.4f * i)) : 0;
                f.temperature(i, j, k) = r2 < 900.0f ? 300.0f - 0.3f * r2 : 0.0f;
            }
    // A slow swirl about z inside the blob only: the velocity is a small part
    // of the frame, as in a plume of smoke in still air.
    for (int k = 0; k < f.u.nz(); ++k)
        for (int j = 0; j < f.u.ny(); ++j)
            for (int i = 0; i < f.u.nx(); ++i)
                if ((i - 36) * (i - 36) + (j - 36) * (j - 36) + (k - 36) * (k - 36) < 900)
                    f.u(i, j, k) = (j - 36) * 0.01f;
    return f;
}

struct Written {
    std::string vdb, nvdb;
};

// The frame as a float VDB (32-bit, the values as they are) and as NanoVDB.
Written writeBoth(const test::TempDir& dir, const std::string& codec, float tolerance) {
    CacheOptions opt;
    opt.halfFloats = false;
    opt.nvdbPath = dir.file("frame_" + codec + ".nvdb");
    opt.nvdb.codec = nvdbCodec(codec);
    opt.nvdb.tolerance = tolerance;
    const std::string vdb = dir.file("frame_" + codec + ".vdb");
    writeVdbFrame(vdb, smokyFields(), 1, "smoke", opt);
    return {vdb, opt.nvdbPath};
}

// The largest |NanoVDB - OpenVDB| over the VDB grid's active voxels (and
// their count), with the active voxels of the two grids the same.
template <typename NanoT>
float largestError(const Written& w, const std::string& name, float& range) {
    const auto grid = openvdb::gridPtrCast<openvdb::FloatGrid>(vdbGrid(w.vdb, name));
    const auto handle = nanovdb::io::readGrid(w.nvdb, name);
    const nanovdb::NanoGrid<NanoT>* nano = handle.template grid<NanoT>();
    EXPECT_NE(nano, nullptr) << name << " is not stored as the codec says";
    if (!nano) return INFINITY;
    EXPECT_EQ(nano->activeVoxelCount(), grid->activeVoxelCount()) << name;
    auto acc = nano->getAccessor();
    float worst = 0, lo = INFINITY, hi = -INFINITY;
    for (auto it = grid->cbeginValueOn(); it; ++it) {
        const openvdb::Coord c = it.getCoord();
        const nanovdb::Coord n(c.x(), c.y(), c.z());
        EXPECT_TRUE(acc.isActive(n)) << name;
        worst = std::max(worst, std::abs(acc.getValue(n) - *it));
        lo = std::min(lo, *it);
        hi = std::max(hi, *it);
    }
    range = hi - lo;
    return worst;
}

TEST(NvdbCache, Fp16IsSmallerThanTheFloatVdbWithinItsQuantizationBound) {
    test::TempDir dir("plume_nvdb");
    const Written w = writeBoth(dir, "fp16", 0);
    EXPECT_LT(fs::file_size(w.nvdb), fs::file_size(w.vdb));
    EXPECT_LT(fs::file_size(w.nvdb), fs::file_size(writeBoth(dir, "float", 0).nvdb));
    // 16 bits over each 8^3 leaf's range: within half a step of the grid's
    // whole range, (max - min) / 65535 / 2; here 1.5e-5 for density (0 to 4).
    for (const char* name : {"density", "temperature"}) {
        float range = 0;
        const float worst = largestError<nanovdb::Fp16>(w, name, range);
        EXPECT_GT(range, 0.0f);
        EXPECT_LE(worst, range / 65535.0f * 0.5f * 1.001f) << name << ", range " << range;
    }
    // The velocity stays 32-bit.
    const auto handle = nanovdb::io::readGrid(w.nvdb, "velocity");
    EXPECT_NE(handle.grid<nanovdb::Vec3f>(), nullptr);
}

TEST(NvdbCache, FpNKeepsEveryVoxelWithinItsTolerance) {
    test::TempDir dir("plume_nvdb");
    const float tolerance = 2e-3f;
    const Written w = writeBoth(dir, "fpN", tolerance);
    const Written exact = writeBoth(dir, "float", 0);
    EXPECT_LT(fs::file_size(w.nvdb), fs::file_size(exact.nvdb));
    for (const char* name : {"density", "temperature"}) {
        float range = 0;
        const float worst = largestError<nanovdb::FpN>(w, name, range);
        EXPECT_LE(worst, tolerance) << name;
        // It spends the tolerance rather than storing more bits than asked for.
        EXPECT_GT(worst, tolerance / 8) << name;
    }
    float range = 0;
    EXPECT_EQ(largestError<float>(exact, "density", range), 0.0f);
}

TEST(NvdbCache, BadCodecOrToleranceIsOneLineAtItsKeyAndNothingIsWritten) {
    test::TempDir dir("plume_nvdb");
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"nvdb_codec = \"half\"", "bad.toml:4:14: error: "},
        {"nvdb_tolerance = 0.0", "bad.toml:4:18: error: "},
        {"nvdb_tolerance = -0.01", "bad.toml:4:18: error: "},
    };
    for (const auto& [line, where] : bad) {
        std::ofstream(dir.file("bad.toml")) << "[domain]\nresolution = 16\n[output]\n"
                                            << line << "\n";
        const auto r = test::runPlume("bake bad.toml --nvdb n", dir.path());
        EXPECT_EQ(r.status, 2) << line;
        EXPECT_EQ(r.err.rfind(where, 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_FALSE(fs::exists(dir.path() / "n")) << line;
    }
    const auto r = test::runPlume(
        "bake '" + kScenes + "fire.toml' --nvdb n --set output.nvdb_codec=fp8", dir.path());
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("output.nvdb_codec"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir.path() / "n"));
}

}  // namespace
}  // namespace plume
