// Pinhole camera: turns pixel centres into world-space rays.
#pragma once

#include "core/vec.h"
#include "scene/scene.h"

namespace plume {

class Camera {
  public:
    Camera(const CameraSettings& settings, int width, int height);

    Vec3f position() const { return position_; }
    // Unit direction through the centre of pixel (x, y); row 0 is the top.
    Vec3f direction(int x, int y) const { return direction(float(x) + 0.5f, float(y) + 0.5f); }
    // Through image point (px, py) in pixels from the top-left corner.
    Vec3f direction(float px, float py) const {
        float sx = px * pixelScale_ - halfWidth_;
        float sy = halfHeight_ - py * pixelScale_;
        return normalize(forward_ + right_ * sx + up_ * sy);
    }

  private:
    Vec3f position_, forward_, right_, up_;
    float halfWidth_ = 0, halfHeight_ = 0;  // image plane at distance 1
    float pixelScale_ = 0;                  // image-plane size of one pixel
};

// A camera on the -Y side of the box, Z up, looking at its centre from the
// nearest distance at which every corner is inside a 40 degree vertical view
// (plus a small margin), like vdb_render's automatic camera.
CameraSettings frameBox(Vec3f worldMin, Vec3f worldMax, float aspect);

}  // namespace plume
