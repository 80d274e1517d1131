#include "render/camera.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume {

namespace {
constexpr float kDegrees = std::numbers::pi_v<float> / 180.0f;
}  // namespace

Camera::Camera(const CameraSettings& settings, int width, int height)
    : position_(settings.position), orthographic_(settings.orthographic()) {
    forward_ = normalize(settings.lookAt - settings.position);
    right_ = normalize(cross(forward_, settings.up));
    // Looking along `up`: any perpendicular will do rather than a NaN image.
    if (length(right_) < 0.5f)
        right_ = normalize(
            cross(forward_, std::fabs(forward_.x) < 0.9f ? Vec3f(1, 0, 0) : Vec3f(0, 1, 0)));
    up_ = cross(right_, forward_);
    const float aspect = float(width) / float(height);
    halfHeight_ = orthographic_ ? 0.5f * settings.orthoWidth / aspect : settings.halfHeight(aspect);
    halfWidth_ =
        orthographic_ ? 0.5f * settings.orthoWidth : halfHeight_ * float(width) / float(height);
    pixelScale_ = 2.0f * halfHeight_ / float(height);
}

CameraSettings frameBox(Vec3f worldMin, Vec3f worldMax, float aspect) {
    constexpr float kMargin = 1.08f;
    CameraSettings camera;
    Vec3f centre = (worldMin + worldMax) * 0.5f;
    Vec3f half = (worldMax - worldMin) * 0.5f;
    float tanV = std::tan(0.5f * camera.fov * kDegrees);
    float tanH = tanV * aspect;
    // Camera at centre - (0, distance, 0) looking +Y: a corner at offset
    // (ox, oy, oz) sits at depth distance + oy and must satisfy |ox| <= depth tanH.
    float distance = 0.0f;
    for (float oy : {-half.y, half.y}) {
        distance = std::max(distance, half.x * kMargin / tanH - oy);
        distance = std::max(distance, half.z * kMargin / tanV - oy);
    }
    distance = std::max(distance, half.y + 1e-3f);
    camera.position = centre - Vec3f(0, distance, 0);
    camera.lookAt = centre;
    camera.up = {0, 0, 1};
    camera.given = true;
    return camera;
}

}  // namespace plume
