// libFuzzer target for the scene loader: any bytes must give a Scene or an
// InputError, never a crash, a hang, or unbounded allocation.
//     cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DPLUME_FUZZ=ON
//     cmake --build build-fuzz --target scene_fuzz
//     mkdir -p build-fuzz/corpus build-fuzz/scene_seeds && cp scenes/*.toml build-fuzz/scene_seeds/
//     build-fuzz/tests/scene_fuzz -max_total_time=600 build-fuzz/corpus tests/fuzz/seeds
//     build-fuzz/scene_seeds
// (seed folders of scene files only: scenes/ also holds plume.png). Undefined
// behaviour halts the run (-fno-sanitize-recover), as a crash does.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/error.h"
#include "scene/describe.h"
#include "scene/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        plume::Scene scene = plume::parseScene(text, "fuzz.toml");
        // A scene that loads must also describe itself and reload to the same text.
        std::string described = plume::describeScene(scene);
        plume::Scene again = plume::parseScene(described, "fuzz.toml");
        if (plume::describeScene(again) != described) __builtin_trap();
    } catch (const plume::InputError&) {
        // The expected answer to bad input.
    }
    return 0;
}
