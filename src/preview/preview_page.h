// The page plume preview serves: it plays the newest preview's frames as they
// arrive, charts each frame's times, and shows a scene error in its place.
#pragma once

#include <string>

namespace plume {

std::string previewPage();

}  // namespace plume
