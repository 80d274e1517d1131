// Preconditioned CG over a finest level split among processes (slab_part.h):
// PcgSolver::solve's own loop over the owned slabs, with ghost slabs
// exchanged before each kernel that reads a neighbour slab and every sum
// added over all slabs in slab order, so it takes the iterations and gives
// the bits one process's solve does.
#pragma once

#include "sim/pressure/pcg.h"
#include "sim/pressure/slab_part.h"

namespace plume {

// SymmetricGaussSeidel over the owned slabs of a split grid.
class SplitSymmetricGaussSeidel final : public Preconditioner {
  public:
    SplitSymmetricGaussSeidel(const PoissonGrid& g, SlabComm& comm)
        : g_(&g), comm_(&comm), partial_(size_t(g.nz())) {}
    double apply(const float* r, float* z) override;

  private:
    const PoissonGrid* g_;
    SlabComm* comm_;
    std::vector<double> partial_;
};

// PoissonGrid::removeSingularMean over a split grid (every process calls it):
// each closed region's per-slab partials added in slab order over all slabs.
void removeSingularMeanSplit(const PoissonGrid& g, float* x, SlabComm& comm);
void removeSingularMeanSplit(const PoissonGrid& g, double* x, SlabComm& comm);

// PcgSolver::solve on the owned slabs `g` of a split grid. p's ghost slabs
// hold the neighbours' pressure when it returns.
SolveStats solveSplit(const PoissonGrid& g, SlabComm& comm, Preconditioner& m, double* p,
                      const float* b, float bMax, float tolerance, int maxIterations,
                      ScratchArena::Lease& scratch);

}  // namespace plume
