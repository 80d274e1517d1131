// The path tracer's random numbers: a PCG32 stream per pixel sample, seeded
// by a hash of the pixel, the sample and the frame (render/march/hash.h), so
// a frame's paths are the same for any thread count and any tiling.
#pragma once

#include <cstdint>
#include <cstring>

#include "render/march/hash.h"

namespace plume {

class PathRandom {
  public:
    PathRandom(uint32_t x, uint32_t y, uint32_t frame, uint32_t sample)
        : state_(uint64_t(hashPixel(x, y, frame, sample * 0x9e3779b9u + 0x2545f491u)) << 32 |
                 hashPixel(y, x, sample, frame ^ 0x68e31da4u)) {
        next();
    }

    // Uniform in [0, 1).
    float uniform() { return float(next() >> 8) * (1.0f / 16777216.0f); }

    // Exponential with mean 1: -log(1 - u) for the u uniform() would give,
    // as a free path is drawn. log of the integer 2^24 (1 - u) by its
    // exponent and atanh's series on the mantissa (to 1e-6), a third of
    // log1pf's time: a null-scattering step draws one at every tentative
    // collision.
    float exponential() {
        const uint32_t j = 16777216u - (next() >> 8);  // in [1, 2^24]
        const float x = float(j);
        uint32_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        const int e = int(bits >> 23) - 127;
        bits = (bits & 0x7fffffu) | 0x3f800000u;
        float m;
        std::memcpy(&m, &bits, sizeof m);
        const float z = (m - 1.0f) / (m + 1.0f), z2 = z * z;
        const float lnM =
            2.0f * z * (1.0f + z2 * (1.0f / 3.0f + z2 * (0.2f + z2 * (1.0f / 7.0f + z2 * (1.0f / 9.0f)))));
        constexpr float kLn2 = 0.69314718f;
        return float(24 - e) * kLn2 - lnM;
    }

  private:
    // O'Neill's PCG32 (XSH RR): 64-bit LCG state, 32-bit output.
    uint32_t next() {
        const uint64_t old = state_;
        state_ = old * 6364136223846793005ull + 1442695040888963407ull;
        const uint32_t xorshifted = uint32_t(((old >> 18u) ^ old) >> 27u);
        const uint32_t rot = uint32_t(old >> 59u);
        return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
    }

    uint64_t state_;
};

}  // namespace plume
