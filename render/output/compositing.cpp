#include "render/output/compositing.h"

#include "core/parallel.h"
#include "core/vec.h"
#include "render/output/tone_map.h"
#include "render/output/color_space.h"

namespace plume {

namespace {

// The background seen behind row y: a gradient from bottom to top.
Vec3f background(const RenderSettings& s, int y, int height) {
    float f = 1.0f - (float(y) + 0.5f) / float(height);  // 0 at the bottom row
    return s.backgroundBottom + (s.backgroundTop - s.backgroundBottom) * f;
}

}  // namespace

void compositeRow(const LinearImage& frame, const RenderSettings& settings, int y, float* out) {
    const Vec3f behind = background(settings, y, frame.height);
    const bool own = !frame.background.empty();
    for (int x = 0; x < frame.width; ++x) {
        const size_t i = size_t(y) * frame.width + x;
        const float t = frame.transmittance[i];
        for (int c = 0; c < 3; ++c)
            out[x * 3 + c] =
                frame.rgb[i * 3 + c] + (own ? frame.background[i * 3 + c] : behind[c]) * t;
    }
}

std::vector<float> composite(const LinearImage& frame, const RenderSettings& settings) {
    // Rows in parallel: serial, this was a visible share of a one-frame render-vdb.
    std::vector<float> out(frame.rgb.size());
    parallelForRange(frame.height, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y)
            compositeRow(frame, settings, y, out.data() + size_t(y) * frame.width * 3);
    });
    return out;
}

std::vector<float> rgba(const LinearImage& frame, const RenderSettings& settings) {
    const size_t pixels = size_t(frame.width) * frame.height;
    std::vector<float> out(pixels * 4);
    const std::vector<float> over = settings.transparent ? frame.rgb : composite(frame, settings);
    parallelForRange(frame.height, [&](int y0, int y1) {
        for (size_t i = size_t(y0) * frame.width, end = size_t(y1) * frame.width; i < end; ++i) {
            for (int c = 0; c < 3; ++c) out[i * 4 + c] = over[i * 3 + c];
            out[i * 4 + 3] = settings.transparent ? 1.0f - frame.transmittance[i] : 1.0f;
        }
    });
    return out;
}

Image toneMapped(const LinearImage& frame, const RenderSettings& settings,
                 const WorkingSpace& space) {
    Image image(frame.width, frame.height);
    toneMapRows(settings.exposure, image, [&](int y, float* out) {
        compositeRow(frame, settings, y, out);
        space.toRec709Pixels(out, frame.width, 3);
    });
    return image;
}

}  // namespace plume
