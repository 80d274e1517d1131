// How upres' two noise patterns cross-fade (Upres::stir): each lives one
// unit of phase (seconds times upres.speed), the second half a life behind
// the first, and is renewed (a new place in the tile, its drift from
// nothing) when its own phase passes a whole number. A pattern's weight is
// sin(pi x) of its phase's fraction x, so the second's is the first's
// cosine: the squares sum to one at every phase (two independent patterns
// keep one strength of stirring) and a pattern is at zero when it renews
// (no pop).
#pragma once

#include <array>
#include <cmath>

namespace plume {

// Pattern p's own phase at `phase`: renewed when its whole part changes.
inline double upresPatternPhase(double phase, int p) { return phase + 0.5 * p; }

// The two patterns' weights at `phase`.
inline std::array<float, 2> upresPatternWeights(double phase) {
    constexpr float kPi = 3.14159265358979f;
    std::array<float, 2> w;
    for (int p = 0; p < 2; ++p) {
        const double own = upresPatternPhase(phase, p);
        w[size_t(p)] = float(std::sin(kPi * (own - std::floor(own))));
    }
    return w;
}

}  // namespace plume
