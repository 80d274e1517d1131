// Smooth value noise, hashed from the integer lattice: the same value at the
// same point on every machine and thread count (no tables, no RNG state).
#pragma once

#include <cmath>
#include <cstdint>

#include "core/vec.h"

namespace plume {

namespace noise_detail {

inline uint32_t hash3(int x, int y, int z) {
    uint32_t h = uint32_t(x) * 0x8da6b343u ^ uint32_t(y) * 0xd8163841u ^ uint32_t(z) * 0xcb1ab31fu;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

inline float lattice(int x, int y, int z) {
    return float(hash3(x, y, z) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}
inline float smooth(float t) { return t * t * (3.0f - 2.0f * t); }

}  // namespace noise_detail

// Smooth value noise in [-1, 1].
inline float valueNoise(Vec3f p) {
    using noise_detail::lattice, noise_detail::smooth;
    float fx = std::floor(p.x), fy = std::floor(p.y), fz = std::floor(p.z);
    int x = int(fx), y = int(fy), z = int(fz);
    float tx = smooth(p.x - fx), ty = smooth(p.y - fy), tz = smooth(p.z - fz);
    auto lerp = [](float a, float b, float t) { return a + (b - a) * t; };
    float c00 = lerp(lattice(x, y, z), lattice(x + 1, y, z), tx);
    float c10 = lerp(lattice(x, y + 1, z), lattice(x + 1, y + 1, z), tx);
    float c01 = lerp(lattice(x, y, z + 1), lattice(x + 1, y, z + 1), tx);
    float c11 = lerp(lattice(x, y + 1, z + 1), lattice(x + 1, y + 1, z + 1), tx);
    return lerp(lerp(c00, c10, ty), lerp(c01, c11, ty), tz);
}

}  // namespace plume
