// Scene files out: the resolved scene as TOML (`plume check`), the scene-file
// reference (README, `plume check --reference`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "scene/scene.h"

namespace plume {

// The resolved scene as valid TOML with every key, so it reads back to the
// same scene; grid size, cell count and (when given) the memory estimate
// appear as comments.
std::string describeScene(const Scene& scene, std::optional<std::uint64_t> memoryBytes = {});

// Bytes in GiB with one decimal ("1.5").
std::string formatGiB(std::uint64_t bytes);

// Every key with type, default, range or choices and meaning, one Markdown
// table per section.
std::string sceneReference();

}  // namespace plume
