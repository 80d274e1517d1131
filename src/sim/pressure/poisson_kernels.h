// The matrix-free kernels every pressure solver is built from: smoothing,
// A x, residuals, dots, on padded fields of a PoissonGrid (poisson.h).
// Kernels run over z-slabs, x innermost; every reduction is a per-slab
// partial added in slab order, so sums are the same for any thread count.
#pragma once

#include "core/simd.h"
#include "sim/pressure/poisson.h"

namespace plume {

// ---- four-wide helpers of the Poisson kernels (core/simd.h) ---------------
namespace simd {
// The diagonal of four cells as floats.
inline F4 diagonal(const uint8_t* d) {
    U4 u;
    __builtin_memcpy(&u, d, sizeof u);
    return __builtin_convertvector(u, F4);
}
// 1 / diag, 0 where diag is 0 (same bits as kInverseDiagonal).
inline F4 inverse(F4 diag) { return select(diag > splat(0.0f), splat(1.0f) / diag, splat(0.0f)); }
}  // namespace simd

// ---- kernels (x and b are padded fields of the grid) -----------------------

// r = b - A x over the row of cells starting at padded index `row` (nx cells);
// returns max |r| over the row.
float residualRow(const PoissonGrid& g, const float* x, const float* b, size_t row, float* r);

// One half-sweep of red-black Gauss-Seidel over cells with (i+j+k)%2 == colour,
// over-relaxed by omega (1 = plain Gauss-Seidel).
void smoothColour(const PoissonGrid& g, float* x, const float* b, int colour, float omega = 1.0f);
// The same on slab k only (a pipeline stage).
void smoothColourSlab(const PoissonGrid& g, float* x, const float* b, int colour, float omega,
                      int k);
// x = b / diag on slab k: the red half-sweep from x = 0, written on every cell
// (the black half-sweep that must follow overwrites the black ones).
void divideByDiagonalSlab(const PoissonGrid& g, float* x, const float* b, int k);
// x . y over slab k.
double dotSlab(const PoissonGrid& g, const float* x, const float* y, int k);
// y = A x over slab k; returns x . y over the slab.
double applyAndDotSlab(const PoissonGrid& g, const float* x, float* y, int k);

// Runs count stages over the slabs of g as a wavefront: stage s runs on slab k
// after stage s-1 has run on slabs k-1, k, k+1, and before stage s+1 does.
// Each stage may read slabs k-1..k+1 and write slab k, so a chain of sweeps
// streams through memory once instead of once per stage. The result does not
// depend on how the slabs are split over threads.
void pipelineSlabs(const PoissonGrid& g, const FunctionRef<void(int)>* stages, int count);

// A red then a black half-sweep starting from x = 0, in one pass; writes every
// interior cell of x, so x need not be cleared first.
void smoothFromZero(const PoissonGrid& g, float* x, const float* b);

// y = A x; returns x . y.
double applyAndDot(const PoissonGrid& g, const float* x, float* y);

// r = b - A x; returns max |r|.
float residual(const PoissonGrid& g, const float* x, const float* b, float* r);
// The same for a solution kept in double (CG's iterate): b - A x is formed in
// double, so it is not limited by float rounding of x, which for smooth
// pressures on large grids is above 1e-4 of max|b|.
float residual(const PoissonGrid& g, const double* x, const float* b, float* r);

// max |x| over the interior.
float maxAbs(const PoissonGrid& g, const float* x);

// x . y over the interior, in double.
double dot(const PoissonGrid& g, const float* x, const float* y);

// Sets every value of x, ghosts included, to 0.
void clear(const PoissonGrid& g, float* x);
void clear(const PoissonGrid& g, double* x);

// Max and sum of term(k) over the slabs of g, combined in slab order (on the
// calling thread for a small level): the same for any thread count.
template <typename F>
float slabMax(const PoissonGrid& g, F&& term) {
    if (g.cellCount() < kSerialCells) {
        float m = 0.0f;
        for (int k = 0; k < g.nz(); ++k) m = maxOf(m, float(term(k)));
        return m;
    }
    return deterministicReduce(g.nz(), 0.0f, term, maxOf<float>);
}
template <typename F>
double slabSum(const PoissonGrid& g, F&& term) {
    if (g.cellCount() < kSerialCells) {
        double s = 0.0;
        for (int k = 0; k < g.nz(); ++k) s += term(k);
        return s;
    }
    return deterministicSum(g.nz(), term);
}

}  // namespace plume
