// The NanoVDB cache (--nvdb): one .nvdb file a frame holding the grids the
// VDB frame holds, for GPU renderers and game engines that load NanoVDB.
// NanoVDB stays behind this header and io/nvdb_private.h.
#pragma once

#include <string>

namespace plume {

// How a NanoVDB file stores its float grids (output.nvdb_codec); vector
// grids (velocity, color) and the sparks' points are stored as they are.
enum class NvdbCodec {
    Float,  // 32-bit, the values as the solver made them
    Fp16,   // 16 bits a voxel, quantized over each 8^3 leaf's range
    FpN,    // the fewest bits a leaf that keep every voxel within the tolerance
};

struct NvdbOptions {
    NvdbCodec codec = NvdbCodec::Float;
    float tolerance = 1e-3f;  // FpN's largest error a voxel, absolute
};

// "float", "fp16", "fpN" (the schema's names for output.nvdb_codec).
NvdbCodec nvdbCodec(const std::string& name);

}  // namespace plume
