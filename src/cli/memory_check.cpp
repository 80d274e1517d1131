#include "cli/memory_check.h"

#include <unistd.h>

#include <string>

#include "core/error.h"
#include "core/level_set.h"
#include "render/renderer.h"
#include "scene/describe.h"
#include "sim/solver.h"

namespace plume {

std::uint64_t estimateMemoryBytes(const Scene& scene) {
    const Vec3i n = scene.domain.cells();
    const std::uint64_t cells = std::uint64_t(n.x) * n.y * n.z;
    // A bake's resume snapshot: the fields and the pressure warm start (double).
    // A fire's snapshot holds fuel, flame and expansion too.
    const std::uint64_t snapshot = Fields::bytesFor(n) + cells * sizeof(double) +
                                   (scene.burns() ? 3 * cells * sizeof(float) : 0);
    // Program, libraries, encoder buffers, thread stacks.
    constexpr std::uint64_t kBaseline = 64ull << 20;
    // Mesh shapes' dense SDFs (once loadSceneGeometry has made them).
    std::uint64_t levelSets = 0;
    for (const ShapeSettings& s : scene.emitters)
        if (s.levelSet) levelSets += s.levelSet->bytes();
    for (const ShapeSettings& s : scene.obstacles)
        if (s.levelSet) levelSets += s.levelSet->bytes();
    return Solver::bytesFor(scene) + Renderer::bytesFor(scene, n) +
           Renderer::writingBytesFor(scene) + snapshot + levelSets + kBaseline;
}

std::uint64_t machineMemoryBytes() {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) return 0;
    return std::uint64_t(pages) * std::uint64_t(pageSize);
}

void checkMemory(const Scene& scene) {
    const std::uint64_t need = estimateMemoryBytes(scene), have = machineMemoryBytes();
    if (have == 0 || need <= have) return;  // unknown machine size: let it try
    const Vec3i n = scene.domain.cells();
    throw InputError(scene.path + ": error: scene needs about " + formatGiB(need) + " GiB (" +
                     std::to_string(n.x) + "x" + std::to_string(n.y) + "x" + std::to_string(n.z) +
                     " cells) but this machine has " + formatGiB(have) +
                     " GiB; lower domain.resolution");
}

}  // namespace plume
