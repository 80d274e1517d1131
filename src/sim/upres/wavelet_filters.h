// Cook and DeRose's quadratic B-spline wavelet filters ("Wavelet Noise",
// 2005): what one level coarser of a row holds, down (the 32-tap analysis
// filter) and back up (the refinement filter). The noise tile subtracts it to
// keep only its finest band; upres's energy estimate to find the energy the
// base grid holds in its finest band.
#pragma once

#include <algorithm>
#include <cstddef>

namespace plume::wavelet {

inline constexpr float kDown[32] = {
    0.000334f,  -0.001528f, 0.000410f,  0.003545f,  -0.000938f, -0.008233f, 0.002172f,  0.019120f,
    -0.005040f, -0.044412f, 0.011655f,  0.103311f,  -0.025936f, -0.243780f, 0.033979f,  0.655340f,
    0.655340f,  0.033979f,  -0.243780f, -0.025936f, 0.103311f,  0.011655f,  -0.044412f, -0.005040f,
    0.019120f,  0.002172f,  -0.008233f, -0.000938f, 0.003546f,  0.000410f,  -0.001528f, 0.000334f};
inline constexpr float kUp[4] = {0.25f, 0.75f, 0.75f, 0.25f};

enum class Ends { Periodic, Held };

// The coarse part of a row of n values `stride` apart, into `to` (same
// layout). Beyond the ends the row repeats (Periodic; n even) or holds its end
// values (Held, as Mantaflow's Neumann filters). `half`: room for n / 2 + 1.
inline void coarsePart(const float* from, float* to, int n, std::size_t stride, float* half,
                       Ends ends) {
    const int h = std::max(1, n / 2);
    auto fine = [&](int k) {
        return ends == Ends::Periodic ? ((k % n) + n) % n : std::clamp(k, 0, n - 1);
    };
    auto coarse = [&](int k) {
        return ends == Ends::Periodic ? ((k % h) + h) % h : std::clamp(k, 0, h - 1);
    };
    for (int i = 0; i < h; ++i) {
        float sum = 0.0f;
        for (int k = 2 * i - 16; k < 2 * i + 16; ++k)
            sum += kDown[k - 2 * i + 16] * from[std::size_t(fine(k)) * stride];
        half[i] = sum;
    }
    for (int i = 0; i < n; ++i) {
        float sum = 0.0f;
        for (int k = i / 2 - 1; k < i / 2 + 3; ++k)
            sum += 0.5f * kUp[k - i / 2 + 1] * half[coarse(k)];
        to[std::size_t(i) * stride] = sum;
    }
}

}  // namespace plume::wavelet
