// Starting points (`plume new KIND`): short, commented scenes that read as
// their names, at any size. Each is written at its own natural size; a
// different one scales it as a model is scaled under gravity (Froude's
// similarity): lengths by s, speeds by sqrt(s), rates by 1/sqrt(s), so the
// same shot plays out at the new size, slower when larger, as real smoke does.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace plume {

struct StarterScene {
    const char* kind;     // chimney, wispy, ...
    const char* summary;  // one line, for `plume new --help`
    float size;           // the domain's longest side as written, metres
};

// Every kind, in the order `plume new --help` lists them.
std::span<const StarterScene> starterScenes();

// The scene text of `kind` with its domain's longest side `size` metres (0:
// its natural size). `command` is the line that made it, for its header.
// Throws InputError for an unknown kind.
std::string starterSceneText(std::string_view kind, float size, const std::string& command);

}  // namespace plume
