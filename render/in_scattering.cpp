#include "render/in_scattering.h"

#include "render/light_transmittance.h"

namespace plume {

namespace {

// The directions the sky's light travels in (the sky is where it comes
// from): the six axes. Six sweeps measured within 0.4 points of fourteen (the
// axes and the eight diagonals) against Cycles with the sky alone.
constexpr Vec3f kSkyDirections[] = {{0, 0, -1}, {0, 0, 1}, {1, 0, 0},
                                    {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
// How far the sky's light spreads sideways per slice (sweepDirectionalLight):
// the widest, as each sweep stands for a whole cone of the sky.
constexpr float kSkySpread = 0.25f;

}  // namespace

void sweepSkyOpenness(ShadingGrid& grid, const Box3i& box, float sigmaPerVoxel,
                      std::vector<float>& scratch) {
    sweepOpenness(grid, box, kSkyDirections, sigmaPerVoxel, kSkySpread, kSkyChannel, scratch);
}

InScattering::InScattering(std::span<const LightSettings> directional,
                           std::span<const LightSettings> point, const RenderSettings& settings,
                           float albedo, const VolumeView& volume)
    : directional_(directional),
      point_(point),
      ambient_(settings.ambient),
      albedo_(albedo),
      g_(settings.phase),
      dx_(volume.dx),
      octavePhase_(directional.size() * kOctaves) {
    for (const LightSettings& light : point_)
        pointGrid_.push_back((light.position - volume.origin) / volume.dx);
}

void InScattering::startRay(Vec3f d) {
    d_ = d;
    for (size_t l = 0; l < directional_.size(); ++l) {
        const LightSettings& light = directional_[l];
        float cosTheta = -dot(light.direction, d);
        float energy = 1.0f, gi = g_;
        for (int o = 0; o < kOctaves; ++o) {
            octavePhase_[l * kOctaves + o] =
                light.color * (light.intensity * energy * henyeyGreenstein(cosTheta, gi));
            energy *= kLightOctaveEnergy;
            gi *= kOctavePhase;
        }
    }
}

}  // namespace plume
