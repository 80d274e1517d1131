// A deep image as data (OpenEXR's deep scanline form, as Nuke's deep nodes and
// oiiotool's deep ops take it): each pixel a list of samples front to back,
// each premultiplied RGBA over a span of depth [z, zBack] along the pixel's
// centre ray. The renderer makes it (render/output/deep_image.h), io writes it
// (io/deep_exr.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plume {

// One deep sample: premultiplied colour and alpha; z and zBack in metres
// from the camera along the pixel's ray (zBack == z: a hard surface).
struct DeepSample {
    float r = 0, g = 0, b = 0, a = 0, z = 0, zBack = 0;
};

struct DeepImage {
    int width = 0, height = 0;
    // Pixel i's samples are samples[offsets[i] .. offsets[i + 1]), front to
    // back; row 0 at the top. offsets has width * height + 1 entries.
    std::vector<uint32_t> offsets;
    std::vector<DeepSample> samples;
    uint32_t count(size_t pixel) const { return offsets[pixel + 1] - offsets[pixel]; }
};

}  // namespace plume
