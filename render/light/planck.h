// Blackbody light: Planck's law integrated against the CIE 1931 colour
// matching functions, to the working space's RGB (linear Rec. 709 unless
// output.color_space names another), in a table built once a space. This is the light a fire's hot gas gives off; the
// renderer scales it by render.emission.
#pragma once

#include "core/vec.h"
#include "render/output/color_space.h"
#include "scene/flame_units.h"

namespace plume {

// The working space the functions below answer in
// (render/output/color_space.h): the light is made from its XYZ in
// that space and brought into that space's gamut, not Rec. 709's. Set by the
// renderer before it traces; linear Rec. 709 until then.
void useBlackbodySpace(const WorkingSpace& space);

// Radiance of a blackbody at `kelvin`, relative to one at
// kReferenceKelvin (whose luminance is 1): 1000 K is a dim deep red, 1500 K
// orange, 6500 K near white and far brighter. Zero at or below 0 K; clamped
// to the table above kMaxKelvin.
constexpr float kReferenceKelvin = 1500.0f;
constexpr float kMaxKelvin = 12000.0f;
Vec3f blackbody(float kelvin);

// The colour alone, scaled so its largest channel is 1.
Vec3f blackbodyColor(float kelvin);

// A flame's light per metre of flame, per unit of render.emission, at
// `kelvin`: the blackbody's colour (luminance 1) times Stefan and Boltzmann's
// T^4, relative to 1500 K. This is Cycles' Principled Volume's blackbody
// emission, sigma T^4 / pi * 1e-6 per unit of Blackbody Intensity, over its
// value at 1500 K (0.0914): a flame of 1 with render.emission e is Blackbody
// Intensity kCyclesBlackbodyPerEmission * e in Blender (scene/flame_units.h).
Vec3f flameRadiance(float kelvin);

}  // namespace plume
