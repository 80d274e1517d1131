// NanoVDB's Blosc file codec, which Debian's nanovdb_validate reads too.
#define NANOVDB_USE_BLOSC
#include <nanovdb/util/IO.h>
#include <nanovdb/util/OpenToNanoVDB.h>

#include <fstream>
#include <new>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"
#include "io/nvdb_private.h"

namespace plume {

namespace {

using Handle = nanovdb::GridHandle<nanovdb::HostBuffer>;

// A checksum over every byte, so nanovdb_validate checks the voxels too, not
// only the tree above them (NanoVDB's default).
constexpr auto kStats = nanovdb::StatsMode::Default;
constexpr auto kChecksum = nanovdb::ChecksumMode::Full;

Handle convertFloat(const openvdb::FloatGrid& grid, const NvdbOptions& opt) {
    switch (opt.codec) {
        case NvdbCodec::Fp16:
            return nanovdb::openToNanoVDB<nanovdb::HostBuffer, openvdb::FloatTree, nanovdb::Fp16>(
                grid, kStats, kChecksum);
        case NvdbCodec::FpN: {
            nanovdb::OpenToNanoVDB<float, nanovdb::FpN, nanovdb::AbsDiff> convert;
            convert.oracle() = nanovdb::AbsDiff(opt.tolerance);
            return convert(grid, kStats, kChecksum, 0);
        }
        case NvdbCodec::Float:
            break;
    }
    return nanovdb::openToNanoVDB(grid, kStats, kChecksum);
}

Handle convert(const openvdb::GridBase::Ptr& grid, const NvdbOptions& opt) {
    if (auto scalar = openvdb::GridBase::grid<openvdb::FloatGrid>(grid))
        return convertFloat(*scalar, opt);
    // Vectors, and the sparks' PointDataGrid (its attributes as blind data).
    return nanovdb::openToNanoVDB(grid, kStats, kChecksum);
}

}  // namespace

NvdbCodec nvdbCodec(const std::string& name) {
    if (name == "fp16") return NvdbCodec::Fp16;
    if (name == "fpN") return NvdbCodec::FpN;
    return NvdbCodec::Float;
}

void writeNvdbFile(const std::string& path, const openvdb::GridPtrVec& grids,
                   const NvdbOptions& opt) {
    std::vector<Handle> handles;
    try {
        for (const auto& grid : grids) handles.push_back(convert(grid, opt));
    } catch (const std::bad_alloc&) {
        throw;  // the frame loop names the frame and step
    } catch (const std::exception& e) {
        throw RunError("cannot write '" + path + "': " + e.what());
    }
    writeAtomically(path, [&](const std::string& tmp) {
        std::ofstream os(tmp, std::ios::binary | std::ios::trunc);
        if (!os) throw RunError("cannot write '" + path + "': cannot create " + tmp);
        nanovdb::io::writeGrids<nanovdb::HostBuffer, std::vector>(os, handles,
                                                                  nanovdb::io::Codec::BLOSC);
        os.flush();
        if (!os)
            throw RunError("cannot write '" + path + "': the write failed (is the disk full?)");
    });
}

}  // namespace plume
