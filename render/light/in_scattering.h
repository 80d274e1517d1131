// In-scattered light: what a sample of smoke receives from the sky and from
// every light, seen through the optical depth toward it (read from the
// ShadingGrid), and scatters toward the camera.
//
// Multiple scattering of a light is approximated after Wrenninge et al.
// (2013): octave i adds kLightOctaveEnergy^i of the light, seen through
// kLightOctaveDepth^i of the optical depth with a phase kOctavePhase^i as
// anisotropic; the octaves after the first are weighted by how enclosed in
// smoke the sample is (multipleScattering), and the first gets back part of
// what the smoke around scatters (kLightReturn). The sky's light comes from
// every direction, through the smoke's openness (skyLight). Fitted to Cycles
// (100 to 1600 samples, 32 volume bounces; tests/blender/cycles_reference.py).
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
#include "render/light/environment.h"
#include "render/light/fire_light.h"
#include "render/light/light_cache.h"
#include "render/light/light_transmittance.h"
#include "render/march/empty_space.h"
#include "render/march/shading_grid.h"
#include "render/view_point.h"
#include "scene/scene.h"

namespace plume {

// The ShadingGrid's light channels: after density (channel 0) the sky, then
// one per distant light, then one per point light.
constexpr int kSkyChannel = 1;
constexpr int kFirstLightChannel = 2;

constexpr int kOctaves = 4;
// Energy: each further octave keeps 0.9 of the light, as much as a
// scattering keeps at the default albedo. Wrenninge's bound (energy at most
// the depth factor) holds for a sample deep inside smoke; the enclosure
// below takes away what escapes near its surface. Fitted to Cycles (sun
// alone, single scattering is only a quarter of Cycles' light in the default
// scene; 0.85 left the lit side 8% too dark, 0.5 the whole body 30%).
constexpr float kLightOctaveEnergy = 0.9f;
// Depth: octave i sees kOctaveDepth^i of the optical depth toward the light
// (two exps for the four octaves). Wrenninge's 1/2 carried too much light
// into the shadows (stem 20-28% too bright against Cycles).
constexpr float kLightOctaveDepth = 0.70710678f;
// Phase: the octaves keep most of the anisotropy (0.75 and 0.85 measured
// within half a point of 0.8 against Cycles).
constexpr float kOctavePhase = 0.8f;
// Enclosure: light scattered more than once has to meet smoke again, so its
// octaves are weighted by min(1, kEnclosureScale (1 - openness))^3, where the
// openness is the sky's transmittance averaged over every direction (1 in
// thin wisps, about 1/2 at the surface of a thick puff, 0 deep inside). The
// steep power darkens the rims of puffs, as Cycles does (power 1 left the
// edges 12-20% too bright, 2 and 4 measured within a point of 3); the scale
// sets the overall level (1.1: 8% too dark, 1.3: 6% too bright).
constexpr float kEnclosureScale = 1.2f;

inline float multipleScattering(float openness) {
    const float e = std::clamp(kEnclosureScale * (1.0f - openness), 0.0f, 1.0f);
    return e * e * e;
}

// Light the smoke around a sample sends back into it: what hides the sky
// (or a sun) from the sample is not dark, it scatters the light it receives
// itself. A sample receives S = openness + kReturn albedo (1 - openness) S
// from a uniform sky, so S = openness / (1 - kReturn albedo (1 - openness)).
// kReturn is how much of the sample's own light the surrounding smoke sends
// back: a little less than all of it, as that smoke lies deeper in (1.0 left
// the sky 4% too bright against Cycles, sky alone, and the stem under the
// puffs 9%; 0.98: right on average, stem +4%; 0.9: 13% too dark).
constexpr float kSkyReturn = 0.98f;
inline float smokeReturn(float openness, float albedo, float kReturn) {
    return 1.0f / std::max(1.0f - kReturn * albedo * (1.0f - openness), 1e-6f);
}

// Light from a uniform sky of unit radiance at a sample of the given
// openness. Against Cycles (sky alone) 6.7%, where sweeping only straight
// down with 0.02 of the depth was 33% off.
inline float skyLight(float openness, float albedo) {
    return openness * smokeReturn(openness, albedo, kSkyReturn);
}

// A sun's (or a lamp's) single scattering gets the same return from the lit
// smoke around the sample, weaker: much of that smoke faces away from the
// light, and the octaves already carry the light scattered deep inside. It
// brightens the thin smoke at the rims of lit puffs, where the octaves'
// enclosure is near 0 (suns alone against Cycles: 12.7% and 4.7% too dark
// without it, edges 11% too dark; 0.3: 12.7% and right on average, edges 4%
// too dark; 0.6: 10% too bright).
constexpr float kLightReturn = 0.3f;

// T^(kLightOctaveDepth^i) for each octave i from an optical depth: exps for
// the two shallowest octaves, squared for the two deeper ones.
struct LightOctaves {
    float t[4];
    explicit LightOctaves(float depth) {
        static_assert(kOctaves == 4);
        t[3] = std::exp(-0.35355339f * depth);  // kLightOctaveDepth^3
        t[2] = std::exp(-0.5f * depth);         // kLightOctaveDepth^2
        t[1] = t[3] * t[3];
        t[0] = t[2] * t[2];
    }
};

inline float henyeyGreenstein(float cosTheta, float g) {
    float d = 1.0f + g * g - 2.0f * g * cosTheta;
    return (1.0f - g * g) / (4.0f * std::numbers::pi_v<float> * d * std::sqrt(d));
}

// The sky's openness in channel kSkyChannel of every cell of `box`: the
// smoke's transmittance toward the six axis directions, each swept with its
// true optical depth, averaged. sigmaPerVoxel as for sweepDirectionalLight.
// With an environment map, each direction is weighed by the map's light
// from the sixth of the sky it stands for, over the map's mean: 1 in open
// air still, the sky's light render.ambient (the map's mean) times it.
void sweepSkyOpenness(ShadingGrid& grid, const Box3i& box, float sigmaPerVoxel,
                      std::vector<float>& scratch, SweepCarry carry = SweepCarry::Depth,
                      const Environment* environment = nullptr);

// The lights of one frame, in the grid units of its volume. Holds the ray at
// hand, so each thread marches with its own copy.
class InScattering {
  public:
    // The point lights' positions in grid units.
    const std::vector<Vec3f>& pointGrid() const { return pointGrid_; }

