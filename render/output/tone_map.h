// Tone mapping: linear radiance to 8-bit sRGB pixels.
#pragma once

#include <vector>

#include "core/image.h"
#include "core/parallel.h"
#include "core/vec.h"

namespace plume {

// Exposure, the ACES filmic curve (Stephen Hill's RRT+ODT fit), then the sRGB
// transfer function; each is applied per channel value in [0, 1] after the curve.
Vec3f filmic(Vec3f linear, float exposure);
float srgbEncode(float v);

// linear: RGB floats, row 0 at the top. A tiny hashed dither (+-0.5 of a level)
// before quantisation breaks up banding in smooth gradients; it depends only on
// the pixel, so it is identical between frames and runs.
void toneMap(const std::vector<float>& linear, float exposure, Image& image);
// The same, with the linear RGB of row y written by row(y, rgb) into a
// row-sized buffer: no frame-sized copy of a composite.
void toneMapRows(float exposure, Image& image, FunctionRef<void(int, float*)> row);

// Premultiplied linear RGBA (Renderer::rgba) to 8-bit sRGB RGBA with straight
// alpha, as PNG stores it: the colour is divided by alpha before the curve (a
// pixel half covered by white smoke is white at alpha 0.5, not grey), the same
// dither as toneMap; alpha is linear coverage, rounded. image has 4 channels.
void toneMapStraightAlpha(const std::vector<float>& rgba, float exposure, Image& image);

}  // namespace plume
