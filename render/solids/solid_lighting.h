// Solids and light: the light a solid or the ground receives and reflects,
// and the light solids take away from the smoke.
//
// Solids shadow the smoke by taking part in the light sweeps as opaque
// "smoke" (SolidsInSweep): their shadows come out as soft as the smoke's own,
// and the sky darkens under them. A surface point is lit as a sample of smoke
// just off it would be: each light through the optical depth read from the
// light grids (so a puff's shadow on the ground matches its look, and the
// shadows of the solids in the grids come with it), with soft shadow rays
// for the part of the way outside the grids; the sky through the smoke's sky
// light, over the part of the sky the surface faces. Surfaces are Lambertian.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/box.h"
#include "core/vec.h"
#include "core/volume.h"
#include "render/light/environment.h"
#include "render/light/fire_light.h"
#include "render/march/ray.h"
#include "render/march/shading_grid.h"
#include "render/solids/solid_scene.h"
#include "scene/scene.h"

namespace plume {

class SurfaceLight {
  public:
    // `lit`: the cells whose light channels hold this frame's values (the
    // light sweep's box; empty when none). Refers to everything it is given,
    // which must outlive it.
    SurfaceLight(const ShadingGrid& grid, const Box3i& lit,
                 std::span<const LightSettings> directional, std::span<const LightSettings> point,
                 const RenderSettings& render, const GroundSettings& ground,
                 const VolumeView& volume, const SolidScene& solids,
                 const FireLight* fire = nullptr);

    // The sky as parts (Environment::skyLights), not render.ambient alike
    // from every direction: a map's light on the upper half of what a
    // surface faces comes from where the map puts it. Refers to them.
    void setSky(std::span<const SkyLight> parts);

    // Radiance the surface sends back along the ray that hit it at world point p.
    Vec3f shade(Vec3f p, const SurfaceHit& hit) const;

    // How much of the light at p its shadows take away, in [0, 1]: what a
    // shadow catcher writes into alpha.
    float shadow(Vec3f p, Vec3f n) const;

  private:
    Vec3f worldBelow() const;
    // Light arriving on a unit of surface at p facing n (W/m^2 in a sun's
    // units), with or without the shadows of smoke and solids.
    Vec3f irradiance(Vec3f p, Vec3f n, bool shadows) const;
    // A light channel at world point p: inside the lit box, its value there;
    // outside, its value where the way from p toward the light enters the box
    // (`entry`, metres; infinite and `clear` when it misses the box).
    float channelToward(Vec3f p, const Ray& along, int channel, float clear, float& entry) const;

    const ShadingGrid& grid_;
    Box3i lit_;
    Vec3f sampleLo_, sampleHi_;  // the lit box's cell centres, grid units
    std::span<const LightSettings> directional_, point_;
    // Toward each distant light and straight up, with the reciprocals a box
    // clip divides by: the same for every surface point.
    std::vector<Ray> towardLight_;
    Ray up_{Vec3f(0.0f), Vec3f(0.0f, 0.0f, 1.0f)};
    const RenderSettings& render_;
    const GroundSettings& ground_;
    // The light a surface facing straight down gets from the world below: the
    // ground's diffuse reflection of the suns and the sky (W/m^2).
    Vec3f below_;
    const VolumeView& volume_;
    const SolidScene& solids_;
    const FireLight* fire_;  // a fire's glow, when something glows
    std::span<const SkyLight> skyParts_;
};

// Puts the solids into a ShadingGrid's density (channel 0) for the light
// sweeps, and takes them out again before the camera rays see the grid.
class SolidsInSweep {
  public:
    // The cells of `box` inside a visible obstacle get an opaque density.
    void add(ShadingGrid& grid, const Box3i& box, const VolumeView& volume, float sigmaPerVoxel,
             const SolidScene& solids);
    // Restores the densities `add` replaced.
    void remove(ShadingGrid& grid);

  private:
    std::vector<std::vector<std::pair<std::size_t, float>>> slabs_;  // cell, density it had
};

// The cells (grid units) that hold the solids' world bounds, within n.
Box3i solidCells(const SolidScene& solids, const VolumeView& volume, Vec3i n);

}  // namespace plume
