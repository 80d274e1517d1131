#include "io/tga.h"

#include <cstdint>
#include <string>

#include "core/atomic_file.h"
#include "core/error.h"

namespace plume {

void writeTga(const std::string& path, const Image& image) {
    if (image.channels != 4 || image.width > 65535 || image.height > 65535)
        throw RunError("cannot write '" + path + "': a TGA here is RGBA, at most 65535 px a side");
    // The 18-byte header (Truevision's TGA 2.0): no ID, no colour map, type 2
    // (uncompressed true colour), 32 bits a pixel, 8 of them alpha, rows from the top.
    std::string bytes(18, '\0');
    bytes[2] = 2;
    bytes[12] = char(image.width & 0xff), bytes[13] = char(image.width >> 8);
    bytes[14] = char(image.height & 0xff), bytes[15] = char(image.height >> 8);
    bytes[16] = 32;
    bytes[17] = 0x28;  // 8 alpha bits, origin at the top left
    bytes.reserve(bytes.size() + image.pixels.size());
    for (size_t i = 0; i < image.pixels.size(); i += 4) {
        bytes += char(image.pixels[i + 2]);
        bytes += char(image.pixels[i + 1]);
        bytes += char(image.pixels[i]);
        bytes += char(image.pixels[i + 3]);
    }
    writeFileAtomically(path, bytes);
}

}  // namespace plume
