#include "render/light/in_scattering.h"

#include <algorithm>
#include <iterator>

#include "core/parallel.h"
#include "render/light/light_transmittance.h"

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
                      std::vector<float>& scratch, SweepCarry carry,
                      const Environment* environment) {
    float weights[std::size(kSkyDirections)];
    std::span<const float> weighed;
    if (environment && !environment->constant()) {
        auto luminance = [](Vec3f c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; };
        const float mean = luminance(environment->mean());
        for (size_t d = 0; d < std::size(kSkyDirections); ++d)
            weights[d] = mean > 0.0f ? luminance(environment->meanAround(-kSkyDirections[d])) /
                                           (mean * float(std::size(kSkyDirections)))
                                     : 1.0f / float(std::size(kSkyDirections));
        weighed = weights;
    }
    sweepOpenness(grid, box, kSkyDirections, sigmaPerVoxel, kSkySpread, kSkyChannel, scratch,
                  carry, weighed);
}

namespace {

// Reads a cell's own channels: InScattering's weights for one cell centre.
struct CellValue {
    float operator()(const float* channel) const { return *channel; }
};

}  // namespace

void InScattering::fillSource(ShadingGrid& grid, const Box3i& box, const EmptySpace& emptySpace,
                              const ViewPoint& eye, Vec3f albedo, bool fireApart,
                              const float* color) const {
    if (box.empty()) return;
    const int fireLane = fireApart ? fireChannel_ : -1;
    parallelForRange(box.hi.z - box.lo.z, [&](int k0, int k1) {
        InScattering at = *this;  // holds the phases of the direction at hand
        if (fireLane >= 0) at.fireChannel_ = -1;
        for (int k = box.lo.z + k0; k < box.lo.z + k1; ++k)
            for (int j = box.lo.y; j < box.hi.y; ++j)
                for (int i = box.lo.x; i < box.hi.x; ++i) {
                    const Vec3f p(float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f);
                    if (emptySpace.empty(emptySpace.blockAt(p))) {
                        i |= EmptySpace::kBlockSize - 1;  // to the block's last cell
                        continue;
                    }
                    // The camera's direction through the cell centre.
                    at.startRay(eye.toward(p));
                    const size_t index = grid.cellIndex(i, j, k);
                    const float* cell = grid.cell(index);
                    const Vec3f tint =
                        color ? Vec3f(color[3 * index], color[3 * index + 1], color[3 * index + 2])
                              : albedo;
                    const Vec3f source = at(CellValue{}, cell, p) * tint;
                    float* out = grid.source(i, j, k);
                    out[0] = source.x;
                    out[1] = source.y;
                    out[2] = source.z;
                    out[3] = fireLane >= 0         ? cell[fireLane] * fire_->phase(p, at.d_, g_)
                             : grid.packsDensity() ? grid.densityCoefficient(index)
                                                   : 0.0f;
                }
    });
}

InScattering::InScattering(std::span<const LightSettings> directional,
                           std::span<const LightSettings> point, const RenderSettings& settings,
                           float albedo, const VolumeView& volume)
    : directional_(directional),
      point_(point),
      mode_(settings.multipleScattering),
      ambient_(settings.ambient),
      skyOn_(settings.ambient.x > 0.0f || settings.ambient.y > 0.0f || settings.ambient.z > 0.0f),
      albedo_(albedo),
      g_(settings.phase),
      dx_(volume.dx),
      octaveEnergy_(std::min(kLightOctaveEnergy, albedo)),
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
            energy *= octaveEnergy_;
            gi *= kOctavePhase;
        }
    }
}

void sharpenSource(ShadingGrid& grid, const Box3i& box, const EmptySpace& emptySpace,
                   std::vector<float>& copy) {
    if (box.empty()) return;
    const Vec3i n = grid.n();
    float* source = grid.source(0, 0, 0);
    copy.assign(source, source + size_t(n.x) * n.y * n.z * 4);
    // A neighbour outside the filled cells stands in with the cell's own value.
    auto filled = [&](int i, int j, int k) {
        return i >= box.lo.x && j >= box.lo.y && k >= box.lo.z && i < box.hi.x && j < box.hi.y &&
               k < box.hi.z &&
               !emptySpace.empty(
                   emptySpace.blockAt(Vec3f(float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f)));
    };
    constexpr int kSides[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    parallelForRange(box.hi.z - box.lo.z, [&](int k0, int k1) {
        for (int k = box.lo.z + k0; k < box.lo.z + k1; ++k)
            for (int j = box.lo.y; j < box.hi.y; ++j)
                for (int i = box.lo.x; i < box.hi.x; ++i) {
                    if (!filled(i, j, k)) continue;
                    const size_t c = grid.cellIndex(i, j, k) * 4;
                    float laplacian[3] = {0.0f, 0.0f, 0.0f};
                    for (const auto& side : kSides) {
                        const int a = i + side[0], b = j + side[1], e = k + side[2];
                        if (!filled(a, b, e)) continue;
                        const size_t q = grid.cellIndex(a, b, e) * 4;
                        for (int l = 0; l < 3; ++l) laplacian[l] += copy[q + l] - copy[c + l];
                    }
                    for (int l = 0; l < 3; ++l)
                        source[c + l] = copy[c + l] - laplacian[l] * (1.0f / 6.0f);
                }
    });
}

}  // namespace plume
