#include "sim/pressure/poisson_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace plume {

// ---- kernels ----------------------------------------------------------------
//
// Rows run four cells at a time with a scalar tail that uses the same formula
// in the same order, so a cell's value does not depend on where it falls.

using namespace simd;

namespace {

// Cells of a row handled per block of the red-black sweep.
constexpr int kBlock = 64;

}  // namespace

namespace {

// The diagonal of four or eight cells as floats, and 1 / diag (0 where diag
// is 0): the same bits as diagonal() and inverse().
template <typename V>
[[gnu::always_inline]] inline V diagonalN(const uint8_t* d) {
    if constexpr (kLanes<V> == 4) {
        return diagonal(d);
    } else {
        U8 u;
        __builtin_memcpy(&u, d, sizeof u);
        return __builtin_convertvector(u, F8);
    }
}
template <typename V>
[[gnu::always_inline]] inline V inverseN(V diag) {
    return select<V>(diag > V{}, broadcast<V>(1.0f) / diag, V{});
}

// 1 / diagonal of four or eight cells, 0 where it is 0. Eight lanes look it
// up (one permute; the table holds the same correctly rounded quotients)
// instead of dividing.
template <typename V>
[[gnu::always_inline]] inline V inverseDiagonalN(const uint8_t* d) {
    if constexpr (kLanes<V> == 4) {
        return inverseN(diagonalN<V>(d));
    } else {
        const F8 table = {0.0f,        1.0f,        1.0f / 2.0f, 1.0f / 3.0f,
                          1.0f / 4.0f, 1.0f / 5.0f, 1.0f / 6.0f, 1.0f / 7.0f};
        U8 u;
        __builtin_memcpy(&u, d, sizeof u);
#if defined(__clang__)  // no runtime permute builtin: the same lookup, lane by lane
        F8 r;
        for (int i = 0; i < 8; ++i) r[i] = table[u[i] & 7];
        return r;
#else
        return __builtin_shuffle(table, __builtin_convertvector(u, I8));
#endif
    }
}

// Cells t.. of the block at padded index n0 while a whole vector fits before
// len: the new values into next; returns the first cell left.
template <typename V>
[[gnu::always_inline]] inline int smoothCellsN(const uint8_t* d, float* x, const float* b,
                                               size_t sy, size_t sz, bool relax, float omega,
                                               size_t n0, int t, int len, float* next) {
    for (; t + kLanes<V> <= len; t += kLanes<V>) {
        const size_t n = n0 + t;
        V s = loadN<V>(b + n) + loadN<V>(x + n - 1) + loadN<V>(x + n + 1) + loadN<V>(x + n - sy) +
              loadN<V>(x + n + sy) + loadN<V>(x + n - sz) + loadN<V>(x + n + sz);
        V gs = s * inverseDiagonalN<V>(d + n);
        if (relax) {
            V old = loadN<V>(x + n);
            gs = old + broadcast<V>(omega) * (gs - old);
        }
        storeN(next + t, gs);
    }
    return t;
}

template <bool kWide>
[[gnu::always_inline]] inline void smoothSlab(const PoissonGrid& g, float* x, const float* b,
                                              int colour, float omega, int k) {
    // 1 / diagonal from the one-byte diagonal, not a stored float: a quarter
    // of the bytes this memory-bound sweep streams for it, and one division
    // per four cells, which the loads hide.
    const uint8_t* d = g.diag();
    const size_t sy = g.strideY(), sz = g.strideZ();
    const int nx = g.nx(), ny = g.ny();
    const bool relax = omega != 1.0f;
    float next[kBlock];
    for (int j = 0; j < ny; ++j) {
        const size_t row = g.index(0, j, k);
        const int first = (j + k + colour) & 1;
        for (int i0 = 0; i0 < nx; i0 += kBlock) {
            // New values for every cell of the block (both colours: all
            // neighbours of a cell have the other colour, so this reads
            // nothing the sweep writes), then stored for this colour only.
            const int len = std::min(kBlock, nx - i0);
            const size_t n0 = row + i0;
            int t = 0;
            if constexpr (kWide)
                t = smoothCellsN<F8>(d, x, b, sy, sz, relax, omega, n0, t, len, next);
            t = smoothCellsN<F4>(d, x, b, sy, sz, relax, omega, n0, t, len, next);
            for (; t < len; ++t) {
                const size_t n = n0 + t;
                float s =
                    b[n] + x[n - 1] + x[n + 1] + x[n - sy] + x[n + sy] + x[n - sz] + x[n + sz];
                float gs = s * kInverseDiagonal[d[n]];
                if (relax) gs = x[n] + omega * (gs - x[n]);
                next[t] = gs;
            }
            for (int t2 = ((first + i0) & 1); t2 < len; t2 += 2) x[n0 + t2] = next[t2];
        }
    }
}

// The CG solves' hottest kernels start on a cache line, so their loops'
// speed does not hang on the size of the code linked before them (32 bytes
// off cost a PCG solve a few percent).
[[gnu::aligned(64)]] PLUME_AVX2 void smoothSlabAvx2(const PoissonGrid& g, float* x, const float* b,
                                                    int colour, float omega, int k) {
    smoothSlab<PLUME_HAS_AVX2_PATHS>(g, x, b, colour, omega, k);
}

}  // namespace

