// Whether a scene fits this machine: the estimate of a bake plus render,
// summed from the types that own the buffers, against physical memory.
#pragma once

#include <cstdint>
#include <vector>
#include <string>

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

// Physical memory of this machine (0 when unknown).
std::uint64_t machineMemoryBytes();

// Throws InputError "PATH: error: scene needs about X GiB (NxNxN cells) but this
// machine has Y GiB; lower domain.resolution" when the estimate exceeds the machine.
void checkMemory(const Scene& scene);

// Throws InputError "PATH: error: grid 'G' spans AxBxC voxels; rendering it
// needs about X GiB but this machine has Y GiB" when the dense box render-vdb
// makes of a VDB grid (voxels per axis, as VolumeBounds counts them), with the
// renderer's grids over it, cannot fit; a sparse grid with smoke far apart can
// span a box of terabytes.
void checkVolumeMemory(const Scene& scene, const std::string& path, const std::string& grid,
                       const std::int64_t voxels[3]);

}  // namespace plume
