// The camera, pinhole or orthographic: turns pixel centres into world-space rays.
#pragma once

#include "core/vec.h"
#include "render/view_point.h"
#include "scene/scene.h"

namespace plume {

class Camera {
  public:
    Camera(const CameraSettings& settings, int width, int height);

    bool orthographic() const { return orthographic_; }
    Vec3f position() const { return position_; }
    Vec3f forward() const { return forward_; }
    Vec3f right() const { return right_; }  // the image's axes in the world, unit
    Vec3f up() const { return up_; }
    // Unit direction through the centre of pixel (x, y); row 0 is the top.
    Vec3f direction(int x, int y) const { return direction(float(x) + 0.5f, float(y) + 0.5f); }
    // Through image point (px, py) in pixels from the top-left corner.
    Vec3f direction(float px, float py) const {
        if (orthographic_) return forward_;
        float sx = px * pixelScale_ - halfWidth_;
        float sy = halfHeight_ - py * pixelScale_;
        return normalize(forward_ + right_ * sx + up_ * sy);
    }
    // Where the ray through image point (px, py) starts: the eye, or for an
    // orthographic camera its point on the image plane through the eye.
    Vec3f origin(int x, int y) const { return origin(float(x) + 0.5f, float(y) + 0.5f); }
    Vec3f origin(float px, float py) const {
        if (!orthographic_) return position_;
        return position_ + right_ * (px * pixelScale_ - halfWidth_) +
               up_ * (halfHeight_ - py * pixelScale_);
    }
    // Where the ray that meets world point p starts (the eye, perspective).
    Vec3f originToward(Vec3f p) const {
        if (!orthographic_) return position_;
        return p - forward_ * dot(p - position_, forward_);
    }
    // Metres one pixel spans at `distance` from the eye (orthographic: everywhere).
    float pixelSizeAt(float distance) const {
        return orthographic_ ? pixelScale_ : distance * pixelScale_;
    }
    // Where the camera sees from, in grid units (grid point 0 at `gridOrigin`,
    // `dx` metres a voxel).
    ViewPoint viewPoint(Vec3f gridOrigin, float dx) const {
        if (orthographic_) return ViewPoint::along(forward_);
        return ViewPoint((position_ - gridOrigin) / dx);
    }

    // The image point (pixels from the top-left corner) a world point is
    // seen at; false when it lies behind the camera.
    bool project(Vec3f world, float& px, float& py) const {
        const Vec3f d = world - position_;
        const float depth = dot(d, forward_);
        if (depth <= 0.0f) return false;
        if (orthographic_) {
            px = (dot(d, right_) + halfWidth_) / pixelScale_;
            py = (halfHeight_ - dot(d, up_)) / pixelScale_;
            return true;
        }
        // right_ and up_ are unit: the image plane at distance 1 in their units.
        px = (dot(d, right_) / depth + halfWidth_) / pixelScale_;
        py = (halfHeight_ - dot(d, up_) / depth) / pixelScale_;
        return true;
    }

  private:
    Vec3f position_, forward_, right_, up_;
    bool orthographic_ = false;
    // Perspective: the image plane at distance 1; orthographic: in metres.
    float halfWidth_ = 0, halfHeight_ = 0;
    float pixelScale_ = 0;  // image-plane size of one pixel
};

// A camera on the -Y side of the box, Z up, looking at its centre from the
// nearest distance at which every corner is inside a 40 degree vertical view
// (plus a small margin), like vdb_render's automatic camera.
CameraSettings frameBox(Vec3f worldMin, Vec3f worldMax, float aspect);

}  // namespace plume
