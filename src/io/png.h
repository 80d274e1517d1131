// PNG frames: written by render, read back by encode.
#pragma once

#include <string>

#include "core/image.h"

namespace plume {

// Writes an 8-bit RGB or RGBA PNG (as image.channels says) to path through a
// temporary and a rename (core/atomic_file.h), so a reader never sees half a
// file. Throws RunError naming the path on failure.
void writePng(const std::string& path, const Image& image);

// The PNG file's bytes for an 8-bit RGB or RGBA image, in memory (the
// --report page embeds its thumbnails). Throws RunError on failure.
std::string encodePng(const Image& image);

// Reads an 8-bit PNG as RGB (an alpha channel is dropped: the colour is kept as
// stored). Throws RunError naming the path when it cannot be read or decoded.
Image readPng(const std::string& path);

}  // namespace plume
