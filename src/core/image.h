// Image: a frame of 8-bit sRGB pixels, row 0 at the top, channels interleaved:
// RGB, or RGBA with straight (not premultiplied) alpha, as PNG stores it.
// The renderer makes images (render/output/tone_map.h); io writes them (io/png.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plume {

struct Image {
    int width = 0, height = 0;
    int channels = 3;             // 3: RGB, 4: RGBA
    std::vector<uint8_t> pixels;  // width * height * channels

    Image() = default;
    Image(int w, int h, int c = 3)
        : width(w), height(h), channels(c), pixels(size_t(w) * h * c, 0) {}
    uint8_t* pixel(int x, int y) { return &pixels[(size_t(y) * width + x) * channels]; }
    const uint8_t* pixel(int x, int y) const { return &pixels[(size_t(y) * width + x) * channels]; }
};

// A frame before tone mapping: the linear radiance of everything in front of
// the background (premultiplied: already weighted by its coverage), and the
// transmittance left for the background. Row 0 at the top.
struct LinearImage {
    int width = 0, height = 0;
    std::vector<float> rgb;            // width * height * 3
    std::vector<float> transmittance;  // width * height; 1: background only
    // What shows behind each pixel (width * height * 3) when it is not the
    // render.background gradient: a visible [environment]; empty otherwise.
    std::vector<float> background;

    LinearImage() = default;
    LinearImage(int w, int h)
        : width(w), height(h), rgb(size_t(w) * h * 3, 0.0f), transmittance(size_t(w) * h, 1.0f) {}
};

}  // namespace plume
