// A traced frame (LinearImage) over the background gradient of
// render.background_top/_bottom: linear RGB, premultiplied RGBA, or 8-bit sRGB.
// Every output puts the frame over the background through compositeRow.
#pragma once

#include <vector>

#include "core/image.h"
#include "scene/scene.h"


namespace plume {

struct WorkingSpace;

// Row y of the frame over the background, linear RGB: width * 3 floats to `out`.
void compositeRow(const LinearImage& frame, const RenderSettings& settings, int y, float* out);

// The whole frame over the background: linear RGB, row 0 at the top.
std::vector<float> composite(const LinearImage& frame, const RenderSettings& settings);
// Premultiplied linear RGBA: over the background (alpha 1), or with
// render.transparent only what is in front of it.
std::vector<float> rgba(const LinearImage& frame, const RenderSettings& settings);
// Over the background as 8-bit sRGB, a row at a time (no frame-sized composite),
// each row taken from the working space `space` back to linear Rec. 709 first.
Image toneMapped(const LinearImage& frame, const RenderSettings& settings,
                 const WorkingSpace& space);

}  // namespace plume
