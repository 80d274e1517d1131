// What a slice view (render.view) reads from the solver: its fields, and the
// pressure and divergence that exist only while it runs, made each frame
// only when the view shows them.
#pragma once

#include "core/grid3.h"
#include "core/volume.h"
#include "scene/scene.h"
#include "sim/solver.h"

namespace plume {

// Air's density, kg/m^3: the solver's pressure is per unit density (m^2/s^2);
// times this it reads in pascals.
constexpr float kAirDensity = 1.2f;

class SolverSliceGrids {
  public:
    // Asks the solver to keep each substep's pressure when the view shows it.
    SolverSliceGrids(const Scene& scene, Solver& solver);

    // The solver's own grid (not upres's finer smoke: the velocity the view
    // and its streamlines read lives on it), with the pressure after the
    // frame's last substep in pascals and the divergence of its face
    // velocities in 1/s when the view shows them. Valid until the next call.
    VolumeView view(const Solver& solver);

  private:
    RenderView view_;
    ScalarGrid pressure_, divergence_;
};

}  // namespace plume
