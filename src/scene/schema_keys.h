// The table of every scene key (scene/schema_keys.cpp), built once by
// sceneKeys() (scene/schema.h): nothing else calls it.
#pragma once

#include <vector>

#include "scene/schema.h"

namespace plume {

// In section order; within a section, aliases come before the keys they set.
std::vector<KeySpec> buildSceneKeys();
// The frame's sections' keys, [camera] to [output] (schema_view_keys.cpp).
std::vector<KeySpec> viewKeys();

}  // namespace plume
