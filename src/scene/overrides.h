// --set overrides applied to the parsed TOML tree before validation, so an
// override meets exactly the checks a key in the file meets. Internal to
// src/scene: it includes toml++, which stays private to this module.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <string_view>
#include <vector>

namespace plume {

// The source name of the nodes an override adds: "--set ARG". Errors about
// those nodes print it instead of a file position.
std::string overrideSourceName(std::string_view arg);

// Applies each "dotted.key=value" to root in order. The key is checked here
// (unknown key, array index); the value later, with the file's keys.
void applyOverrides(toml::table& root, const std::vector<std::string>& overrides);

}  // namespace plume
