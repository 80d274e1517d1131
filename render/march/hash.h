// Deterministic per-pixel random numbers: a hash of integers, never of a
// thread or the clock, so frames are identical for any thread count.
#pragma once

#include <cstdint>

namespace plume {

inline uint32_t hashPixel(uint32_t x, uint32_t y, uint32_t frame, uint32_t seed) {
    uint32_t h = seed ^ (x * 0x8da6b343u) ^ (y * 0xd8163841u) ^ (frame * 0xcb1ab31fu);
    // murmur3 finaliser: every input bit reaches every output bit
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

// Uniform in [0, 1).
inline float hashToUnit(uint32_t h) { return float(h >> 8) * (1.0f / 16777216.0f); }

}  // namespace plume
