#include "sim/pressure/pcg.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace plume {

namespace {

using namespace simd;

// p += alpha d, r -= alpha q on slab k; returns max |r| over it. Built
// twice (the AVX2 clone keeps the operations, on wider registers).
template <bool kWide>
[[gnu::always_inline]] inline float updateSlab(const PoissonGrid& g, double* p, float* r,
                                               const float* d, const float* q, float alpha, int k) {
    typedef double D4 __attribute__((vector_size(32)));
    const int nx = g.nx(), ny = g.ny();
    const F4 a4 = splat(alpha);
    const D4 ad = {alpha, alpha, alpha, alpha};
    F4 m4 = splat(0.0f);
    float m = 0.0f;
    for (int j = 0; j < ny; ++j) {
        const size_t row = g.index(0, j, k);
        int i = 0;
        for (; i + 4 <= nx; i += 4) {
            const size_t n = row + i;
            D4 pn;
            __builtin_memcpy(&pn, p + n, sizeof pn);
            pn += ad * __builtin_convertvector(load(d + n), D4);
            __builtin_memcpy(p + n, &pn, sizeof pn);
            F4 rn = load(r + n) - a4 * load(q + n);
            store(r + n, rn);
            m4 = max(m4, abs(rn));
        }
        for (; i < nx; ++i) {
            const size_t n = row + i;
            p[n] += double(alpha) * double(d[n]);
            r[n] -= alpha * q[n];
            m = std::max(m, std::fabs(r[n]));
        }
    }
    return std::max(m, hmax(m4));
}

PLUME_AVX2 float updateSlabAvx2(const PoissonGrid& g, double* p, float* r, const float* d,
                                const float* q, float alpha, int k) {
    return updateSlab<true>(g, p, r, d, q, alpha, k);
}

}  // namespace

float updateSolution(const PoissonGrid& g, double* p, float* r, const float* d, const float* q,
                     float alpha) {
    const bool wide = avx2();
    return slabMax(g, [&](int k) {
        return wide ? updateSlabAvx2(g, p, r, d, q, alpha, k)
                    : updateSlab<false>(g, p, r, d, q, alpha, k);
    });
}

double SymmetricGaussSeidel::apply(const float* r, float* z) {
    // Forward (red, black) then backward (black, red); the second black
    // half-sweep would change nothing, so it is left out.
    const PoissonGrid& g = *g_;
    auto fromZero = [&](int k) { divideByDiagonalSlab(g, z, r, k); };
    auto black = [&](int k) { smoothColourSlab(g, z, r, 1, 1.0f, k); };
    auto red = [&](int k) { smoothColourSlab(g, z, r, 0, 1.0f, k); };
    auto product = [&](int k) { partial_[k] = dotSlab(g, r, z, k); };
    const FunctionRef<void(int)> stages[] = {fromZero, black, red, product};
    pipelineSlabs(g, stages, 4);
    double sum = 0.0;
    for (double p : partial_) sum += p;
    return sum;
}

double PcgComm::sum(std::span<const double> partial) {
    double sum = 0.0;
    for (double s : partial) sum += s;
    return sum;
}

void PcgComm::firstThenSecond(const PoissonGrid& g, FunctionRef<void(int)> first, float*,
                              FunctionRef<void(int)> second) {
    const FunctionRef<void(int)> stages[] = {first, second};
    pipelineSlabs(g, stages, 2);
}

SolveStats PcgSolver::solve(const PoissonGrid& g, Preconditioner& m, double* p, const float* b,
                            float bMax, float tolerance, int maxIterations,
                            ScratchArena::Lease& scratch, PcgComm& comm) {
    using namespace simd;
    partial_.resize(size_t(g.nz()));
    // The kernels write every interior cell of what they compute but read
    // the ghost layer around it, and the direction must stay 0 on cells that
    // are not unknowns: start all four at 0, as fresh vectors would.
    float* r = scratch.take<float>(g.paddedSize());
    float* z = scratch.take<float>(g.paddedSize());
    float* d = scratch.take<float>(g.paddedSize());
    float* q = scratch.take<float>(g.paddedSize());
    for (float* v : {r, z, d, q}) clear(g, v);
    const float target = tolerance * bMax;
    const int nx = g.nx(), ny = g.ny();
    // A split grid's closed regions may have no cell in this part, but every
    // process takes part in their sums.
    const bool closed = g.regionCount() > 0;

    auto trueResidual = [&] {
        comm.exchangeGhosts(g, p);  // A p reads the neighbours' pressure at a cut
        return comm.max(residual(g, p, b, r));
    };
    // Warm start, unless the guess is worse than starting from zero.
    float rMax = trueResidual();
    if (!(rMax <= bMax)) {
        clear(g, p);
        rMax = trueResidual();
    }
    SolveStats stats;
    auto precondition = [&] {
        double rz = m.apply(r, z);
        if (closed) {  // stay in the range of A on closed regions
            comm.removeSingularMean(g, z);
            g.forSlabs([&](int k) { partial_[size_t(k)] = dotSlab(g, r, z, k); });
            rz = comm.sum(partial_);
        }
        return rz;
    };
    // d = z + beta d (d = z on a restart), then q = A d and d . q.
    float beta = 0.0f;
    auto direction = [&](int k) {
        const F4 b4 = splat(beta);
        for (int j = 0; j < ny; ++j) {
            const size_t row = g.index(0, j, k);
            int i = 0;
            for (; i + 4 <= nx; i += 4)
                store(d + row + i, load(z + row + i) + b4 * load(d + row + i));
            for (; i < nx; ++i) d[row + i] = z[row + i] + beta * d[row + i];
        }
    };
    auto product = [&](int k) { partial_[size_t(k)] = applyAndDotSlab(g, d, q, k); };

    double rho = 0.0;
    bool restart = true;
    float lastTrue = rMax;  // true residual at the last (re)start
    while (rMax > target && stats.iterations < maxIterations) {
        if (restart) {
            rho = precondition();
            beta = 0.0f;
            restart = false;
        }
        comm.firstThenSecond(g, direction, d, product);
        const double sigma = comm.sum(partial_);
        if (!(sigma > 0.0) || !(rho > 0.0)) break;  // converged to rounding, or breakdown
        const float alpha = float(rho / sigma);
        rMax = comm.max(updateSolution(g, p, r, d, q, alpha));
        ++stats.iterations;
        if (rMax <= target) {
            // Confirm with the true residual; float drift can hide a bit.
            rMax = trueResidual();
            restart = true;
            // Float directions cannot always reach a tolerance near rounding:
            // stop when a restart no longer halves the true residual.
            if (rMax > target && rMax > 0.5f * lastTrue) break;
            lastTrue = rMax;
            continue;
        }
        const double rhoNew = precondition();
        beta = float(rhoNew / rho);
        rho = rhoNew;
    }
    // On a split grid every way out of the loop leaves p's ghosts exchanged
    // since p last changed, as the gradient's faces at a cut need; only the
    // mean's removal changes p after it.
    if (!restart) rMax = trueResidual();  // report the true residual
    if (closed) {                         // pressure mean 0 on closed regions
        comm.removeSingularMean(g, p);
        comm.exchangeGhosts(g, p);
    }
    stats.residual = rMax / bMax;
    return stats;
}

}  // namespace plume
