// Advection of cell-centred scalars and staggered velocity through the MAC
// velocity field. Positions are in grid units (cells from the domain's min
// corner); velocities in m/s, so a backtrace moves by u * dt / dx cells.
//
// Semi-Lagrangian: an RK2 (midpoint) backtrace, dst(x) = src(x - u dt).
// MacCormack (Selle et al. 2008): a forward and a backward semi-Lagrangian step
// estimate the error and half of it is removed. Where the result leaves the range
// of the values the backtrace interpolated from, a limiter keeps it inside:
// Clamp (scalars: sharp, and loses the least mass) or Revert to the
// semi-Lagrangian value (velocity: clamped velocities leave voxel-scale noise
// in fast buoyant columns; Mantaflow reverts there too).
#pragma once

#include <vector>

#include "core/grid3.h"
#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// Scratch for one advection pass, sized once: departure points and the
// MacCormack forward step for up to two fields advected together.
class Advector {
public:
    enum class Limiter { Clamp, Revert };

    Advector() = default;

    // Advects `count` fields (1 or 2) sampled on the same points (same shape and
    // offset) through `velocity`: dst[n] = advected src[n]. src and dst differ.
    void advect(AdvectionScheme scheme, const Fields& velocity, const ScalarGrid* const* src,
                ScalarGrid* const* dst, int count, float dt, Limiter limiter = Limiter::Clamp);

    // One field: a convenience for tests and callers with a single field.
    void advect(AdvectionScheme scheme, const Fields& velocity, const ScalarGrid& src,
                ScalarGrid& dst, float dt, Limiter limiter = Limiter::Clamp) {
        const ScalarGrid* s[] = {&src};
        ScalarGrid* d[] = {&dst};
        advect(scheme, velocity, s, d, 1, dt, limiter);
    }

private:
    std::vector<Vec3f> departure_;  // backtraced sample positions, grid units
    std::vector<float> hat_[2];     // forward semi-Lagrangian steps
};

}  // namespace plume
