// Image: a frame of 8-bit sRGB pixels, row 0 at the top, RGB interleaved.
#pragma once

#include <cstdint>
#include <vector>

namespace plume {

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;  // width * height * 3

    Image() = default;
    Image(int w, int h) : width(w), height(h), rgb(size_t(w) * h * 3, 0) {}
    uint8_t* pixel(int x, int y) { return &rgb[(size_t(y) * width + x) * 3]; }
    const uint8_t* pixel(int x, int y) const { return &rgb[(size_t(y) * width + x) * 3]; }
};

}  // namespace plume
