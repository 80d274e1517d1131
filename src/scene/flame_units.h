// The numbers behind the fire keys' meaning that another renderer needs to
// draw a plume fire as plume does (README "Fire"). One home: the renderer
// reads them here, and `plume check --reference --reference-format json`
// prints them for the Blender add-on's fire material.
#pragma once

namespace plume {

// Density a flame of 1 adds to what the renderer sees (render.extinction
// times this is its extinction per metre): a thin gas, which the march finds
// where no smoke was made yet (its light is its own, render/march/ray_marcher.h)
// and which hardly dims what lies behind it.
constexpr float kFlameDensity = 0.02f;

// Cycles' Principled Volume gives sigma T^4 / pi * 1e-6 per unit of
// Blackbody Intensity, 0.0914 at 1500 K, where plume's flame of 1 at
// render.emission 1 gives luminance 1 a metre (render/light/planck.h): a flame of
// f at render.emission e is Blackbody Intensity kCyclesBlackbodyPerEmission
// * e * f in Blender.
constexpr float kCyclesBlackbodyPerEmission = 10.944f;

}  // namespace plume
