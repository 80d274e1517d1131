// Signed distance to the emitter and obstacle shapes, in metres (negative inside).
#pragma once

#include <algorithm>
#include <cmath>

#include "core/vec.h"
#include "scene/scene.h"

namespace plume {

inline float signedDistance(Shape shape, Vec3f center, float radius, Vec3f size, Vec3f pWorld) {
    Vec3f d = pWorld - center;
    if (shape == Shape::Sphere) return length(d) - radius;
    Vec3f q{std::fabs(d.x) - 0.5f * size.x, std::fabs(d.y) - 0.5f * size.y,
            std::fabs(d.z) - 0.5f * size.z};
    Vec3f outside = vmax(q, Vec3f(0.0f));
    return length(outside) + std::min(std::max({q.x, q.y, q.z}), 0.0f);
}

// Half-extent of the shape's bounding box.
inline Vec3f shapeHalfExtent(Shape shape, float radius, Vec3f size) {
    return shape == Shape::Sphere ? Vec3f(radius) : size * 0.5f;
}

}  // namespace plume
