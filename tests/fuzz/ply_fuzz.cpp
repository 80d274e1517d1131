// libFuzzer target for the PLY points reader (io/point_file.h): any bytes
// must give points or a GeometryError, never a crash, a hang, or unbounded
// allocation. The scene fuzzer (scene_fuzz.cpp) reads no files, so the points
// files a scene names are fuzzed here:
//     cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DPLUME_FUZZ=ON
//     cmake --build build-fuzz --target ply_fuzz
//     mkdir -p build-fuzz/ply_corpus
//     build-fuzz/tests/ply_fuzz -max_total_time=600 build-fuzz/ply_corpus tests/fuzz/ply_seeds
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/point_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        const plume::PointFrame points = plume::parsePlyPoints(bytes, "fuzz.ply");
        // What it read is whole: one radius and velocity a point where given.
        if (!points.radius.empty() && points.radius.size() != points.position.size())
            __builtin_trap();
        if (!points.velocity.empty() && points.velocity.size() != points.position.size())
            __builtin_trap();
    } catch (const plume::GeometryError&) {
        // The expected answer to bad input.
    }
    return 0;
}
