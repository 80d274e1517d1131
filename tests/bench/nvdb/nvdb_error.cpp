// The largest error of a NanoVDB frame's float grids against the VDB frame
// they came from: `nvdb_error FRAME.vdb FRAME.nvdb` prints, per grid, the
// active voxels, the VDB's range and the largest |NanoVDB - OpenVDB|, each
// file read by its own library. Build (tests/bench/README.md, NanoVDB):
//   g++ -O2 -std=c++20 -DNANOVDB_USE_BLOSC tests/bench/nvdb/nvdb_error.cpp \
//       -o nvdb_error -lopenvdb -ltbb -lblosc -lImath-3_1
#include <nanovdb/util/IO.h>
#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

template <typename NanoT>
bool report(const openvdb::FloatGrid& grid, const nanovdb::GridHandle<>& handle) {
    const auto* nano = handle.grid<NanoT>();
    if (!nano) return false;
    auto acc = nano->getAccessor();
    double worst = 0, lo = INFINITY, hi = -INFINITY;
    for (auto it = grid.cbeginValueOn(); it; ++it) {
        const openvdb::Coord c = it.getCoord();
        worst = std::max(worst, double(std::abs(acc.getValue({c.x(), c.y(), c.z()}) - *it)));
        lo = std::min(lo, double(*it));
        hi = std::max(hi, double(*it));
    }
    std::printf("%-12s %9llu voxels  range %-10.4g to %-10.4g  largest error %.3g\n",
                grid.getName().c_str(), (unsigned long long)grid.activeVoxelCount(), lo, hi, worst);
    return true;
}

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: nvdb_error FRAME.vdb FRAME.nvdb\n");
        return 2;
    }
    openvdb::initialize();
    openvdb::io::File file(argv[1]);
    file.open();
    for (auto it = file.beginName(); it != file.endName(); ++it) {
        auto grid = openvdb::gridPtrCast<openvdb::FloatGrid>(file.readGrid(it.gridName()));
        if (!grid) continue;
        const auto handle = nanovdb::io::readGrid(argv[2], it.gridName());
        if (!report<float>(*grid, handle) && !report<nanovdb::Fp16>(*grid, handle) &&
            !report<nanovdb::FpN>(*grid, handle))
            std::printf("%-12s not a float grid in %s\n", it.gridName().c_str(), argv[2]);
    }
    return 0;
}
