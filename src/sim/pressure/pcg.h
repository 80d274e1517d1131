// Preconditioned conjugate gradients on the pressure Poisson matrix.
//
// Stops when max|r| / max|b| <= tolerance (max-norm, the same norm as
// Projection::maxDivergence). When the recursively updated residual gets
// there, the true residual b - A p is computed; CG restarts from it if float
// drift left it above the tolerance, so the reported residual is honest.
#pragma once

#include <span>
#include <vector>

#include "core/scratch_arena.h"
#include "sim/pressure/poisson_kernels.h"
#include "sim/pressure/solve_stats.h"

namespace plume {

// z = M^-1 r for a symmetric positive definite M. r and z are padded fields;
// z must come out 0 on every cell that is not an unknown. Returns r . z,
// summed per slab in slab order (fused into the last pass over z).
class Preconditioner {
  public:
    virtual ~Preconditioner() = default;
    virtual double apply(const float* r, float* z) = 0;
};

// One symmetric red-black Gauss-Seidel sweep from z = 0 (red, black, red):
// deterministic and parallel, and about as cheap as Jacobi per iteration.
class SymmetricGaussSeidel final : public Preconditioner {
  public:
    explicit SymmetricGaussSeidel(const PoissonGrid& g) : g_(&g), partial_(size_t(g.nz())) {}
    double apply(const float* r, float* z) override;

  private:
    const PoissonGrid* g_;
    std::vector<double> partial_;  // r . z per slab
};

// p += alpha d, r -= alpha q over the interior; returns max |r|.
float updateSolution(const PoissonGrid& g, double* p, float* r, const float* d, const float* q,
                     float alpha);

// The steps of the CG loop that differ when the grid's slabs are split among
// processes (split_solve.h): sums and maxima over every process, and ghost
// slabs filled from the neighbours before a kernel reads them. This base is
// one process holding the whole grid, where they are the local values.
class PcgComm {
  public:
    virtual ~PcgComm() = default;
    // The largest of every process's value.
    virtual float max(float value) { return value; }
    // The per-slab partials of the local grid added with every other
    // process's, in slab order: the same sum for any split.
    virtual double sum(std::span<const double> partial);
    // Fills p's ghost slabs at a cut with the neighbours' pressure.
    virtual void exchangeGhosts(const PoissonGrid& /*g*/, double* /*p*/) {}
    // PoissonGrid::removeSingularMean with each region's mean over the whole grid.
    virtual void removeSingularMean(const PoissonGrid& g, float* x) { g.removeSingularMean(x); }
    virtual void removeSingularMean(const PoissonGrid& g, double* x) { g.removeSingularMean(x); }
    // Runs `first` on every slab, then `second`, which reads what `first`
    // wrote to x on slabs k-1..k+1. One process streams both through memory
    // in one pipelined pass; a split grid must exchange x between them.
    virtual void firstThenSecond(const PoissonGrid& g, FunctionRef<void(int)> first, float* x,
                                 FunctionRef<void(int)> second);
};

class PcgSolver {
  public:
    // Bytes of the four scratch vectors solve() takes for a grid of `cells`.
    static std::uint64_t bytesFor(Vec3i cells) {
        return 4 * ScratchArena::rounded(PoissonGrid::paddedCount(cells) * sizeof(float));
    }

    // Solves A p = b from the initial guess in p. bMax = max|b| > 0. The
    // iterate p is kept in double: see residual() in sim/pressure/poisson_kernels.h.
    // The four scratch vectors (residual, preconditioned residual, direction,
    // its product with A) come from `scratch`.
    SolveStats solve(const PoissonGrid& g, Preconditioner& m, double* p, const float* b, float bMax,
                     float tolerance, int maxIterations, ScratchArena::Lease& scratch) {
        PcgComm whole;
        return solve(g, m, p, b, bMax, tolerance, maxIterations, scratch, whole);
    }
    // The same on a grid whose slabs may be split among processes: every
    // process calls it, with `comm` for its part (split_solve.h).
    SolveStats solve(const PoissonGrid& g, Preconditioner& m, double* p, const float* b, float bMax,
                     float tolerance, int maxIterations, ScratchArena::Lease& scratch,
                     PcgComm& comm);

  private:
    std::vector<double> partial_;  // d . q, or r . z, per slab
};

}  // namespace plume
