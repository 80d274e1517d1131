#include "run/memory_check.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

#include "core/error.h"
#include "core/level_set.h"
#include "render/renderer.h"
#include "report/machine_info.h"
#include "run/loop_blend.h"
#include "scene/describe.h"
#include "sim/solver.h"
#include "sim/upres/upres.h"

namespace plume {

namespace {

// Program, libraries, encoder buffers, thread stacks.
constexpr std::uint64_t kBaseline = 64ull << 20;

// Grids index each axis with an int.
constexpr std::int64_t kMaxGridAxis = std::numeric_limits<int>::max();

}  // namespace

std::uint64_t estimateMemoryBytes(const Scene& scene) {
    return estimateMemoryBytes(scene, scene.domain.cells());
}

std::uint64_t estimateMemoryBytes(const Scene& scene, Vec3i n, const std::vector<Vec3i>* islands) {
    const std::uint64_t cells = std::uint64_t(n.x) * n.y * n.z;
    // A bake's resume state goes to its file straight from the fields; the
    // pressure warm start is copied out of the projection (double). The
    // frame's VDB trees take the place of the scratch, which the solver hands
    // back between frames.
    const std::uint64_t state = cells * sizeof(double);
    // Mesh shapes' dense SDFs (once loadSceneGeometry has made them).
    // A mesh sequence holds about ten times its first file's: three files'
    // SDFs, the pose's, and the displacement and velocity (three floats a
    // sample each) over the box of two (io/mesh_sequence).
    std::uint64_t levelSets = 0;
    auto add = [&](const ShapeSettings& s) {
        if (s.levelSet) levelSets += s.levelSet->bytes() * (s.sequence ? 10 : 1);
    };
    for (const ShapeSettings& s : scene.emitters) add(s);
    for (const ShapeSettings& s : scene.obstacles) add(s);
    const std::uint64_t solver =
        islands ? Solver::bytesFor(scene, *islands) : Solver::bytesFor(scene, n);
    // With upres the renderer draws the fine grid.
    const Vec3i drawn = scene.upres.on() ? times(n, scene.upres.factor) : n;
    return solver + Upres::bytesFor(scene, n, true) + Renderer::bytesFor(scene, drawn) +
           Renderer::writingBytesFor(scene) + LoopBlend::bytesFor(scene) + state + levelSets +
           kBaseline;
}

MemoryEstimate estimateMemory(const Scene& scene) {
    // At the start: the islands around the emitters, and the box around them
    // all for what is rendered and written.
    const std::vector<Vec3i> islands = Solver::startCells(scene);
    return {estimateMemoryBytes(scene, Solver::startBounds(scene), &islands),
            estimateMemoryBytes(scene), scene.solver.sparse};
}

namespace {

// /proc/meminfo's MemAvailable: what can be had without swapping (0 when unknown).
std::uint64_t availableMemoryBytes() {
    std::ifstream meminfo("/proc/meminfo");
    for (std::string key; meminfo >> key;) {
        std::uint64_t kiB = 0;
        meminfo >> kiB;
        if (key == "MemAvailable:") return kiB << 10;
        meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    return 0;
}

// "380 MiB", "1.4 GiB": the room a run had, in the unit that tells it apart.
std::string formatBytes(std::uint64_t bytes) {
    if (bytes >= (1ull << 30)) return formatGiB(bytes) + " GiB";
    return std::to_string((bytes + (1ull << 19)) >> 20) + " MiB";
}

// A process limit in bytes (0: none).
std::uint64_t processLimitBytes(int resource) {
    rlimit limit{};
    if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
    return std::uint64_t(limit.rlim_cur);
}

}  // namespace

std::vector<MemoryAllowance> memoryBounds() {
    std::vector<MemoryAllowance> bounds;
    auto add = [&](std::uint64_t bytes, const std::string& before, const std::string& after) {
        if (bytes != 0) bounds.push_back({bytes, before + " " + formatBytes(bytes) + after});
    };
    add(machineMemoryBytes(), "this machine has", "");
    add(processLimitBytes(RLIMIT_AS), "this process may use", " (ulimit -v)");
    add(processLimitBytes(RLIMIT_DATA), "this process may use", " (ulimit -d)");
    add(availableMemoryBytes(), "this machine has", " available");
    return bounds;
}

MemoryAllowance memoryAllowance() {
    MemoryAllowance least;
    for (const MemoryAllowance& bound : memoryBounds())
        if (least.bytes == 0 || bound.bytes < least.bytes) least = bound;
    return least;
}

void checkMemory(const Scene& scene, int processes) {
    const std::uint64_t need = estimateMemoryBytes(scene, Solver::splitPartCells(scene, processes));
    // The first bound exceeded is named, the most lasting first: a scene
    // larger than the machine is not helped by waiting for memory to be free.
    for (const MemoryAllowance& have : memoryBounds()) {
        if (need <= have.bytes) continue;
        const Vec3i n = Solver::splitPartCells(scene, processes);
        const std::string each =
            processes > 1 ? " a process (each of " + std::to_string(processes) + " holding " : " (";
        throw InputError(scene.path + ": error: scene needs about " + formatGiB(need) + " GiB" +
                         each + std::to_string(n.x) + "x" + std::to_string(n.y) + "x" +
                         std::to_string(n.z) + " cells) but " + have.what +
                         (processes > 1 ? "; split it across more processes, or lower "
                                          "domain.resolution"
                                        : "; lower domain.resolution"));
    }
}

RunError outOfMemory(const Scene& scene, int frame, const std::string& stage,
                     const std::string& kept) {
    const MemoryEstimate estimate = estimateMemory(scene);
    const MemoryAllowance have = memoryAllowance();
    std::string line = "out of memory " +
                       (frame > 0 ? "in frame " + std::to_string(frame) + " while " + stage
                                  : "while " + stage + ", before the first frame") +
                       ": plume check estimates about " + formatBytes(estimate.most) +
                       " for this scene";
    if (have.bytes != 0) line += " and " + have.what;
    if (!kept.empty()) line += "; " + kept;
    return RunError(line);
}

void checkVolumeMemory(const Scene& scene, const std::string& path, const std::string& grid,
                       const std::int64_t voxels[3]) {
    // In doubles: a box of 2^31 voxels a side overflows 64-bit byte counts.
    const double cells = double(voxels[0]) * double(voxels[1]) * double(voxels[2]);
    // readVdbVolume's dense grids: density, a temperature, a flame, and with
    // motion blur the velocity's three components (at most; a file may lack some).
    const int grids = 3 + (scene.render.motionBlur > 0.0f ? 3 : 0);
    double need = cells * grids * sizeof(float);
    const std::uint64_t have = machineMemoryBytes();
    bool fits = have == 0 || need <= double(have);  // unknown machine size: let it try
    // Then the renderer's light and glow grids over the same box, as for a bake.
    const bool indexable = std::max({voxels[0], voxels[1], voxels[2]}) <= kMaxGridAxis;
    if (fits && indexable) {
        need += double(
            Renderer::bytesFor(scene, Vec3i{int(voxels[0]), int(voxels[1]), int(voxels[2])}) +
            Renderer::writingBytesFor(scene) + LoopBlend::bytesFor(scene) + kBaseline);
        fits = have == 0 || need <= double(have);
    }
    if (fits && indexable) return;
    char needGiB[32];
    std::snprintf(needGiB, sizeof needGiB, "%.1f", need / double(1ull << 30));
    const std::string box = std::to_string(voxels[0]) + "x" + std::to_string(voxels[1]) + "x" +
                            std::to_string(voxels[2]) + " voxels";
    if (!indexable)
        throw InputError(path + ": error: grid '" + grid + "' spans " + box +
                         ", more than plume renders along one axis (" +
                         std::to_string(kMaxGridAxis) + ")");
    throw InputError(path + ": error: grid '" + grid + "' spans " + box +
                     "; rendering it needs about " + needGiB + " GiB but this machine has " +
                     formatGiB(have) + " GiB");
}

}  // namespace plume
