// Where world boxes fall on the image: the rectangle of pixels whose rays can
// meet them. The renderer asks it for the smoke's march box (a pixel outside
// marches nothing) and for the moving solids over the shutter (a pixel inside
// is traced at every moment).
#pragma once

#include <span>

#include "core/vec.h"
#include "render/camera.h"

namespace plume {

// Pixels [x0, x1) x [y0, y1).
struct PixelRect {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;

    bool contains(int x, int y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
};

// An axis-aligned box [lo, hi] in world metres.
struct WorldBox {
    Vec3f lo, hi;
};

// The pixels around the image of the boxes' corners, kScreenMargin to spare;
// every pixel when a corner lies behind the camera (its image is unbounded);
// none for no box. A ray through any point of a pixel (its centre or a spot
// inside it) that meets a box starts in this rectangle.
PixelRect screenBounds(const Camera& camera, int width, int height,
                       std::span<const WorldBox> boxes);
inline PixelRect screenBounds(const Camera& camera, int width, int height, const WorldBox& box) {
    return screenBounds(camera, width, height, std::span<const WorldBox>(&box, 1));
}

}  // namespace plume
