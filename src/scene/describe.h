// Scene files out: the resolved scene as TOML (`plume check`), the scene-file
// reference (README, `plume check --reference`) and the memory estimate.
#pragma once

#include <cstdint>
#include <string>

#include "scene/scene.h"

namespace plume {

// The resolved scene as valid TOML with every key, so it reads back to the
// same scene; grid size, cell count and memory estimate appear as comments.
std::string describeScene(const Scene& scene);

// Peak bytes of a bake plus render of this scene (a deliberate over-estimate).
std::uint64_t estimateMemoryBytes(const Scene& scene);

// Physical memory of this machine.
std::uint64_t machineMemoryBytes();

// Throws InputError "PATH: error: scene needs about X GiB (NxNxN cells) but this
// machine has Y GiB; lower domain.resolution" when the estimate exceeds the machine.
void checkMemory(const Scene& scene);

// Every key with type, default, range or choices and meaning, one Markdown
// table per section.
std::string sceneReference();

}  // namespace plume
