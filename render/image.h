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

// A frame before tone mapping: the linear radiance of everything in front of
// the background (premultiplied: already weighted by its coverage), and the
// transmittance left for the background. Row 0 at the top.
struct LinearImage {
    int width = 0, height = 0;
    std::vector<float> rgb;            // width * height * 3
    std::vector<float> transmittance;  // width * height; 1: background only

    LinearImage() = default;
    LinearImage(int w, int h)
        : width(w), height(h), rgb(size_t(w) * h * 3, 0.0f), transmittance(size_t(w) * h, 1.0f) {}
};

}  // namespace plume
