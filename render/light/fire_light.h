// Fire light: the glow of a fire lighting its own smoke, the solids and the
// ground, as the light of many small lamps.
//
// The glowing cells are gathered into blocks, each a point light at its
// glow's centre with the light it gives off (an emitting medium sends out
// sigma * density * source per unit volume; render/march/ray_marcher.h marches
// the same source), less what the block's own smoke holds back. A cell's
// glow is the flame and temperature as the march reads them (the B-spline
// or trilinear), over the cell: T^4 of the cells' own values is far more
// than the camera sees of a thin flame. Blocks grow until there are at most
// kMaxFireLamps of them, so a campfire has a few dozen lamps and a fireball
// no more.
//
// The smoke: at the centre of every cell of a coarse grid (at most 32 per
// axis) the light of every lamp is seen through the optical depth between
// them, marched through the coarse grid's density, scattered once, and more
// often: in smoke by a light's octaves (render/light/in_scattering.h, weighted by
// how enclosed the cell is), in open gas as light scatters twice around a
// point in a uniform medium ((pi^2 / 4) albedo times the optical depth
// crossed). Each coarse cell's own glow and its neighbours' add their near
// field, which a softened point light gives too little of. The shading grid
// gets it by trilinear interpolation. The solids and the ground: every
// lamp's light falls on them by its distance and angle, exactly, and the
// smoke and solids in between take away what the coarse grid says they take
// away at that point (the ratio of shadowed to open light there).
#pragma once

#include <utility>
#include <vector>

#include "core/box.h"
#include "core/grid3.h"
#include "core/vec.h"
#include "render/march/shading_grid.h"
#include "scene/scene.h"

namespace plume {

constexpr int kMaxFireLamps = 64;

// What FireLight::build reads of a frame besides its grid, box and settings.
struct FireLightInput {
    // The grid's temperature and flame channels (flameChannel < 0: everything
    // hot glows), and the channel the light on the smoke goes to.
    int temperatureChannel = -1, flameChannel = -1, outChannel = -1;
    float sigmaPerVoxel = 0.0f;  // extinction per unit density times dx
    float voxelMetres = 0.0f;    // dx: a flame's light is per metre
    // The smoke's albedo, averaged over colour: what each further octave of
    // scattering keeps.
    float albedo = 0.0f;
    // The flame and temperature read through the B-spline over the grid's
    // coefficients (ShadingGrid::setCoefficients), as a cubic frame's march
    // reads them; else trilinearly.
    bool cubic = false;
    // Inside box (box when empty): the cells the lamps are gathered from, in
    // blocks from its min corner, so the lamps stay where they are when box
    // takes a wider apron.
    Box3i lampBox;
};

class FireLight {
  public:
    // Gathers the lamps from the glowing cells of `box` and writes the light
    // they shine on the smoke into channel in.outChannel of every cell of the
    // box, per unit albedo, as a multiple of color(). Channel 0 is the
    // density the light passes through: call it while the solids are in it.
    // The sky's openness (kSkyChannel) must be swept: it weights the octaves.
    void build(ShadingGrid& grid, const Box3i& box, const RenderSettings& settings,
               const FireLightInput& in);
    // No lamp, as for a frame where nothing glows.
    void clear();

    // No lamp this frame: nothing glows.
    bool empty() const { return lamps_.empty(); }
    int lamps() const { return int(lamps_.size()); }
    // The fire light's colour: the channel's value times this is radiance.
    Vec3f color() const { return color_; }

    // The smoke's phase for the fire's light at pGrid (grid units) seen along
    // the camera ray's unit direction d, relative to isotropic (1): Henyey and
    // Greenstein's with anisotropy g toward the mean direction of the lamps'
    // light there, weakened as that light comes from all around (g times
    // the length of the mean of its directions).
    float phase(Vec3f pGrid, Vec3f d, float g) const;

    // Light falling on a unit of surface at pGrid (grid units) facing n, in a
    // sun's units (like SurfaceLight's irradiance), with the shadows of smoke
    // and solids (read a coarse cell and a half off the surface, clear of the
    // solid's own cells) or without.
    Vec3f irradiance(Vec3f pGrid, Vec3f n, bool shadows) const;

    // Bytes it holds for a grid of n cells.
    static std::uint64_t bytesFor(Vec3i n);

  private:
    // Where the glow is, finely (a position in grid units and its luminance),
    // for the near field.
    using GlowPoints = std::vector<std::pair<Vec3f, float>>;

    // The steps of build().
    bool gatherLamps(const ShadingGrid& grid, const Box3i& box, const RenderSettings& settings,
                     const FireLightInput& in, GlowPoints& glowing);
    void sizeCoarseGrid(Vec3i n);
    void averageDensity(const ShadingGrid& grid, const Box3i& box);
    void lightCoarseCells(const Box3i& box, float sigmaPerVoxel, float albedo);
    void addNearField(const GlowPoints& glowing, float sigmaPerVoxel);
    void normaliseToward();
    void shadeSmoke(ShadingGrid& grid, const Box3i& box, float albedo, int outChannel) const;

    struct Lamp {
        Vec3f position;   // grid units
        Vec3f intensity;  // per unit of 1 / distance^2 in voxels
        float luminance;
        float soft2;   // the lamp's size squared: light falls as 1 / (d^2 + soft2)
        float radius;  // half its block's width, voxels
    };
    std::vector<Lamp> lamps_;
    Vec3f color_{0.0f};
    int factor_ = 1;      // fine cells per coarse cell, per axis
    ScalarGrid density_;  // coarse: mean density (solids included)
    // Coarse: the lamps' light on smoke, per unit color_: scattered once; by
    // the octaves after the first; scattered once times the optical depth
    // it crossed (for the light scattered twice in open gas).
    ScalarGrid light_, multiple_, second_;
    ScalarGrid seen_;  // coarse: shadowed / open light, for surfaces
    // Coarse: the mean of the directions toward the lamps, weighted by the
    // light scattered once (length 1: all from one way; 0: from all round).
    ScalarGrid toward_[3];
};

}  // namespace plume
