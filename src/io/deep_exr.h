// Deep OpenEXR frames (--deep): a deep scanline file a frame, every pixel a
// list of samples with channels R, G, B, A (premultiplied), Z and ZBack as
// 32-bit floats (core/deep_image.h). The only file that includes
// OpenEXR's deep API.
#pragma once

#include <array>
#include <string>

#include "core/deep_image.h"

namespace plume {

// Writes `image` as a ZIPS-compressed deep scanline EXR through a temporary
// and a rename (core/atomic_file.h); the header names plume as "software",
// carries the frame number, the chromaticities of the samples' colour space
// (red, green, blue, white: x, y each; output.color_space) and the frame rate
// (left out when fps is 0). Throws RunError naming the path on failure.
void writeDeepExr(const std::string& path, const DeepImage& image, int frame, double fps,
                  const std::array<float, 8>& chromaticities);

}  // namespace plume