    // Refers to the light lists, which must outlive it.
    // albedo: the smoke's, averaged over colour (the sky's light inside it).
    InScattering(std::span<const LightSettings> directional, std::span<const LightSettings> point,
                 const RenderSettings& settings, float albedo, const VolumeView& volume);

    // The fire's light on the smoke (render/light/fire_light.h): channel `channel`
    // times `color`, scattered by the smoke's phase toward `fire`'s lamps;
    // channel -1 when nothing glows.
    void setFireLight(int channel, Vec3f color, const FireLight* fire) {
        fireChannel_ = channel;
        fireColor_ = color;
        fire_ = fire;
    }

    // render.multiple_scattering = "transport": the light of two and more
    // bounces from `cache` (render/light/light_cache.h), on exact single
    // scattering.
    void setLightCache(const LightCache* cache) { cache_ = cache; }
    // Not with the octaves: the sky's light, already scattered toward the
    // camera (render/light/light_rays.h traceSky), in three channels from
    // `channel`, for each cell; -1: the sky through its openness.
    void setSeenSky(int channel) { seenSkyChannel_ = channel; }

    // Starts a ray along unit direction d: a distant light's phase is the
    // same at every sample of it.
    void startRay(Vec3f d);

    // The light every cell of `box` sends toward a camera at `eye` (grid
    // units; or along its one direction, orthographic), times the smoke's
    // colour, into the grid's source (RGB); with fireApart the fire's light
    // is left out of it and goes, per unit albedo and colour, into the fourth
    // float, which the B-spline's lookup reads through Catmull-Rom
    // (ShadingGrid::smoothSourceAt). Each cell sees the camera along the line
    // from the eye through its centre, which is the direction of every camera
    // ray through it, so a camera sample needs
    // only the trilinear blend of its cells' sources; the light channels
    // must hold this frame's light. Cells of blocks empty space says no
    // lookup can see density from are skipped (a sample never reads them).
    // With `color` (three floats a cell of the grid, x fastest: the smoke's
    // colour, sim/smoke_color.h) each cell's light is times its own colour
    // instead of `albedo`.
    void fillSource(ShadingGrid& grid, const Box3i& box, const EmptySpace& emptySpace,
                    const ViewPoint& eye, Vec3f albedo, bool fireApart = false,
                    const float* color = nullptr) const;

    // Light arriving at pGrid (w: the weights a RayMarcher reads the
    // ShadingGrid's data with), sent toward the camera; per unit albedo.
    template <typename Weights>
    Vec3f operator()(const Weights& w, const float* data, Vec3f pGrid) const {
        if (mode_ != MultipleScattering::Octaves) return singleAndCache(w, data, pGrid);
        const float openness = w(data + kSkyChannel);
        Vec3f inscatter = ambient_ * skyLight(openness, albedo_);
        const float multiple = multipleScattering(openness);
        const float single = smokeReturn(openness, albedo_, kLightReturn);
        for (size_t l = 0; l < directional_.size(); ++l) {
            const LightOctaves t(w(data + kFirstLightChannel + int(l)));
            const Vec3f* ph = &octavePhase_[l * kOctaves];
            const Vec3f octaves = ph[1] * t.t[1] + ph[2] * t.t[2] + ph[3] * t.t[3];
            inscatter += ph[0] * (t.t[0] * single) + octaves * multiple;
        }
        const int firstPointChannel = kFirstLightChannel + int(directional_.size());
        for (size_t l = 0; l < point_.size(); ++l) {
            const LightSettings& light = point_[l];
            Vec3f toLight = pointGrid_[l] - pGrid;
            float dist2 = std::max(dot(toLight, toLight), 0.25f);
            float cosTheta = dot(toLight, d_) / std::sqrt(dist2);
            const LightOctaves t(w(data + firstPointChannel + int(l)));
            float energy = octaveEnergy_, gi = g_ * kOctavePhase, octaves = 0.0f;
            for (int o = 1; o < kOctaves; ++o) {
                octaves += energy * henyeyGreenstein(cosTheta, gi) * t.t[o];
                energy *= octaveEnergy_;
                gi *= kOctavePhase;
            }
            const float sum = henyeyGreenstein(cosTheta, g_) * t.t[0] * single + octaves * multiple;
            inscatter += light.color * (light.intensity * sum / (dist2 * dx_ * dx_));
        }
        if (fireChannel_ >= 0)
            inscatter += fireColor_ * (w(data + fireChannel_) * fire_->phase(pGrid, d_, g_));
        return inscatter;
    }

