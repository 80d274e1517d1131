#include "render/in_scattering.h"

#include <array>

#include "core/parallel.h"

namespace plume {

namespace {

// The sky gets the same octaves, normalised: an open sky still gives exactly
// `ambient`, but light from it reaches deeper into the smoke.
constexpr std::array<float, kOctaves> kSkyOctaveWeight = [] {
    std::array<float, kOctaves> weight{};
    float energy = 1.0f, sum = 0.0f;
    for (int o = 0; o < kOctaves; ++o) {
        weight[o] = energy;
        sum += energy;
        energy *= kOctaveEnergy;
    }
    for (float& w : weight) w /= sum;
    return weight;
}();

}  // namespace

void skyLightFromDepth(ShadingGrid& grid, const Box3i& box) {
    parallelForRange(box.hi.z - box.lo.z, [&](int k0, int k1) {
        for (int k = box.lo.z + k0; k < box.lo.z + k1; ++k)
            for (int j = box.lo.y; j < box.hi.y; ++j)
                for (int i = box.lo.x; i < box.hi.x; ++i) {
                    float* sky = grid.cell(grid.cellIndex(i, j, k)) + kSkyChannel;
                    const OctaveTransmittance t(*sky);
                    float light = 0.0f;
                    for (int o = 0; o < kOctaves; ++o) light += kSkyOctaveWeight[o] * t.t[o];
                    *sky = light;
                }
    });
}

InScattering::InScattering(std::span<const LightSettings> directional,
                           std::span<const LightSettings> point, const RenderSettings& settings,
                           const VolumeView& volume)
    : directional_(directional),
      point_(point),
      ambient_(settings.ambient),
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
            energy *= kOctaveEnergy;
            gi *= kOctavePhase;
        }
    }
}

}  // namespace plume
