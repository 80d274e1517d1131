// Advection of cell-centred scalars and staggered velocity through the MAC
// velocity field. Positions are in grid units (cells from the domain's min
// corner); velocities in m/s, so a backtrace moves by u * dt / dx cells.
#pragma once

#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// Semi-Lagrangian with an RK2 (midpoint) backtrace: dst(x) = src(x - u dt).
void advectSemiLagrangian(const Fields& velocity, const ScalarGrid& src, ScalarGrid& dst,
                          float dt);

// MacCormack (Selle et al. 2008): a forward and a backward semi-Lagrangian step
// estimate the error, half of it is removed, and the result is clamped to the
// values the backtrace interpolated from so no new extrema appear.
// `hat` is scratch of the same shape as src.
void advectMacCormack(const Fields& velocity, const ScalarGrid& src, ScalarGrid& hat,
                      ScalarGrid& dst, float dt);

// Either scheme, chosen by the scene.
inline void advect(AdvectionScheme scheme, const Fields& velocity, const ScalarGrid& src,
                   ScalarGrid& hat, ScalarGrid& dst, float dt) {
    if (scheme == AdvectionScheme::MacCormack)
        advectMacCormack(velocity, src, hat, dst, dt);
    else
        advectSemiLagrangian(velocity, src, dst, dt);
}

}  // namespace plume
