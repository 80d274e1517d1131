// Implicit diffusion: solves (I - nu dt Laplacian) x_new = x for viscosity on
// each velocity component and for scalar diffusion. Implicit, so any rate is
// stable at any substep size.
#pragma once

#include "core/grid3.h"

namespace plume {

// nu in m^2/s, dt in s, dx in m. Zero-gradient at the grid's edges.
// Red-black Gauss-Seidel with a fixed sweep count: deterministic at any thread count.
void diffuseImplicit(ScalarGrid& x, float nu, float dt, float dx, int sweeps = 24);

}  // namespace plume
