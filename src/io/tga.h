// TGA images: an uncompressed 32-bit BGRA file with its rows from the top,
// the sheet format some game pipelines still take (render --flipbook).
#pragma once

#include <string>

#include "core/image.h"

namespace plume {

// Writes an 8-bit RGBA image as an uncompressed TGA through a temporary and
// a rename (core/atomic_file.h). Throws RunError naming the path on failure.
void writeTga(const std::string& path, const Image& image);

}  // namespace plume