  private:
    // Exact single scattering of the sky (through its openness), the suns
    // and the lamps, and the light cache's bounces beyond when it has one.
    template <typename Weights>
    Vec3f singleAndCache(const Weights& w, const float* data, Vec3f pGrid) const {
        Vec3f inscatter(0.0f);
        if (seenSkyChannel_ < 0) {
            inscatter = ambient_ * w(data + kSkyChannel);
        } else if (skyOn_) {
            const float* seen = data + seenSkyChannel_;
            inscatter = Vec3f(w(seen), w(seen + 1), w(seen + 2));
        }
        if (cache_)
            inscatter += ambient_ * cache_->at(0, pGrid, d_,
                                               LightCache::shapeOfOpenness(w(data + kSkyChannel)));
        for (size_t l = 0; l < directional_.size(); ++l) {
            const float depth = w(data + kFirstLightChannel + int(l));
            inscatter += octavePhase_[l * kOctaves] * std::exp(-depth);
            if (cache_) {
                const LightSettings& light = directional_[l];
                inscatter += light.color * light.intensity *
                             cache_->at(1 + int(l), pGrid, d_, LightCache::shapeOfDepth(depth));
            }
        }
        const int firstPointChannel = kFirstLightChannel + int(directional_.size());
        for (size_t l = 0; l < point_.size(); ++l) {
            const LightSettings& light = point_[l];
            const Vec3f toLight = pointGrid_[l] - pGrid;
            const float dist2 = std::max(dot(toLight, toLight), 0.25f);
            const float cosTheta = dot(toLight, d_) / std::sqrt(dist2);
            const float pointDepth = w(data + firstPointChannel + int(l));
            const float t = std::exp(-pointDepth);
            inscatter += light.color * (light.intensity * henyeyGreenstein(cosTheta, g_) * t /
                                        (dist2 * dx_ * dx_));
            if (cache_)
                inscatter += light.color * light.intensity *
                             cache_->at(1 + int(directional_.size() + l), pGrid, d_,
                                        LightCache::shapeOfDepth(pointDepth));
        }
        if (fireChannel_ >= 0)
            inscatter += fireColor_ * (w(data + fireChannel_) * fire_->phase(pGrid, d_, g_));
        return inscatter;
    }

    std::span<const LightSettings> directional_, point_;
    std::vector<Vec3f> pointGrid_;  // point light positions in grid units
    MultipleScattering mode_;
    const LightCache* cache_ = nullptr;
    int seenSkyChannel_ = -1;
    Vec3f ambient_;
    bool skyOn_;  // render.ambient (the sky, the map's mean) not black: a pass may turn it off
    float albedo_, g_, dx_;
    // What each further octave keeps: kLightOctaveEnergy, or the albedo
    // where the smoke is darker (a scattering keeps the albedo's share of
    // the light: soot of albedo 0.2 hardly scatters twice; at 0.9 for all,
    // the fireball's soot came out 22% brighter than Cycles' under its sun
    // and sky, tests/blender/cycles_fire.py).
    float octaveEnergy_;
    int fireChannel_ = -1;
    Vec3f fireColor_{0.0f};
    const FireLight* fire_ = nullptr;
    Vec3f d_;                         // the ray's direction
    std::vector<Vec3f> octavePhase_;  // colour x phase per distant light and octave, this ray
};

// Undoes the B-spline's blur of the source (lanes 0-2) over the cells
// fillSource filled in `box`: a cubic frame reads the light through the
// B-spline over its values, which is the light blurred by a kernel of
// variance 1/3 voxel^2 a side, and blurring a shadow's exp(-depth) brightens
// it (the mean of a convex curve lies above it): against the path tracer, a
// sun's shadowed smoke came out 7% bright. Each cell takes s - (1/6) of its
// six-neighbour Laplacian, the B-spline's inverse to first order (at a cell
// centre it reads s + (1/6) of it). Linear, so render passes still sum to
// the beauty. `copy` is scratch.
void sharpenSource(ShadingGrid& grid, const Box3i& box, const EmptySpace& emptySpace,
                   std::vector<float>& copy);

}  // namespace plume
