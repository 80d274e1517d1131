// In-scattered light: what a sample of smoke receives from the sky and from
// every light, seen through the optical depth toward it (read from the
// ShadingGrid), and scatters toward the camera.
//
// Multiple scattering is approximated after Wrenninge et al. (2013): octave i
// adds kOctaveEnergy^i of the light, seen through 1/2^i of the optical depth
// (T^(1/2^i)) with a phase kOctavePhase^i as anisotropic. Lets light into the
// smoke so thick puffs do not look like rock. Tuned against Cycles (100-400
// samples, 32 volume bounces; tests/blender/cycles_reference.py).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <span>
#include <vector>

#include "core/box.h"
#include "core/vec.h"
#include "core/volume.h"
#include "render/shading_grid.h"
#include "scene/scene.h"

namespace plume {

// The ShadingGrid's light channels: after density (channel 0) the sky, then
// one per distant light, then one per point light.
constexpr int kSkyChannel = 1;
constexpr int kFirstLightChannel = 2;

constexpr int kOctaves = 4;
// Energy: at most the depth's factor 1/2, Wrenninge's bound for energy
// conservation (0.7 gave lit smoke 2.5x its single scattering, +17% against
// Cycles; 0.5 gives 1.9x).
constexpr float kOctaveEnergy = 0.5f;
// Phase: the octaves keep most of the anisotropy (fitted to Cycles: 0.5 left
// the smoke 14% too bright overall, 0.7 the edges 11%, 0.9 the lit side 10%
// too dark).
constexpr float kOctavePhase = 0.8f;

// T^(1/2^i) for each octave i from an optical depth: one exp for the deepest
// octave, squared back up to T (multiplies, where a chain of square roots
// from T would stall every sample).
struct OctaveTransmittance {
    float t[4];
    explicit OctaveTransmittance(float depth) {
        static_assert(kOctaves == 4);
        t[3] = std::exp(-0.125f * depth);
        t[2] = t[3] * t[3];
        t[1] = t[2] * t[2];
        t[0] = t[1] * t[1];
    }
};

inline float henyeyGreenstein(float cosTheta, float g) {
    float d = 1.0f + g * g - 2.0f * g * cosTheta;
    return (1.0f - g * g) / (4.0f * std::numbers::pi_v<float> * d * std::sqrt(d));
}

// Replaces the sky's optical depth in every cell of `box` by the sky light
// itself: its octaves have fixed weights, so a sample needs one lookup and
// nothing more.
void skyLightFromDepth(ShadingGrid& grid, const Box3i& box);

// The lights of one frame, in the grid units of its volume. Holds the ray at
// hand, so each thread marches with its own copy.
class InScattering {
  public:
    // Refers to the light lists, which must outlive it.
    InScattering(std::span<const LightSettings> directional, std::span<const LightSettings> point,
                 const RenderSettings& settings, const VolumeView& volume);

    // The fire's light on the smoke (render/fire_light.h): channel `channel`
    // times `color`; channel -1 when nothing glows.
    void setFireLight(int channel, Vec3f color) {
        fireChannel_ = channel;
        fireColor_ = color;
    }

    // Starts a ray along unit direction d: a distant light's phase is the
    // same at every sample of it.
    void startRay(Vec3f d);

    // Light arriving at pGrid (w: the weights a RayMarcher reads the
    // ShadingGrid's data with), sent toward the camera; per unit albedo.
    template <typename Weights>
    Vec3f operator()(const Weights& w, const float* data, Vec3f pGrid) const {
        Vec3f inscatter = ambient_ * w(data + kSkyChannel);
        for (size_t l = 0; l < directional_.size(); ++l) {
            const OctaveTransmittance t(w(data + kFirstLightChannel + int(l)));
            const Vec3f* ph = &octavePhase_[l * kOctaves];
            for (int o = 0; o < kOctaves; ++o) inscatter += ph[o] * t.t[o];
        }
        const int firstPointChannel = kFirstLightChannel + int(directional_.size());
        for (size_t l = 0; l < point_.size(); ++l) {
            const LightSettings& light = point_[l];
            Vec3f toLight = pointGrid_[l] - pGrid;
            float dist2 = std::max(dot(toLight, toLight), 0.25f);
            float cosTheta = dot(toLight, d_) / std::sqrt(dist2);
            const OctaveTransmittance t(w(data + firstPointChannel + int(l)));
            float energy = 1.0f, gi = g_, sum = 0.0f;
            for (int o = 0; o < kOctaves; ++o) {
                sum += energy * henyeyGreenstein(cosTheta, gi) * t.t[o];
                energy *= kOctaveEnergy;
                gi *= kOctavePhase;
            }
            inscatter += light.color * (light.intensity * sum / (dist2 * dx_ * dx_));
        }
        if (fireChannel_ >= 0) inscatter += fireColor_ * w(data + fireChannel_);
        return inscatter;
    }

  private:
    std::span<const LightSettings> directional_, point_;
    std::vector<Vec3f> pointGrid_;  // point light positions in grid units
    Vec3f ambient_;
    float g_, dx_;
    int fireChannel_ = -1;
    Vec3f fireColor_{0.0f};
    Vec3f d_;                         // the ray's direction
    std::vector<Vec3f> octavePhase_;  // colour x phase per distant light and octave, this ray
};

}  // namespace plume
