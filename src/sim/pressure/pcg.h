// Preconditioned conjugate gradients on the pressure Poisson matrix.
//
// Stops when max|r| / max|b| <= tolerance (max-norm, the same norm as
// Projection::maxDivergence). When the recursively updated residual gets
// there, the true residual b - A p is computed; CG restarts from it if float
// drift left it above the tolerance, so the reported residual is honest.
#pragma once

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
                     float tolerance, int maxIterations, ScratchArena::Lease& scratch);

  private:
    std::vector<double> partial_;  // d . q per slab
};

}  // namespace plume
