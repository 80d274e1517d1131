#include "sim/pressure/sor.h"

#include <algorithm>
#include <cmath>

namespace plume {

void SorSolver::resize(const PoissonGrid& g) {
    r_.assign(g.paddedSize(), 0.0f);
    // Optimal omega for the model problem on the longest axis, 2 / (1 + sin(pi / n)).
    const int n = std::max({g.nx(), g.ny(), g.nz(), 2});
    omega_ = std::min(1.95f, float(2.0 / (1.0 + std::sin(3.14159265358979 / n))));
}

SolveStats SorSolver::solve(const PoissonGrid& g, float* p, const float* b, float bMax,
                            float tolerance, int maxIterations) {
    const float target = tolerance * bMax;
    float rMax = residual(g, p, b, r_.data());
    if (!(rMax <= bMax)) {  // a warm start worse than zero: drop it
        clear(g, p);
        rMax = bMax;
    }
    SolveStats stats;
    float best = rMax;
    int stalled = 0;  // checks without a 1% improvement
    while (rMax > target && stats.iterations < maxIterations) {
        smoothColour(g, p, b, 0, omega_);
        smoothColour(g, p, b, 1, omega_);
        ++stats.iterations;
        if (stats.iterations % kCheckEvery == 0 || stats.iterations == maxIterations) {
            rMax = residual(g, p, b, r_.data());
            if (!std::isfinite(rMax)) break;
            // A float iterate has a rounding floor; stop when stuck on it.
            if (rMax < 0.99f * best) {
                best = rMax;
                stalled = 0;
            } else if (++stalled >= kMaxStalledChecks) {
                break;
            }
        }
    }
    g.removeSingularMean(p);
    stats.residual = rMax / bMax;
    return stats;
}

}  // namespace plume
