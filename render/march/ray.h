// Rays in grid units and their clip against an axis-aligned box, shared by the
// camera rays of the ray-marcher and the shadow rays of light transmittance.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/vec.h"

namespace plume {

// A ray and the reciprocal of its direction, which the box clip and the
// empty-space skipping divide by. An axis the ray runs parallel to has an
// infinite reciprocal.
struct Ray {
    Vec3f o, d, invD;

    Ray(Vec3f origin, Vec3f direction)
        : o(origin),
          d(direction),
          invD(reciprocal(direction.x), reciprocal(direction.y), reciprocal(direction.z)) {}

    // From another origin along the same direction (its reciprocal reused).
    Ray(Vec3f origin, const Ray& along) : o(origin), d(along.d), invD(along.invD) {}

    Vec3f at(float t) const { return o + d * t; }

  private:
    static float reciprocal(float v) {
        return v != 0.0f ? 1.0f / v : std::numeric_limits<float>::infinity();
    }
};

// The part [t0, t1] of the ray (from t = 0 on) inside the box [lo, hi]; false,
// with t0 >= t1, when it misses. A ray parallel to an axis misses unless its
// origin lies between the box's faces on that axis.
inline bool clipRay(const Ray& ray, Vec3f lo, Vec3f hi, float& t0, float& t1) {
    t0 = 0.0f;
    t1 = std::numeric_limits<float>::infinity();
    for (int a = 0; a < 3; ++a) {
        if (std::isinf(ray.invD[a])) {
            if (ray.o[a] < lo[a] || ray.o[a] > hi[a]) t0 = t1 = 0.0f;
            continue;
        }
        float ta = (lo[a] - ray.o[a]) * ray.invD[a], tb = (hi[a] - ray.o[a]) * ray.invD[a];
        t0 = std::max(t0, std::min(ta, tb));
        t1 = std::min(t1, std::max(ta, tb));
    }
    return t0 < t1;
}

}  // namespace plume
