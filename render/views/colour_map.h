// Colour maps of the slice views (render.view): viridis (perceptually
// uniform, readable in grey and by the colour-blind) for fields that are
// never negative, and Moreland's cool-warm, a diverging map whose middle is
// a light grey, for signed fields centred on zero.
#pragma once

#include "core/vec.h"

namespace plume {

enum class ColourMap { Viridis, CoolWarm };

// The map's sRGB colour (0..1 per channel) at t in [0, 1], clamped; for
// CoolWarm, t = 0.5 is zero.
Vec3f colourAt(ColourMap map, float t);

}  // namespace plume
