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

    // The image point (pixels from the top-left corner) a world point is
    // seen at; false when it lies behind the camera.
    bool project(Vec3f world, float& px, float& py) const {
        const Vec3f d = world - position_;
        const float depth = dot(d, forward_);
        if (depth <= 0.0f) return false;
        // right_ and up_ are unit: the image plane at distance 1 in their units.
        px = (dot(d, right_) / depth + halfWidth_) / pixelScale_;
        py = (halfHeight_ - dot(d, up_) / depth) / pixelScale_;
        return true;
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
