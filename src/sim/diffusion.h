// Implicit diffusion: solves (I - nu dt Laplacian) x_new = x for viscosity on
// each velocity component and for scalar diffusion. Implicit, so any rate is
// stable at any substep size.
#pragma once

#include <functional>

#include "core/grid3.h"

namespace plume {

// A process's part of a box split across processes (sim/solver_split.cpp).
// A sweep is wrong only in the part's outer slab where that is a cut, and
// the error moves in a slab a half-sweep: exchanging the halo every `halo`
// half-sweeps keeps the owned cells as one process has them.
struct DiffusionSplit {
    int partZ = 0;  // the part's first slab in the box: the colours are the box's
    int halo = 1;
    std::function<void(ScalarGrid&)> exchange;  // the halo takes its owners' values
};

inline constexpr int kDiffusionSweeps = 24;

// nu in m^2/s, dt in s, dx in m. Zero-gradient at the grid's edges.
// Red-black Gauss-Seidel with a fixed sweep count: deterministic at any thread count.
void diffuseImplicit(ScalarGrid& x, float nu, float dt, float dx, int sweeps = kDiffusionSweeps,
                     const DiffusionSplit* split = nullptr);

}  // namespace plume
