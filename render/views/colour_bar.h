// The colour bar of a slice view: the map from lo (bottom) to hi (top) with
// its ends (and zero, for a signed field) labelled, a title with the units,
// and the plane, in the frame's top-right corner, in the wedge labels' font.
#pragma once

#include <string>

#include "core/image.h"
#include "render/views/colour_map.h"

namespace plume {

// "2.5", "0.002", "2E-05": short enough for the bar, exact enough to read.
std::string barNumber(float v);

// title: "PRESSURE, PA"; caption: under the bar ("SLICE Y = 1 M").
void drawColourBar(Image& image, ColourMap map, float lo, float hi, const std::string& title,
                   const std::string& caption);

}  // namespace plume
