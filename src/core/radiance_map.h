// A latitude-longitude map of the light around the scene ([environment]
// file): linear RGB, row 0 at the top (straight up), as the EXR and
// Radiance files hold it. io reads it; render/light/environment.h lights with it.
#pragma once

#include <vector>

namespace plume {

struct RadianceMap {
    int width = 0, height = 0;
    std::vector<float> rgb;  // width * height * 3, row 0 at the top
};

}  // namespace plume
