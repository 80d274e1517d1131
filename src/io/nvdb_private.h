// The NanoVDB writer behind the VDB cache's frame writer (vdb_cache_write.cpp):
// the grids built for the VDB frame, converted. io-private: OpenVDB types.
#pragma once

#include <openvdb/openvdb.h>

#include <string>

#include "io/nvdb_cache.h"

namespace plume {

// Converts every grid to NanoVDB (float grids by opt.codec; the names and
// index-to-world transforms as they are) and writes them, Blosc-compressed
// (NanoVDB's own file codec), to path through a temporary and
// a rename. Throws RunError naming path.
void writeNvdbFile(const std::string& path, const openvdb::GridPtrVec& grids,
                   const NvdbOptions& opt);

}  // namespace plume
