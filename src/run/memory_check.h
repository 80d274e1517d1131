// Whether a scene fits this machine: the estimate of a bake plus render,
// summed from the types that own the buffers, against what this process may
// use (physical memory, what is available now, ulimit -v / -d); and a run
// that runs out of memory anyway said in words.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "scene/describe.h"
#include "scene/scene.h"

namespace plume {

// Peak bytes of a bake plus render of this scene: the solver, the renderer,
// what writing a frame's files adds, and the program itself; for the whole
// domain, or for a sparse solve's box of `cells`.
std::uint64_t estimateMemoryBytes(const Scene& scene);
// For a box of `cells`; a sparse solve's islands, when given, are what the
// solver holds of it.
std::uint64_t estimateMemoryBytes(const Scene& scene, Vec3i cells,
                                  const std::vector<Vec3i>* islands = nullptr);
// Both: at the start (the sparse solve's first box) and at most (the domain).
MemoryEstimate estimateMemory(const Scene& scene);

// What this process may use, with what bounds it in words: the least of
// physical memory ("this machine has 15.5 GiB"), the memory available now
// (/proc/meminfo's MemAvailable: "this machine has 3.1 GiB available") and
// the process's limits, RLIMIT_AS and RLIMIT_DATA ("this process may use
// 0.5 GiB (ulimit -v)"): a Slurm job's or a shell's limit makes an
// allocation fail where the machine has room.
struct MemoryAllowance {
    std::uint64_t bytes = 0;  // 0: unknown
    std::string what;
};
MemoryAllowance memoryAllowance();
// Each bound on its own, the most lasting first (machine, limits, available now).
std::vector<MemoryAllowance> memoryBounds();

// Throws InputError "PATH: error: scene needs about X GiB (NxNxN cells) but this
// machine has Y GiB; lower domain.resolution" when the estimate exceeds what
// this process may use, naming the first bound of memoryBounds it exceeds.
// Split across `processes` (a bake under mpirun), each process's part.
void checkMemory(const Scene& scene, int processes = 1);

// The RunError for a std::bad_alloc in frame `frame` (0: before the first)
// while `stage` ("simulating", "rendering", "writing ..."), in one line: what plume check estimates
// the scene needs, what this process may use, and what is kept (`kept`, e.g. "cache/x.resume holds
// frame 6; bake --resume goes on from there").
RunError outOfMemory(const Scene& scene, int frame, const std::string& stage,
                     const std::string& kept);

// Throws InputError "PATH: error: grid 'G' spans AxBxC voxels; rendering it
// needs about X GiB but this machine has Y GiB" when the dense box render-vdb
// makes of a VDB grid (voxels per axis, as VolumeBounds counts them), with the
// renderer's grids over it, cannot fit; a sparse grid with smoke far apart can
// span a box of terabytes.
void checkVolumeMemory(const Scene& scene, const std::string& path, const std::string& grid,
                       const std::int64_t voxels[3]);

}  // namespace plume
