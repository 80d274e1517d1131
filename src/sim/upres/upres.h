// Upres: the scalars (density, temperature, fuel, flame) on a grid `factor`
// times finer than the velocity's, for the detail a coarse bake cannot hold
// (Kim, Thuerey, James and Gross 2008, "Wavelet Turbulence for Fluid
// Simulation"; Mantaflow's noise, Houdini's Gas Up Res).
//
// Upres runs once a frame on what the frame's cache holds, and nothing else:
// the base scalars and the cell-centred velocity at the frame's end. So the
// inline upres of a bake and `plume upres` on its exact cache give the same
// bits. A frame:
//   1. the fine box follows the smoke (base cells where some scalar is not
//      its background, grown by a frame's travel);
//   2. the stirring velocity: the base velocity plus wavelet turbulence,
//      scaled by the speed the base grid cannot resolve (its energy's finest
//      band), in two octaves, its pattern carried with the flow and renewed
//      `speed` times a second (two patterns cross-fading, so no renewal pops);
//   3. the fine scalars go through what the solver's do in a substep, on
//      the fine grid: the emitters (sharp at the fine resolution), burning,
//      advection (the solver's scheme) through the stirring velocity,
//      diffusion and dissipation, in substeps of the solver's CFL number in
//      fine cells.
// So the fine smoke is a simulation of its own, moved by the base flow, as
// the paper's; it needs the scene's emitters (the cache does not hold them).
#pragma once

#include <cstdint>
#include <vector>

#include "core/box.h"
#include "core/grid3.h"
#include "core/volume.h"
#include "scene/scene.h"
#include "scene/shot_clock.h"
#include "sim/advection.h"
#include "sim/fields.h"

namespace plume {

// A frame as upres reads it: the base scalars and cell-centred velocity over
// a box of the domain, nothing (0) outside it.
struct UpresInput {
    Box3i box;  // domain cells the grids cover
    Vec3i domainCells;
    float dx = 1.0f;
    Vec3f domainOrigin{0, 0, 0};
    ScalarGrid density, temperature, fuel, flame;  // fuel and flame empty without fire
    ScalarGrid velocity[3];                        // cell-centred, m/s
    ScalarGrid color[3];  // premultiplied (sim/smoke_color.h); empty without colour

    bool burns() const { return fuel.size() == density.size(); }
    bool colored() const { return density.size() > 0 && color[0].size() == density.size(); }
    // The solver's parts (Solver::islandFields), as its cache writes them:
    // each island's cells, 0 between.
    static UpresInput fromParts(const std::vector<const Fields*>& parts);
    // The same into this input's grids, in the room they have.
    void assign(const std::vector<const Fields*>& parts);
};

class Upres {
  public:
    explicit Upres(const Scene& scene);

    // Frame `frame` (1-based): the fine scalars from the last frame's through
    // this frame's base.
    void advance(const UpresInput& base, int frame);
    // The same from the solver's parts (Solver::islandFields).
    void advance(const std::vector<const Fields*>& parts, int frame);

    // Sources from the base instead of the scene's emitters, for a cache
    // whose scene plume does not have (plume upres on Blender's or another
    // tool's cache): after each frame, where a base cell holds more of a
    // scalar than its fine cells do on average, the difference (smoothly
    // spread, trilinear) is added to them. One-sided, so the detail the
    // stirring made is kept; only smoke the fine grid lacks is put in.
    void feedFromBase(bool on) { feed_ = on; }
    // Carries the base's fuel and flame on the fine grid though the scene
    // burns nothing (another tool's fire cache, fed from the base): they are
    // moved and fed, not burnt again. Before the first advance.
    void carryFire(bool on) { carryFire_ = on; }
    // The same for the smoke's colour (sim/smoke_color.h): a cache's colour
    // carried and fed though no emitter of the scene has one.
    void carryColor(bool on) { carryColor_ = on; }

    // The fine scalars as Fields (no velocity): dx the fine cell, offset and
    // domainCells in fine cells. Empty before the first frame.
    const Fields& fine() const { return fine_; }
    // What the renderer draws.
    VolumeView view() const;
    int factor() const { return factor_; }
    // The base cells the fine grid covers.
    const Box3i& box() const { return box_; }

    // Bytes upres holds for a base box of `cells`: the fine scalars, their
    // velocity and advection scratch (factor^3 times the cells), and the
    // base-sized grids of the stirring; with `resume`, the copy the resume
    // state is written from.
    static std::uint64_t bytesFor(const Scene& scene, Vec3i cells, bool resume);

    // Its state after a frame, for --resume (io/upres_state.h): the fine
    // scalars (density, temperature[, fuel, flame][, colour's three]) and the patterns' drift
    // (x, y, z of each), with the fine grid's box and time.
    std::vector<const ScalarGrid*> fineGrids() const;
    std::vector<const ScalarGrid*> driftGrids() const;
    double time() const { return fine_.time; }
    // Back from such a state: `base` places the domain (dx, origin, cells);
    // the grids must be of `box` (fine ones factor times finer). Throws
    // RunError when they are not.
    void restore(const Fields& base, const Box3i& box, double time, std::vector<ScalarGrid> fine,
                 std::vector<ScalarGrid> drift);

  private:
    // `frame`: the frame index, whose simulated length (scene/shot_clock.h) they count in.
    void fitBox(const UpresInput& base, int frame);
    Box3i smokeCells(const UpresInput& base) const;
    void moveFine(const UpresInput& base, const Box3i& box);
    void renewPatterns(int frame);
    Grid3<uint8_t> nearSmoke(int reach) const;
    void stir(const UpresInput& base, int frame, ScalarGrid (&out)[3]);
    int fineVelocity(const ScalarGrid (&stirring)[3], int frame);
    void substep(int frame, float dt, const ShotSpan& shot);
    void placeSolids(Fields& fine) const;
    void closeSolidFaces();
    void carryPatterns(const UpresInput& base, int frame);
    void feed(const UpresInput& in);

    Scene scene_;
    Scene pose_;  // the scene posed at a substep, when it is animated
    UpresSettings settings_;
    AdvectionScheme scheme_;
    double fps_;
    float cfl_;
    int maxSubsteps_;
    float ambient_;
    int factor_;
    ShotClock clock_;  // the shot's time and the simulation's
    bool feed_ = false;
    bool carryFire_ = false;
    bool carryColor_ = false;
    bool burns() const;    // the fine grid holds fuel and flame
    bool colored() const;  // ... and the smoke's colour
    Box3i box_;  // base cells of the domain
    Fields fine_;
    // Each noise pattern's drift (metres, x y z) since it was renewed: where
    // a cell's smoke was then is its position less the drift.
    ScalarGrid drift_[2][3];
    // Kept from frame to frame for their room (the base over the fine box,
    // the stirring velocity, a grid to move through, and the density the
    // colour is advected beside, sim/smoke_color.h).
    UpresInput input_, base_;
    ScalarGrid stirring_[3];
    ScalarGrid spare_;
    MacVelocity fineVelocity_;
    Advector advector_;
};

}  // namespace plume
