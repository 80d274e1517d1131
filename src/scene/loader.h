// Scene files in: reads TOML, checks every key against the schema, applies
// --set overrides and fills in defaults. Errors are one line,
// "FILE:LINE:COL: error: ..." (or "--set ARG: error: ..."), thrown as InputError.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scene/scene.h"

namespace plume {

// Reads, validates and resolves a scene file; overrides are "dotted.key=value"
// from --set, applied on top of the file. A missing or unreadable file throws
// "PATH: error: cannot read scene file (No such file or directory)", and a
// path that names no regular file "PATH: error: cannot read scene file (a
// FIFO, not a regular file)".
Scene loadScene(const std::string& path, const std::vector<std::string>& overrides = {});

// The same for text already in memory; path names it in messages and gives
// Scene::name (its stem).
Scene parseScene(std::string_view text, const std::string& path,
                 const std::vector<std::string>& overrides = {});

}  // namespace plume
