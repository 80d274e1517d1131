// PNG frames: written by render, read back by encode.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/image.h"

namespace plume {

// Writes an 8-bit RGB or RGBA PNG (as image.channels says) to path through a
// temporary and a rename (core/atomic_file.h), so a reader never sees half a
// file. Throws RunError naming the path on failure.
void writePng(const std::string& path, const Image& image);

// Writes a 16-bit RGB PNG of data, not colour (motion vectors): `values`
// width * height * 3, row 0 at the top; no colour-space chunk. As writePng.
void writePng16(const std::string& path, int width, int height,
                const std::vector<std::uint16_t>& values);

// The PNG file's bytes for an 8-bit RGB or RGBA image, in memory (the
// --report page embeds its thumbnails). Throws RunError on failure.
std::string encodePng(const Image& image);

// Reads an 8-bit PNG as RGB (an alpha channel is dropped: the colour is kept as
// stored). Throws RunError naming the path when it cannot be read or decoded.
Image readPng(const std::string& path);

}  // namespace plume
