// Scene files out: the resolved scene as TOML (`plume check`), the scene-file
// reference (README, `plume check --reference`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "scene/scene.h"

namespace plume {

// What a bake plus render of a scene needs, in bytes: at its start and at
// most. They differ for a sparse solve, whose boxes start around the emitters
// and grow with the smoke up to the whole domain.
struct MemoryEstimate {
    std::uint64_t start = 0, most = 0;
    bool sparse = false;
};

// The resolved scene as valid TOML with every key, so it reads back to the
// same scene; grid size, cell count and (when given) the memory estimate
// appear as comments.
std::string describeScene(const Scene& scene, std::optional<MemoryEstimate> memory = {});

// Bytes in GiB with one decimal ("1.5").
std::string formatGiB(std::uint64_t bytes);

// Every key with type, default, range or choices and meaning, one Markdown
// table per section.
std::string sceneReference();

}  // namespace plume
