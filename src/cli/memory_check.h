// Whether a scene fits this machine: the estimate of a bake plus render,
// summed from the types that own the buffers, against physical memory.
#pragma once

#include <cstdint>

#include "scene/scene.h"

namespace plume {

// Peak bytes of a bake plus render of this scene: the solver, the renderer,
// the resume snapshot a bake writes each frame, and the program itself.
std::uint64_t estimateMemoryBytes(const Scene& scene);

// Physical memory of this machine (0 when unknown).
std::uint64_t machineMemoryBytes();

// Throws InputError "PATH: error: scene needs about X GiB (NxNxN cells) but this
// machine has Y GiB; lower domain.resolution" when the estimate exceeds the machine.
void checkMemory(const Scene& scene);

}  // namespace plume
