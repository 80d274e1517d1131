// vdb_point_count FILE GRID: prints the number of points in FILE's points
// grid GRID, read with OpenVDB's own API and none of plume's code: the
// Blender sparks test's count of the cache's sparks (run_test.sh addon_sparks).
// Exit 1 when the file or grid cannot be read, or the grid holds no points.
#include <openvdb/openvdb.h>
#include <openvdb/points/PointCount.h>
#include <openvdb/points/PointDataGrid.h>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: vdb_point_count FILE GRID\n");
        return 2;
    }
    try {
        openvdb::initialize();
        openvdb::io::File file(argv[1]);
        file.open();
        auto grid = openvdb::gridPtrCast<openvdb::points::PointDataGrid>(file.readGrid(argv[2]));
        if (!grid) {
            std::fprintf(stderr, "vdb_point_count: %s: grid '%s' is not points\n", argv[1],
                         argv[2]);
            return 1;
        }
        std::printf("%llu\n",
                    static_cast<unsigned long long>(openvdb::points::pointCount(grid->tree())));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vdb_point_count: %s: %s\n", argv[1], e.what());
        return 1;
    }
    return 0;
}
