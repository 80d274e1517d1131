// Wavelet noise (Cook and DeRose 2005, "Wavelet Noise"): a periodic tile of
// noise with nothing below half its finest frequency, so each octave adds
// detail at its own scale and none at the scales the grid already holds.
// Its curl is the divergence-free turbulence that upres stirs the fine
// scalars with (Kim et al. 2008, "Wavelet Turbulence for Fluid Simulation").
//
// The tile is built once per process from a hash of each sample's index (no
// random state), so it is the same on every run and thread count.
#pragma once

#include <vector>

#include "core/vec.h"

namespace plume {

class WaveletNoise {
  public:
    static constexpr int kTile = 128;  // samples per side; the noise repeats after it

    // The process's one tile (built on first use, about a tenth of a second).
    static const WaveletNoise& instance();

    // The noise at p (in samples), evaluated with the quadratic B-spline basis.
    float value(Vec3f p) const;
    // The curl of the potential (N(p + a), N(p + b), N(p + c)), three far
    // apart places in the one tile: a swirl about a sample wide, unit-ish in
    // size, divergence-free.
    Vec3f curl(Vec3f p) const;

  private:
    WaveletNoise();
    // Gradient of the noise at p.
    Vec3f gradient(Vec3f p) const;

    std::vector<float> tile_;  // kTile^3, x fastest
};

}  // namespace plume