void smoothColourSlab(const PoissonGrid& g, float* x, const float* b, int colour, float omega,
                      int k) {
    if (avx2())
        smoothSlabAvx2(g, x, b, colour, omega, k);
    else
        smoothSlab<false>(g, x, b, colour, omega, k);
}

void smoothColour(const PoissonGrid& g, float* x, const float* b, int colour, float omega) {
    g.forSlabs([&](int k) { smoothColourSlab(g, x, b, colour, omega, k); });
}

// On a cache line: see smoothSlabAvx2.
[[gnu::aligned(64)]] void divideByDiagonalSlab(const PoissonGrid& g, float* x, const float* b,
                                               int k) {
    const uint8_t* d = g.diag();
    const int nx = g.nx(), ny = g.ny();
    for (int j = 0; j < ny; ++j) {
        const size_t row = g.index(0, j, k);
        int i = 0;
        for (; i + 4 <= nx; i += 4)
            store(x + row + i, load(b + row + i) * inverse(diagonal(d + row + i)));
        for (; i < nx; ++i) x[row + i] = b[row + i] * kInverseDiagonal[d[row + i]];
    }
}

void smoothFromZero(const PoissonGrid& g, float* x, const float* b) {
    // (Stages are named lambdas: a FunctionRef must not outlive its callable.)
    auto red = [&](int k) { divideByDiagonalSlab(g, x, b, k); };
    auto black = [&](int k) { smoothColourSlab(g, x, b, 1, 1.0f, k); };
    const FunctionRef<void(int)> stages[] = {red, black};
    pipelineSlabs(g, stages, 2);
}

void pipelineSlabs(const PoissonGrid& g, const FunctionRef<void(int)>* stages, int count) {
    const int nz = g.nz();
    // Chunks of consecutive slabs; each needs room for its wavefront to fill.
    const int minChunk = std::max(8, 2 * count + 2);
    const int chunks =
        g.cellCount() < kSerialCells ? 1 : std::clamp(nz / minChunk, 1, 4 * threadCount());
    auto begin = [&](int c) { return int(int64_t(nz) * c / chunks); };
    // Stage s runs inside chunk c on [lo, hi): it stays s slabs clear of an
    // inner chunk boundary, where neighbours are not ready yet.
    parallelForRange(chunks, [&](int c0, int c1) {
        for (int c = c0; c < c1; ++c) {
            const int a = begin(c), b = begin(c + 1);
            for (int t = a; t < b + count - 1; ++t)
                for (int s = 0; s < count; ++s) {
                    const int k = t - s;
                    const int lo = c == 0 ? 0 : a + s, hi = c == chunks - 1 ? nz : b - s;
                    if (k >= lo && k < hi) stages[s](k);
                }
        }
    });
    if (chunks == 1 || count == 1) return;
    // Then the triangles left at each inner boundary, in the same time order.
    parallelForRange(chunks - 1, [&](int c0, int c1) {
        for (int c = c0 + 1; c < c1 + 1; ++c) {
            const int kb = begin(c);
            for (int t = kb; t < kb + 2 * count - 2; ++t)
                for (int s = 1; s < count; ++s) {
                    const int k = t - s;
                    if (k >= kb - s && k < kb + s) stages[s](k);
                }
        }
    });
}

