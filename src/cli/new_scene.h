// `plume new KIND [-o FILE] [--size METRES]`: writes a starting point
// (scene/starter_scenes.h) to FILE, KIND.toml by default.
#pragma once

#include <string>

namespace plume {

struct NewSceneOptions {
    std::string kind;
    std::string output;  // "": KIND.toml
    float size = 0.0f;   // the domain's longest side, metres; 0: the kind's own
    bool quiet = false;
};

// Refuses (InputError, exit 2) an output that is already there: a scene a
// user wrote is never replaced by a starting point.
int runNewScene(const NewSceneOptions& options);

}  // namespace plume
