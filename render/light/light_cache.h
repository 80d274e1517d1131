// The light cache: the light of two and more bounces, carried by paths
// through the real density (render.multiple_scattering = "transport"), which
// the march adds to its exact single scattering.
//
// A grid at render.light_cache_resolution of the density's. Each of its
// cells sends paths in every direction from points inside it; a path
// tracks (render/path/medium.h) to a collision, scatters there the light
// that reaches it directly (a sun or lamp through the optical depth the
// rays left in the ShadingGrid, render/light/light_rays.h; the sky through
// the cell's openness), and
// goes on by the phase function until Russian roulette ends it. What the
// cell holds is the mean radiance those paths bring back, and its mean
// direction (the first moment, luminance-weighted), so a read toward a ray
// weighs it by Henyey-Greenstein's first order: L (1 + 3 g m.d).
//
// One layer per light (the sky, each distant light, each point light),
// each per unit of that light (its colour times intensity; the sky's per
// unit of render.ambient), so a render pass with a light off reads no
// light of it. Paths are hashed from the cell and the path's index, not the
// frame, so a frame is the same for any thread count and frame range; their
// noise still changes with the density from frame to frame, which a blur
// of the cells (after the shape, below) keeps down.
#pragma once

#include <cmath>
#include <span>
#include <vector>

#include "core/box.h"
#include "core/vec.h"
#include "render/march/shading_grid.h"
#include "render/path/medium.h"
#include "scene/scene.h"

namespace plume {

class LightCache {
  public:
    struct Lights {
        std::span<const LightSettings> directional;  // unit directions
        std::span<const Vec3f> pointGrid;            // point lights, grid units
        float dx = 1.0f;                             // metres a grid unit
        float phase = 0.0f;                          // Henyey-Greenstein g
    };

    // Fills the cells over `box` (cells of the density grid) that smoke is
    // near; `grid` holds this frame's sky openness and optical depths toward
    // each light (render/light/in_scattering.h's channels), `medium` the
    // density the paths track through (read trilinearly).
    void fill(const ShadingGrid& grid, const Box3i& box, const Medium& medium,
              const Lights& lights, float resolution, int pathsPerCell);

    bool empty() const { return layers_ == 0; }
    // Layer 0 is the sky, then each distant light, then each point light.
    int layers() const { return layers_; }
    // The light of layer `layer` arriving at pGrid (density grid units) by
    // two or more bounces, scattered toward a ray travelling along unit d,
    // per unit albedo and per unit of the light. `shape` is shapeOf the
    // light's channel at pGrid.
    Vec3f at(int layer, Vec3f pGrid, Vec3f d, float shape) const;

    // What a cell holds is its light over this, averaged over its paths'
    // starts, and a read multiplies it back by the value where it reads:
    // how light falls off into smoke changes within a cell, which the
    // density's resolution knows and the cache's does not (at half
    // resolution, holding the light itself read 4% dark against the path
    // tracer, the light within a few cells of a lit surface blended with
    // the dimmer light deeper in). From a light's optical depth toward it
    // (the light's first octaves, render/light/in_scattering.h), or the
    // sky's openness.
    static float shapeOfDepth(float depth) {
        return kShapeFloor + 0.9f * std::exp(-0.70710678f * depth) +
               0.81f * std::exp(-0.5f * depth) + 0.729f * std::exp(-0.35355339f * depth);
    }
    static float shapeOfOpenness(float openness) { return kShapeFloor + openness; }

  private:
    void blurCells(const Box3i& cells);
    // Keeps the shape away from 0 deep in shadow.
    static constexpr float kShapeFloor = 0.05f;
    // Floats a cell holds per layer: RGB, then the moment's x, y, z.
    static constexpr int kFloats = 6;
    const float* cell(int i, int j, int k) const {
        return data_.data() + ((size_t(k) * n_.y + j) * n_.x + i) * size_t(layers_) * kFloats;
    }

    Vec3i n_{0, 0, 0};
    Vec3f scale_{1.0f};  // density cells per cache cell, per axis
    int layers_ = 0;
    float g_ = 0.0f;
    std::vector<float> data_;
};

}  // namespace plume
