// Directions drawn for a path: Henyey-Greenstein about the way it travels,
// cosine-weighted about a surface's normal, uniform over the sphere. Shared
// by the path tracer and the light cache.
#pragma once

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/vec.h"

namespace plume {

// An orthonormal basis around unit n (Duff et al. 2017).
inline void orthonormalBasis(Vec3f n, Vec3f& t, Vec3f& b) {
    const float sign = std::copysign(1.0f, n.z);
    const float a = -1.0f / (sign + n.z), c = n.x * n.y * a;
    t = Vec3f(1.0f + sign * n.x * n.x * a, sign * c, -sign * n.x);
    b = Vec3f(c, sign + n.y * n.y * a, -n.y);
}

// A direction about the travel direction d whose density is
// henyeyGreenstein(dot(d, result), g) (render/light/in_scattering.h).
inline Vec3f sampleHenyeyGreenstein(Vec3f d, float g, float u1, float u2) {
    float cosTheta;
    if (std::abs(g) < 1e-3f) {
        cosTheta = 1.0f - 2.0f * u1;
    } else {
        const float s = (1.0f - g * g) / (1.0f - g + 2.0f * g * u1);
        cosTheta = (1.0f + g * g - s * s) / (2.0f * g);
    }
    cosTheta = std::clamp(cosTheta, -1.0f, 1.0f);
    const float sinTheta = std::sqrt(std::max(0.0f, 1.0f - cosTheta * cosTheta));
    const float phi = 2.0f * std::numbers::pi_v<float> * u2;
    Vec3f t, b;
    orthonormalBasis(d, t, b);
    return t * (sinTheta * std::cos(phi)) + b * (sinTheta * std::sin(phi)) + d * cosTheta;
}

// A cosine-weighted direction about unit normal n; density cos / pi.
inline Vec3f sampleCosine(Vec3f n, float u1, float u2) {
    const float r = std::sqrt(u1), phi = 2.0f * std::numbers::pi_v<float> * u2;
    Vec3f t, b;
    orthonormalBasis(n, t, b);
    return t * (r * std::cos(phi)) + b * (r * std::sin(phi)) +
           n * std::sqrt(std::max(0.0f, 1.0f - u1));
}

// Uniform over the unit sphere; density 1 / 4 pi.
inline Vec3f sampleSphere(float u1, float u2) {
    const float z = 1.0f - 2.0f * u1, r = std::sqrt(std::max(0.0f, 1.0f - z * z));
    const float phi = 2.0f * std::numbers::pi_v<float> * u2;
    return {r * std::cos(phi), r * std::sin(phi), z};
}

}  // namespace plume
