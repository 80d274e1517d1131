// Optical depth toward distant lights by rays: a lattice of rays across the
// light's direction, each marched through the density along the light with
// its depth kept at every node; a cell reads its own between the four rays
// around it (bilinear across, cubic Hermite along, from the depth and its
// slope, the extinction, at each node).
//
// Sweeping slice by slice (render/light/light_transmittance.h) blends the
// depths of the slice before at every step, so a shadow is the mean over a
// widening cone of rays, not the one ray a path tracer follows: against
// plume's path integrator, a sun's single scattering came out 11% dark
// (depths blended) or 9 to 14% bright in the shadows (transmittances
// blended). A lattice blends once, at the lookup.
#pragma once

#include <span>
#include <vector>

#include "core/box.h"
#include "core/vec.h"
#include "render/light/environment.h"
#include "render/march/shading_grid.h"
#include "render/view_point.h"

namespace plume {

// Voxels between the lattice's rays, and between a ray's nodes.
struct LatticeSpacing {
    float across = 1.0f, along = 1.0f;
};

// Where LightRays::traceSky leaves the sky's light in the grid.
struct SkyChannels {
    int openness;  // the sky's transmittance, each part weighed by its share
    int seen;      // three: the light scattered toward the camera (RGB, per unit albedo)
};

class LightRays {
  public:
    // This frame's density over `box` (channel 0 of `grid`, with whatever
    // solids were put in it), zero outside it; sigmaPerVoxel = extinction
    // per unit density times dx.
    void start(const ShadingGrid& grid, const Box3i& box, float sigmaPerVoxel);

    // The optical depth toward a light travelling along unit `direction`
    // into channel `outChannel` of every cell of the box.
    void traceDepth(ShadingGrid& grid, Vec3f direction, LatticeSpacing spacing, int outChannel);

    // The sky (Environment::skyLights) through the smoke at every cell of
    // the box: its openness, and the light its parts send through the smoke
    // that the cell scatters by Henyey-Greenstein g toward a camera at `eye`
    // (grid units; or along its one direction, orthographic). Overwrites both.
    void traceSky(ShadingGrid& grid, std::span<const SkyLight> sky, const ViewPoint& eye, float g,
                  LatticeSpacing spacing, const SkyChannels& channels);

  private:
    struct Lattice;
    template <typename Store>
    void trace(ShadingGrid& grid, Vec3f direction, LatticeSpacing spacing, Store store);

    Box3i box_;
    Vec3i padded_{0, 0, 0};  // the box and a cell of zeros on every side
    float sigma_ = 0.0f;
    std::vector<float> density_;  // over padded_, x fastest
    std::vector<float> nodes_;    // per node: depth, and its slope along the ray
};

}  // namespace plume