// The six neighbours of padded index n, summed in one fixed order (the
// kernels' results depend on it bit for bit).
template <typename T>
inline T neighbourSum(const T* x, size_t n, size_t sy, size_t sz) {
    return x[n - 1] + x[n + 1] + x[n - sy] + x[n + sy] + x[n - sz] + x[n + sz];
}
inline F4 neighbourSum4(const float* x, size_t n, size_t sy, size_t sz) {
    return load(x + n - 1) + load(x + n + 1) + load(x + n - sy) + load(x + n + sy) +
           load(x + n - sz) + load(x + n + sz);
}

namespace {

// r = b - A x for cells i.. of the row while a whole vector fits before nx;
// the max |r| of each four cells in turn into m4. Returns the first cell left.
template <typename V>
[[gnu::always_inline]] inline int residualCellsN(const uint8_t* d, const float* x, const float* b,
                                                 size_t sy, size_t sz, size_t row, int i, int nx,
                                                 float* r, F4& m4) {
    for (; i + kLanes<V> <= nx; i += kLanes<V>) {
        const size_t n = row + i;
        V nsum = loadN<V>(x + n - 1) + loadN<V>(x + n + 1) + loadN<V>(x + n - sy) +
                 loadN<V>(x + n + sy) + loadN<V>(x + n - sz) + loadN<V>(x + n + sz);
        V df = diagonalN<V>(d + n);
        V rn = select<V>(df > V{}, loadN<V>(b + n) - (df * loadN<V>(x + n) - nsum), V{});
        storeN(r + i, rn);
        if constexpr (kLanes<V> == 4) {
            m4 = max(m4, abs(rn));
        } else {
            m4 = max(m4, abs(F4{rn[0], rn[1], rn[2], rn[3]}));
            m4 = max(m4, abs(F4{rn[4], rn[5], rn[6], rn[7]}));
        }
    }
    return i;
}

template <bool kWide>
[[gnu::always_inline]] inline float residualRowImpl(const PoissonGrid& g, const float* x,
                                                    const float* b, size_t row, float* r) {
    const uint8_t* d = g.diag();
    const size_t sy = g.strideY(), sz = g.strideZ();
    const int nx = g.nx();
    F4 m4 = splat(0.0f);
    int i = 0;
    if constexpr (kWide) i = residualCellsN<F8>(d, x, b, sy, sz, row, i, nx, r, m4);
    i = residualCellsN<F4>(d, x, b, sy, sz, row, i, nx, r, m4);
    float m = hmax(m4);
    for (; i < nx; ++i) {
        const size_t n = row + i;
        float nsum = neighbourSum(x, n, sy, sz);
        float rn = d[n] ? b[n] - (float(d[n]) * x[n] - nsum) : 0.0f;
        r[i] = rn;
        m = std::max(m, std::fabs(rn));
    }
    return m;
}

PLUME_AVX2 float residualRowAvx2(const PoissonGrid& g, const float* x, const float* b, size_t row,
                                 float* r) {
    return residualRowImpl<PLUME_HAS_AVX2_PATHS>(g, x, b, row, r);
}

// y = A x for cells i.. of the row while a whole vector fits before nx; the
// products x y of each four cells in turn added into acc.
template <typename V>
[[gnu::always_inline]] inline int applyCellsN(const uint8_t* d, const float* x, float* y, size_t sy,
                                              size_t sz, size_t row, int i, int nx, F4& acc) {
    for (; i + kLanes<V> <= nx; i += kLanes<V>) {
        const size_t n = row + i;
        V nsum = loadN<V>(x + n - 1) + loadN<V>(x + n + 1) + loadN<V>(x + n - sy) +
                 loadN<V>(x + n + sy) + loadN<V>(x + n - sz) + loadN<V>(x + n + sz);
        V df = diagonalN<V>(d + n);
        V xn = loadN<V>(x + n);
        V ax = select<V>(df > V{}, df * xn - nsum, V{});
        storeN(y + n, ax);
        const V p = ax * xn;
        if constexpr (kLanes<V> == 4) {
            acc += p;
        } else {
            acc += F4{p[0], p[1], p[2], p[3]};
            acc += F4{p[4], p[5], p[6], p[7]};
        }
    }
    return i;
}

template <bool kWide>
[[gnu::always_inline]] inline double applyAndDotSlabImpl(const PoissonGrid& g, const float* x,
                                                         float* y, int k) {
    const uint8_t* d = g.diag();
    const size_t sy = g.strideY(), sz = g.strideZ();
    const int nx = g.nx(), ny = g.ny();
    double sum = 0.0;
    for (int j = 0; j < ny; ++j) {
        const size_t row = g.index(0, j, k);
        F4 acc = splat(0.0f);
        int i = 0;
        if constexpr (kWide) i = applyCellsN<F8>(d, x, y, sy, sz, row, i, nx, acc);
        i = applyCellsN<F4>(d, x, y, sy, sz, row, i, nx, acc);
        float rowSum = hsum(acc);
        for (; i < nx; ++i) {
            const size_t n = row + i;
            float nsum = neighbourSum(x, n, sy, sz);
            float ax = d[n] ? float(d[n]) * x[n] - nsum : 0.0f;
            y[n] = ax;
            rowSum += ax * x[n];
        }
        sum += rowSum;
    }
    return sum;
}

// On a cache line: see smoothSlabAvx2.
[[gnu::aligned(64)]] PLUME_AVX2 double applyAndDotSlabAvx2(const PoissonGrid& g, const float* x,
                                                           float* y, int k) {
    return applyAndDotSlabImpl<PLUME_HAS_AVX2_PATHS>(g, x, y, k);
}

}  // namespace

