// The [environment] file: a latitude-longitude OpenEXR or Radiance .hdr,
// read once after the scene loads (the scene module cannot depend on io).
#pragma once

#include <string>

#include "core/radiance_map.h"
#include "scene/scene.h"

namespace plume {

// Reads environment.file into environment.map when given; a bad file is an
// InputError at its key: "SCENE:LINE:COL: error: environment.file: ...".
void loadEnvironment(Scene& scene);

// An .exr (its R, G and B channels, half or float; a grey file's Y) or a
// Radiance .hdr. Throws RunError saying what is wrong with the file.
RadianceMap readRadianceMap(const std::string& path);

}  // namespace plume
