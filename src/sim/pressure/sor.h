// Red-black successive over-relaxation: the classic reference solver.
//
// Each iteration is one red and one black half-sweep, both parallel over
// z-slabs (cells of one colour never read each other). The residual is
// checked every kCheckEvery sweeps and after the last, in the max-norm:
// stops when max|r| / max|b| <= tolerance.
#pragma once

#include "sim/pressure/poisson_kernels.h"
#include "sim/pressure/solve_stats.h"

namespace plume {

class SorSolver {
  public:
    // Bytes of the residual scratch for a grid of `cells`.
    static std::uint64_t bytesFor(Vec3i cells) {
        return PoissonGrid::paddedCount(cells) * sizeof(float);
    }

    static constexpr int kCheckEvery = 4;
    static constexpr int kMaxStalledChecks = 25;

    // Allocates the residual scratch and picks omega for grid g.
    void resize(const PoissonGrid& g);

    // Solves A p = b from the initial guess in p. bMax = max|b| > 0.
    SolveStats solve(const PoissonGrid& g, float* p, const float* b, float bMax, float tolerance,
                     int maxIterations);

    float omega() const { return omega_; }

  private:
    PaddedField r_;
    float omega_ = 1.9f;
};

}  // namespace plume