float residualRow(const PoissonGrid& g, const float* x, const float* b, size_t row, float* r) {
    return avx2() ? residualRowAvx2(g, x, b, row, r) : residualRowImpl<false>(g, x, b, row, r);
}

double applyAndDotSlab(const PoissonGrid& g, const float* x, float* y, int k) {
    return avx2() ? applyAndDotSlabAvx2(g, x, y, k) : applyAndDotSlabImpl<false>(g, x, y, k);
}

double applyAndDot(const PoissonGrid& g, const float* x, float* y) {
    return slabSum(g, [&](int k) { return applyAndDotSlab(g, x, y, k); });
}

float residual(const PoissonGrid& g, const float* x, const float* b, float* r) {
    const int ny = g.ny();
    return slabMax(g, [&](int k) {
        float m = 0.0f;
        for (int j = 0; j < ny; ++j) {
            const size_t row = g.index(0, j, k);
            m = std::max(m, residualRow(g, x, b, row, r + row));
        }
        return m;
    });
}

float maxAbs(const PoissonGrid& g, const float* x) {
    const int nx = g.nx(), ny = g.ny();
    return slabMax(g, [&](int k) {
        float m = 0.0f;
        for (int j = 0; j < ny; ++j) {
            const float* row = x + g.index(0, j, k);
            for (int i = 0; i < nx; ++i) m = std::max(m, std::fabs(row[i]));
        }
        return m;
    });
}

