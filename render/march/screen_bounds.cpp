#include "render/march/screen_bounds.h"

#include <algorithm>
#include <cmath>

namespace plume {

namespace {

// Pixels kept beyond the floor and ceiling of the corners' image. The floor
// and ceiling alone hold every pixel a ray through the boxes starts in; this
// pixel more keeps a pixel whose ray meets a box only by rounding (the
// projection and the ray's direction round differently, by far less than a
// pixel). The moving solids' pixels are traced at every moment over the
// shutter, so this margin is part of how a blurred frame looks: keep it.
constexpr float kScreenMargin = 1.0f;

}  // namespace

PixelRect screenBounds(const Camera& camera, int width, int height,
                       std::span<const WorldBox> boxes) {
    if (boxes.empty()) return {};
    float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
    for (const WorldBox& box : boxes) {
        const Vec3f a = box.lo, b = box.hi;
        for (int c = 0; c < 8; ++c) {
            const Vec3f corner(c & 1 ? b.x : a.x, c & 2 ? b.y : a.y, c & 4 ? b.z : a.z);
            float px = 0.0f, py = 0.0f;
            if (!camera.project(corner, px, py)) return {0, 0, width, height};
            x0 = std::min(x0, px), y0 = std::min(y0, py);
            x1 = std::max(x1, px), y1 = std::max(y1, py);
        }
    }
    // Clamped as floats: a corner just in front of the camera projects far
    // outside the image, past what an int holds.
    auto clampTo = [](float v, int size) { return int(std::clamp(v, 0.0f, float(size))); };
    return {clampTo(std::floor(x0) - kScreenMargin, width),
            clampTo(std::floor(y0) - kScreenMargin, height),
            clampTo(std::ceil(x1) + kScreenMargin, width),
            clampTo(std::ceil(y1) + kScreenMargin, height)};
}

}  // namespace plume
