// readVdbBounds: how render-vdb frames a sequence before rendering it, so each
// file's voxels are read once. The box must be the one readVdbVolume renders,
// to the bit, or the camera (and every frame) would move.
#include <gtest/gtest.h>
#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>

#include <string>

#include "core/error.h"
#include "io/vdb_cache.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

void expectBoundsOfTheRenderedVolume(const std::string& path) {
    const VolumeBounds b = readVdbBounds(path);
    const LoadedVolume v = readVdbVolume(path);
    EXPECT_EQ(b.worldMin, v.view().worldMin());
    EXPECT_EQ(b.worldMax, v.view().worldMax());
}

// A density grid over box at voxel size 0.1, placed off the origin.
openvdb::FloatGrid::Ptr densityGrid(const openvdb::CoordBBox& box) {
    openvdb::initialize();
    auto grid = openvdb::FloatGrid::create(0.0f);
    grid->setName("density");
    auto xform = openvdb::math::Transform::createLinearTransform(0.1);
    xform->postTranslate(openvdb::Vec3d(-0.35, 0.2, 0.05));
    grid->setTransform(xform);
    grid->fill(box, 0.5f);
    grid->tree().voxelizeActiveTiles();
    return grid;
}

void writeWithoutStats(const std::string& path, openvdb::GridBase::Ptr grid) {
    openvdb::io::File file(path);
    file.setGridStatsMetadataEnabled(false);  // no recorded active box
    file.write({grid});
    file.close();
}

TEST(VdbBounds, PlumeFrameIsTheRenderedBox) {
    Fields f({12, 9, 14}, 0.05f, {-0.3f, -0.2f, 0.0f});
    for (int k = 3; k < 11; ++k)
        for (int j = 2; j < 7; ++j)
            for (int i = 4; i < 9; ++i) f.density(i, j, k) = 0.1f * float(i + j + k);
    test::TempDir dir("vdb_bounds");
    const std::string path = dir.file("smoke_0001.vdb");
    writeVdbFrame(path, f, 1, "smoke");
    expectBoundsOfTheRenderedVolume(path);
}

TEST(VdbBounds, EmptyFrameIsOneClearVoxel) {
    Fields f({8, 8, 8}, 0.1f, {1.0f, 2.0f, 3.0f});
    test::TempDir dir("vdb_bounds");
    const std::string path = dir.file("empty_0001.vdb");
    writeVdbFrame(path, f, 1, "empty");
    expectBoundsOfTheRenderedVolume(path);
}

TEST(VdbBounds, FileWithoutARecordedBoxIsReadForIt) {
    test::TempDir dir("vdb_bounds");
    const std::string path = dir.file("nostats.vdb");
    writeWithoutStats(
        path, densityGrid(openvdb::CoordBBox(openvdb::Coord(-3, 2, 5), openvdb::Coord(4, 9, 7))));
    expectBoundsOfTheRenderedVolume(path);
}

// The voxels are not read: a recorded box is taken as it is, even one that
// (here on purpose) disagrees with the voxels.
TEST(VdbBounds, TakesTheRecordedBoxWithoutReadingVoxels) {
    auto grid = densityGrid(openvdb::CoordBBox(openvdb::Coord(0), openvdb::Coord(3)));
    grid->insertMeta(openvdb::GridBase::META_FILE_BBOX_MIN,
                     openvdb::Vec3IMetadata(openvdb::Vec3i(10, 10, 10)));
    grid->insertMeta(openvdb::GridBase::META_FILE_BBOX_MAX,
                     openvdb::Vec3IMetadata(openvdb::Vec3i(11, 12, 13)));
    test::TempDir dir("vdb_bounds");
    const std::string path = dir.file("recorded.vdb");
    writeWithoutStats(path, grid);
    const VolumeBounds b = readVdbBounds(path);
    const Vec3f size = b.worldMax - b.worldMin;
    EXPECT_NEAR(size.x, 0.2f, 1e-6f);
    EXPECT_NEAR(size.y, 0.3f, 1e-6f);
    EXPECT_NEAR(size.z, 0.4f, 1e-6f);
}

TEST(VdbBounds, RefusesWhatReadingRefuses) {
    auto vel = openvdb::Vec3SGrid::create(openvdb::Vec3s(0.0f));
    vel->setName("density");
    test::TempDir dir("vdb_bounds");
    const std::string path = dir.file("vector.vdb");
    openvdb::io::File(path).write({vel});
    for (const char* grid : {"density", "smoke"}) {
        std::string bounds, volume;
        try {
            readVdbBounds(path, grid);
        } catch (const RunError& e) {
            bounds = e.what();
        }
        try {
            readVdbVolume(path, grid);
        } catch (const RunError& e) {
            volume = e.what();
        }
        EXPECT_FALSE(bounds.empty()) << grid;
        EXPECT_EQ(bounds, volume);
    }
}

}  // namespace
}  // namespace plume