double dotSlab(const PoissonGrid& g, const float* x, const float* y, int k) {
    const int nx = g.nx(), ny = g.ny();
    double sum = 0.0;
    for (int j = 0; j < ny; ++j) {
        const size_t row = g.index(0, j, k);
        F4 acc = splat(0.0f);
        int i = 0;
        for (; i + 4 <= nx; i += 4) acc += load(x + row + i) * load(y + row + i);
        float rowSum = hsum(acc);
        for (; i < nx; ++i) rowSum += x[row + i] * y[row + i];
        sum += rowSum;
    }
    return sum;
}

double dot(const PoissonGrid& g, const float* x, const float* y) {
    return slabSum(g, [&](int k) { return dotSlab(g, x, y, k); });
}

namespace {
// Every padded slab in parallel: a grid-sized fill is a memory-bound pass
// that one core does at half the speed of two.
template <typename T>
void clearPadded(const PoissonGrid& g, T* x) {
    const size_t slab = g.strideZ();
    parallelForSlabs(g.nz() + 2, [&](int k) {
        std::fill(x + size_t(k) * slab, x + size_t(k + 1) * slab, T(0));
    });
}
}  // namespace

void clear(const PoissonGrid& g, float* x) { clearPadded(g, x); }
void clear(const PoissonGrid& g, double* x) { clearPadded(g, x); }

namespace {

// The double-iterate residual of slab k, four cells at a time in double
// lanes (the same operations as one cell's, lane by lane); returns max |r|.
// A lane's running max takes a value only when it is greater, as std::max
// does: NaNs are passed over and the max is the same in any order.
template <bool kWide>
[[gnu::always_inline]] inline float residualSlab(const PoissonGrid& g, const double* x,
                                                 const float* b, float* r, int k) {
    typedef double D4 __attribute__((vector_size(32)));
    const uint8_t* d = g.diag();
    const size_t sy = g.strideY(), sz = g.strideZ();
    const int nx = g.nx(), ny = g.ny();
    auto loadD = [](const double* p) {
        D4 v;
        __builtin_memcpy(&v, p, sizeof v);
        return v;
    };
    float m = 0.0f;
    F4 m4{};
    for (int j = 0; j < ny; ++j) {
        const size_t row = g.index(0, j, k);
        int i = 0;
        for (; i + 4 <= nx; i += 4) {
            const size_t n = row + i;
            const D4 nsum = loadD(x + n - 1) + loadD(x + n + 1) + loadD(x + n - sy) +
                            loadD(x + n + sy) + loadD(x + n - sz) + loadD(x + n + sz);
            const F4 df = diagonal(d + n);
            const D4 dd = __builtin_convertvector(df, D4);
            const F4 rd = __builtin_convertvector(
                __builtin_convertvector(load(b + n), D4) - (dd * loadD(x + n) - nsum), F4);
            const F4 rn = select<F4>(df != F4{}, rd, F4{});
            store(r + n, rn);
            const F4 a = abs(rn);
            m4 = m4 < a ? a : m4;
        }
        for (; i < nx; ++i) {
            const size_t n = row + i;
            double nsum = neighbourSum(x, n, sy, sz);
            float rn = d[n] ? float(double(b[n]) - (double(d[n]) * x[n] - nsum)) : 0.0f;
            r[n] = rn;
            m = std::max(m, std::fabs(rn));
        }
    }
    return std::max({m, m4[0], m4[1], m4[2], m4[3]});
}

PLUME_AVX2 float residualSlabAvx2(const PoissonGrid& g, const double* x, const float* b, float* r,
                                  int k) {
    return residualSlab<true>(g, x, b, r, k);
}

}  // namespace

float residual(const PoissonGrid& g, const double* x, const float* b, float* r) {
    const bool wide = avx2();
    return slabMax(g, [&](int k) {
        return wide ? residualSlabAvx2(g, x, b, r, k) : residualSlab<false>(g, x, b, r, k);
    });
}

}  // namespace plume
