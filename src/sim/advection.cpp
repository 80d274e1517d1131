#include "sim/advection.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "core/interpolation.h"
#include "core/parallel.h"
#include "core/simd.h"

namespace plume {

namespace {

using simd::F4;

inline Vec3f xyz(F4 v) { return {v[0], v[1], v[2]}; }

// Four floats from p: a three-float sample and, in the fourth lane, whatever
// follows it (the next sample's x, or the room after the last), which every
// user ignores: lanes never mix, so the first three are the sample's own.
[[gnu::always_inline]] inline F4 load3(const float* p) { return simd::load(p); }
[[gnu::always_inline]] inline void store3(float* p, F4 v) { __builtin_memcpy(p, &v, 3 * sizeof(float)); }

// A trilinear blend of three-float samples (stencil steps in floats).
[[gnu::always_inline]] inline F4 blend3(const float* base, const Stencil& s) {
    const float* p = base + s.at;
    const F4 v[8] = {load3(p),        load3(p + s.dx),        load3(p + s.dy),
                     load3(p + s.dy + s.dx), load3(p + s.dz), load3(p + s.dz + s.dx),
                     load3(p + s.dz + s.dy), load3(p + s.dz + s.dy + s.dx)};
    return trilinear(v, s.fx, s.fy, s.fz);
}

// Three-float samples at the cell centres (the velocity, or the backtrace
// displacement), x y z x y z ...: anywhere by one vector blend, and at the
// sample points of one grid shape exactly (a centre, or the mean of the two
// cells a face lies between).
class Centred {
  public:
    Centred(const float* c, Vec3i n, Vec3f sampleOffset)
        : c_(c), shape_(n.x, n.y, n.z, 3, Vec3f(0.5f)) {
        for (int a = 0; a < 3; ++a)
            if (sampleOffset[a] == 0.0f) face_ = a;
    }
    [[gnu::always_inline]] Vec3f operator()(Vec3f pGrid) const {
        return xyz(blend3(c_, shape_.stencil(pGrid)));
    }
    [[gnu::always_inline]] Vec3f at(int i, int j, int k) const { return xyz(at4(i, j, k)); }
    [[gnu::always_inline]] F4 at4(int i, int j, int k) const {
        // The two cells a face lies between (clamped at the grid's ends), or
        // the cell twice for a centre.
        const ptrdiff_t n = k * shape_.sz + j * shape_.sy + 3 * ptrdiff_t(i);
        ptrdiff_t lo = n, hi = n;
        if (face_ == 0) {
            lo -= i > 0 ? 3 : 0;
            hi -= i >= shape_.nx ? 3 : 0;
        } else if (face_ == 1) {
            lo -= j > 0 ? shape_.sy : 0;
            hi -= j >= shape_.ny ? shape_.sy : 0;
        } else if (face_ == 2) {
            lo -= k > 0 ? shape_.sz : 0;
            hi -= k >= shape_.nz ? shape_.sz : 0;
        }
        return 0.5f * (load3(c_ + lo) + load3(c_ + hi));
    }
    // The samples at points i..i+3 of row (j, k), one coordinate per vector.
    [[gnu::always_inline]] void at4(int i, int j, int k, F4& x, F4& y, F4& z) const {
        if (face_ == 0 && (i < 1 || i + 3 >= shape_.nx)) {
            const F4 d0 = at4(i, j, k), d1 = at4(i + 1, j, k), d2 = at4(i + 2, j, k),
                     d3 = at4(i + 3, j, k);
            // Transpose: (x, y, z, .) per point to one coordinate per vector.
            const F4 t0 = __builtin_shufflevector(d0, d1, 0, 4, 1, 5);  // x0 x1 y0 y1
            const F4 t1 = __builtin_shufflevector(d2, d3, 0, 4, 1, 5);  // x2 x3 y2 y3
            const F4 t2 = __builtin_shufflevector(d0, d1, 2, 6, 3, 7);  // z0 z1 . .
            const F4 t3 = __builtin_shufflevector(d2, d3, 2, 6, 3, 7);  // z2 z3 . .
            x = __builtin_shufflevector(t0, t1, 0, 1, 4, 5);
            y = __builtin_shufflevector(t0, t1, 2, 3, 6, 7);
            z = __builtin_shufflevector(t2, t3, 0, 1, 4, 5);
            return;
        }
        // Four neighbouring points of a row read two runs of twelve floats.
        const ptrdiff_t n = k * shape_.sz + j * shape_.sy + 3 * ptrdiff_t(i);
        ptrdiff_t lo = n, hi = n;
        if (face_ == 0) {
            lo -= 3;
        } else if (face_ == 1) {
            lo -= j > 0 ? shape_.sy : 0;
            hi -= j >= shape_.ny ? shape_.sy : 0;
        } else if (face_ == 2) {
            lo -= k > 0 ? shape_.sz : 0;
            hi -= k >= shape_.nz ? shape_.sz : 0;
        }
        const float *a = c_ + lo, *b = c_ + hi;
        // x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3
        const F4 m0 = 0.5f * (simd::load(a) + simd::load(b));
        const F4 m1 = 0.5f * (simd::load(a + 4) + simd::load(b + 4));
        const F4 m2 = 0.5f * (simd::load(a + 8) + simd::load(b + 8));
        x = __builtin_shufflevector(__builtin_shufflevector(m0, m1, 0, 3, 6, 7), m2, 0, 1, 2, 5);
        y = __builtin_shufflevector(__builtin_shufflevector(m0, m1, 1, 4, 7, 7), m2, 0, 1, 2, 6);
        z = __builtin_shufflevector(__builtin_shufflevector(m0, m1, 2, 5, 5, 5), m2, 0, 1, 4, 7);
    }

    const float* samples() const { return c_; }
    const SampleLayout& layout() const { return shape_; }

  private:
    const float* c_;
    SampleLayout shape_;  // three floats a sample
    int face_ = -1;       // the axis a face grid is staggered along, or -1
};

// RK2 (midpoint) departure point of the fluid at pGrid whose velocity is v0;
// s = dt / dx.
[[gnu::always_inline]] inline Vec3f trace(const Centred& vel, Vec3f pGrid, Vec3f v0, float s) {
    Vec3f mid = pGrid - v0 * (0.5f * s);
    return pGrid - vel(mid) * s;
}

// Cells of a grid as one span [lo, hi) of x per row (j, k), lo >= hi for
// none, and the box that bounds them.
struct Region {
    struct Span {
        int lo = 0, hi = 0;
    };
    int ny = 0;
    std::vector<Span> spans;  // row (j, k) at k * ny + j
    Box3i bounds;

    const Span& at(int j, int k) const { return spans[size_t(k) * ny + j]; }
};

// Widens span a to hold span b too (an empty b adds nothing).
inline void hull(Region::Span& a, const Region::Span& b) {
    if (b.lo >= b.hi) return;
    a = a.lo < a.hi ? Region::Span{std::min(a.lo, b.lo), std::max(a.hi, b.hi)} : b;
}

// For each of `count` fields, the cells where it differs from its background,
// into `regions`.
void activeRegions(const ScalarGrid* const* src, int count, const float* background,
                   Region* regions) {
    const ScalarGrid& g = *src[0];
    const int nx = g.nx(), ny = g.ny();
    for (int c = 0; c < count; ++c) {
        regions[c].ny = ny;
        regions[c].spans.assign(size_t(ny) * g.nz(), Region::Span{});
    }
    using Boxes = std::array<Box3i, Advector::kMaxFields>;
    // Each slab's spans, and its boxes, united in slab order.
    auto slabBoxes = [&](int k) {
        Boxes boxes{};
        for (int c = 0; c < count; ++c) {
            const float bg = background[c];
            for (int j = 0; j < ny; ++j) {
                const float* row = &(*src[c])(0, j, k);
                int first = 0, last = nx - 1;
                while (first < nx && row[first] == bg) ++first;
                if (first == nx) continue;
                while (row[last] == bg) --last;
                regions[c].spans[size_t(k) * ny + j] = {first, last + 1};
                boxes[c] = unite(boxes[c], Box3i{{first, j, k}, {last + 1, j + 1, k + 1}});
            }
        }
        return boxes;
    };
    auto uniteEach = [](const Boxes& a, const Boxes& b) {
        Boxes u;
        for (size_t c = 0; c < u.size(); ++c) u[c] = unite(a[c], b[c]);
        return u;
    };
    const Boxes bounds = deterministicReduce(g.nz(), Boxes{}, slabBoxes, uniteEach);
    for (int c = 0; c < count; ++c) regions[c].bounds = bounds[c];
}

// `r` grown by `by` cells along every axis (each cell to the cube of side
// 2 by + 1 around it, or more), kept inside [0, n): each row spans the hull
// of the rows within `by` in y and z, widened by `by` in x. Into `out` (not
// r), through `alongY`: regions the caller keeps, whose span lists are reused.
void grow(const Region& r, int by, Vec3i n, Region& out, Region& alongY) {
    out = r;
    out.bounds = grow(r.bounds, by, n);
    if (r.bounds.empty()) return;
    // Along y, then along z, then widen in x; only the rows of the bounds
    // can be non-empty.
    const Box3i& b = out.bounds;
    alongY = r;
    parallelForSlabs(b.hi.z - b.lo.z, [&](int kk) {
        const int k = b.lo.z + kk;
        for (int j = b.lo.y; j < b.hi.y; ++j) {
            Region::Span s;
            for (int jj = std::max(j - by, 0); jj <= std::min(j + by, n.y - 1); ++jj)
                hull(s, r.at(jj, k));
            alongY.spans[size_t(k) * n.y + j] = s;
        }
    });
    parallelForSlabs(b.hi.z - b.lo.z, [&](int kk) {
        const int k = b.lo.z + kk;
        for (int j = b.lo.y; j < b.hi.y; ++j) {
            Region::Span s;
            for (int z = std::max(k - by, 0); z <= std::min(k + by, n.z - 1); ++z)
                hull(s, alongY.at(j, z));
            if (s.lo < s.hi) s = {std::max(s.lo - by, 0), std::min(s.hi + by, n.x)};
            out.spans[size_t(k) * n.y + j] = s;
        }
    });
}

// Sets every cell of g outside `region` to `value`.
void fillOutside(ScalarGrid& g, const Region& region, float value) {
    const int nx = g.nx(), ny = g.ny();
    parallelForSlabs(g.nz(), [&](int k) {
        for (int j = 0; j < ny; ++j) {
            float* row = &g(0, j, k);
            const Region::Span s = region.at(j, k);
            if (s.lo >= s.hi) {
                std::fill(row, row + nx, value);
                continue;
            }
            std::fill(row, row + s.lo, value);
            std::fill(row + s.hi, row + nx, value);
        }
    });
}

// Backtrace displacement of cell (i, j, k) into the row's sample i, out + 3 i,
// for s = dt / dx.
[[gnu::always_inline]] inline void traceCell(const Centred& vel, float s, int i, int j, int k,
                                             float* out) {
    const Vec3f pGrid{i + 0.5f, j + 0.5f, k + 0.5f};
    const Vec3f d = pGrid - trace(vel, pGrid, vel.at(i, j, k), s);
    store3(out + 3 * i, F4{d.x, d.y, d.z, 0.0f});
}

// The same for cells i.. of the row while a whole vector of them fits before
// i1, the midpoints' stencils four or eight at a time (then each cell's
// blend of the four-float samples); returns the first cell left.
template <typename V>
[[gnu::always_inline]] inline int traceCellsN(const Centred& vel, float s, int i, int i1, int j,
                                              int k, float* out) {
    constexpr int kN = simd::kLanes<V>;
    const float h = 0.5f * s;
    for (; i + kN <= i1; i += kN) {
        V vx, vy, vz;
        if constexpr (kN == 4) {
            vel.at4(i, j, k, vx, vy, vz);
        } else {
            F4 x0, y0, z0, x1, y1, z1;
            vel.at4(i, j, k, x0, y0, z0);
            vel.at4(i + 4, j, k, x1, y1, z1);
            vx = simd::concat(x0, x1), vy = simd::concat(y0, y1), vz = simd::concat(z0, z1);
        }
        V lane;
        for (int l = 0; l < kN; ++l) lane[l] = float(l);
        const V px = simd::broadcast<V>(float(i)) + lane + 0.5f;
        const float py = j + 0.5f, pz = k + 0.5f;
        const StencilN<V> st = stencilN(vel.layout(), px - vx * h, py - vy * h, pz - vz * h);
        for (int l = 0; l < kN; ++l) {
            const Stencil one{st.at[l], st.dx, st.dy, st.dz, st.fx[l], st.fy[l], st.fz[l]};
            const F4 p{px[l], py, pz, 0.0f};
            store3(out + 3 * (i + l), p - (p - blend3(vel.samples(), one) * s));
        }
    }
    return i;
}

// Backtrace displacements of cells i0..i1-1 of row (j, k) into out[i].
void traceRow4(const Centred& vel, float s, int i0, int i1, int j, int k, float* out) {
    int i = traceCellsN<F4>(vel, s, i0, i1, j, k, out);
    for (; i < i1; ++i) traceCell(vel, s, i, j, k, out);
}
#if PLUME_HAS_AVX2_PATHS
PLUME_AVX2 void traceRow8(const Centred& vel, float s, int i0, int i1, int j, int k,
                          float* out) {
    int i = traceCellsN<simd::F8>(vel, s, i0, i1, j, k, out);
    i = traceCellsN<F4>(vel, s, i, i1, j, k, out);
    for (; i < i1; ++i) traceCell(vel, s, i, j, k, out);
}
#else
void traceRow8(const Centred& vel, float s, int i0, int i1, int j, int k, float* out) {
    traceRow4(vel, s, i0, i1, j, k, out);
}
#endif
inline void traceRow(const Centred& vel, float s, int i0, int i1, int j, int k, float* out) {
    if (simd::avx2())
        traceRow8(vel, s, i0, i1, j, k, out);
    else
        traceRow4(vel, s, i0, i1, j, k, out);
}

// ---- one MacCormack field, four or eight points at a time -------------------
// The passes' arithmetic in the order of the one-point code, lane by lane.

// What the wide passes over one field read and write.
struct WideField {
    const Centred* displacement;
    SampleLayout shape;
    Vec3f off;
    const float* src;
    float* hat;
    float *lo, *hi;  // the limiter's bounds
    float* dst;
    bool revert;  // Limiter::Revert
};

// Stencils of points i.. of row (j, k) moved back (sign -1) or forward (+1)
// by their displacement; the sign flip is exact, and so are the lane
// positions (small integers).
template <typename V>
[[gnu::always_inline]] inline StencilN<V> movedStencils(const WideField& f, int i, int j, int k,
                                                        float sign) {
    V dx, dy, dz;
    if constexpr (simd::kLanes<V> == 4) {
        f.displacement->at4(i, j, k, dx, dy, dz);
    } else {
        F4 x0, y0, z0, x1, y1, z1;
        f.displacement->at4(i, j, k, x0, y0, z0);
        f.displacement->at4(i + 4, j, k, x1, y1, z1);
        dx = simd::concat(x0, x1), dy = simd::concat(y0, y1), dz = simd::concat(z0, z1);
    }
    V lane;
    for (int l = 0; l < simd::kLanes<V>; ++l) lane[l] = float(l);
    return stencilN(f.shape, (simd::broadcast<V>(float(i)) + lane + f.off.x) + dx * sign,
                    simd::broadcast<V>(j + f.off.y) + dy * sign,
                    simd::broadcast<V>(k + f.off.z) + dz * sign);
}

// The backtrace of points i.. of row (j, k) while a whole vector fits
// before i1; returns the first point left.
template <typename V>
[[gnu::always_inline]] inline int firstPassN(const WideField& f, int i, int i1, int j, int k,
                                             size_t row) {
    for (; i + simd::kLanes<V> <= i1; i += simd::kLanes<V>) {
        const StencilN<V> st = movedStencils<V>(f, i, j, k, -1.0f);
        V lo, hi;
        simd::storeN(f.hat + row + i, blendN(f.src, st, &lo, &hi));
        simd::storeN(f.lo + row + i, lo);
        simd::storeN(f.hi + row + i, hi);
    }
    return i;
}

// The forward step and the limiter, likewise.
template <typename V>
[[gnu::always_inline]] inline int secondPassN(const WideField& f, int i, int i1, int j, int k,
                                              size_t row) {
    for (; i + simd::kLanes<V> <= i1; i += simd::kLanes<V>) {
        const StencilN<V> forward = movedStencils<V>(f, i, j, k, 1.0f);
        const V hat = simd::loadN<V>(f.hat + row + i);
        const V back = blendN<V>(f.hat, forward, nullptr, nullptr);
        const V value = hat + 0.5f * (simd::loadN<V>(f.src + row + i) - back);
        const V lo = simd::loadN<V>(f.lo + row + i), hi = simd::loadN<V>(f.hi + row + i);
        const V clamped = simd::clamp(value, lo, hi);
        simd::storeN(f.dst + row + i, f.revert ? ((value < lo) | (hi < value) ? hat : clamped)
                                               : clamped);
    }
    return i;
}

// Several fields sharing one trace: each reads its own values through the
// same stencils, and keeps no bounds (the second pass blends them again).
struct WideFields {
    WideField at;  // the displacement, the grid shape and offset; revert
    int count;
    const float* src[Advector::kMaxFields];
    float* out[Advector::kMaxFields];  // the forward steps, or the results without MacCormack
    float* dst[Advector::kMaxFields];
};

// The fields in `fields` (bit c for field c) at points i..i+W-1 of row (j, k).
template <typename V>
[[gnu::always_inline]] inline void firstPassFieldsN(const WideFields& f, unsigned fields, int i,
                                                    int j, int k, size_t row) {
    const StencilN<V> st = movedStencils<V>(f.at, i, j, k, -1.0f);
    for (int c = 0; c < f.count; ++c)
        if (fields >> c & 1)
            simd::storeN(f.out[c] + row + i, blendN<V>(f.src[c], st, nullptr, nullptr));
}
template <typename V>
[[gnu::always_inline]] inline void secondPassFieldsN(const WideFields& f, unsigned fields, int i,
                                                     int j, int k, size_t row) {
    const StencilN<V> forward = movedStencils<V>(f.at, i, j, k, 1.0f);
    const StencilN<V> from = movedStencils<V>(f.at, i, j, k, -1.0f);
    for (int c = 0; c < f.count; ++c) {
        if (!(fields >> c & 1)) continue;
        const V hat = simd::loadN<V>(f.out[c] + row + i);
        const V back = blendN<V>(f.out[c], forward, nullptr, nullptr);
        const V value = hat + 0.5f * (simd::loadN<V>(f.src[c] + row + i) - back);
        V lo, hi;
        blendN<V>(f.src[c], from, &lo, &hi);
        const V clamped = simd::clamp(value, lo, hi);
        simd::storeN(f.dst[c] + row + i, f.at.revert ? ((value < lo) | (hi < value) ? hat : clamped)
                                                     : clamped);
    }
}

void firstPassFields4(const WideFields& f, unsigned fields, int i, int j, int k, size_t row) {
    firstPassFieldsN<F4>(f, fields, i, j, k, row);
}
void secondPassFields4(const WideFields& f, unsigned fields, int i, int j, int k, size_t row) {
    secondPassFieldsN<F4>(f, fields, i, j, k, row);
}
#if PLUME_HAS_AVX2_PATHS
PLUME_AVX2 void firstPassFields8(const WideFields& f, unsigned fields, int i, int j, int k,
                                 size_t row) {
    firstPassFieldsN<simd::F8>(f, fields, i, j, k, row);
}
PLUME_AVX2 void secondPassFields8(const WideFields& f, unsigned fields, int i, int j, int k,
                                  size_t row) {
    secondPassFieldsN<simd::F8>(f, fields, i, j, k, row);
}
#else
void firstPassFields8(const WideFields&, unsigned, int, int, int, size_t) {}
void secondPassFields8(const WideFields&, unsigned, int, int, int, size_t) {}
#endif

int firstPass(const WideField& f, int i, int i1, int j, int k, size_t row) {
    return firstPassN<F4>(f, i, i1, j, k, row);
}
int secondPass(const WideField& f, int i, int i1, int j, int k, size_t row) {
    return secondPassN<F4>(f, i, i1, j, k, row);
}
#if PLUME_HAS_AVX2_PATHS
PLUME_AVX2 int firstPassAvx2(const WideField& f, int i, int i1, int j, int k, size_t row) {
    i = firstPassN<simd::F8>(f, i, i1, j, k, row);
    return firstPassN<F4>(f, i, i1, j, k, row);
}
PLUME_AVX2 int secondPassAvx2(const WideField& f, int i, int i1, int j, int k, size_t row) {
    i = secondPassN<simd::F8>(f, i, i1, j, k, row);
    return secondPassN<F4>(f, i, i1, j, k, row);
}
#else
int firstPassAvx2(const WideField& f, int i, int i1, int j, int k, size_t row) {
    return firstPass(f, i, i1, j, k, row);
}
int secondPassAvx2(const WideField& f, int i, int i1, int j, int k, size_t row) {
    return secondPass(f, i, i1, j, k, row);
}
#endif

// Calls body(i0, i1, j, k) for each row segment of `box`, slabs in parallel.
template <typename F>
void forRows(const Box3i& box, F&& body) {
    if (box.empty()) return;
    parallelForSlabs(box.hi.z - box.lo.z, [&](int kk) {
        const int k = box.lo.z + kk;
        for (int j = box.lo.y; j < box.hi.y; ++j) body(box.lo.x, box.hi.x, j, k);
    });
}

}  // namespace

// The span lists of advect()'s regions, kept so a substep allocates none.
struct Advector::Regions {
    std::array<Region, kMaxFields> active, results, firsts;
    Region alongY, traced;
};

Advector::Advector() : regions_(std::make_unique<Regions>()) {}
Advector::~Advector() = default;

void Advector::setVelocity(const MacVelocity& f, float dx, ScratchArena::Lease* lease) {
    if (!lease) {
        if (!ownArena_) ownArena_ = std::make_unique<ScratchArena>();
        ownLease_.reset();  // close the last one first: one lease at a time
        lease = &ownLease_.emplace(*ownArena_);
    }
    lease_ = lease;
    n_ = {f.u.nx() - 1, f.u.ny(), f.u.nz()};
    dx_ = dx;
    centred_ = lease->take<float>(centredBytes(n_) / sizeof(float));
    displacement_ = lease->take<float>(sampleBytes(n_) / sizeof(float));
    centredSpent_ = false;
    for (float*& h : hat_) h = nullptr;
    rangeLo_ = rangeHi_ = nullptr;
    hatSize_ = rangeSize_ = 0;
    // Each slab's centred samples, and the largest component among them.
    // (A lane's running max takes a value only when it is greater, as
    // std::max does: NaNs are passed over, and the max is the same in any
    // order.)
    auto centreSlab = [&](int k) {
        float m = 0.0f;
        for (int j = 0; j < n_.y; ++j) {
            float* out = &centred_[3 * (size_t(k) * n_.y + j) * n_.x];
            const float *u = &f.u(0, j, k), *v0 = &f.v(0, j, k), *v1 = &f.v(0, j + 1, k);
            const float *w0 = &f.w(0, j, k), *w1 = &f.w(0, j, k + 1);
            F4 m4{};
            int i = 0;
            for (; i + 4 <= n_.x; i += 4) {
                const F4 x = 0.5f * (simd::load(u + i) + simd::load(u + i + 1));
                const F4 y = 0.5f * (simd::load(v0 + i) + simd::load(v1 + i));
                const F4 z = 0.5f * (simd::load(w0 + i) + simd::load(w1 + i));
                for (const F4 a : {simd::abs(x), simd::abs(y), simd::abs(z)}) m4 = m4 < a ? a : m4;
                // x y z per cell: x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3.
                const F4 xy01 = __builtin_shufflevector(x, y, 0, 4, 1, 5);
                const F4 xy23 = __builtin_shufflevector(x, y, 2, 6, 3, 7);
                const F4 yz1 = __builtin_shufflevector(y, z, 1, 5, 1, 5);
                float* o = out + 3 * i;
                simd::store(o, __builtin_shufflevector(xy01, z, 0, 1, 4, 2));
                simd::store(o + 4, __builtin_shufflevector(yz1, xy23, 0, 1, 4, 5));
                simd::store(o + 8, __builtin_shufflevector(z, xy23, 2, 6, 7, 3));
            }
            m = std::max({m, m4[0], m4[1], m4[2], m4[3]});
            for (; i < n_.x; ++i) {
                Vec3f v = f.centredVelocity(i, j, k);
                store3(out + 3 * i, F4{v.x, v.y, v.z, 0.0f});
                m = std::max({m, std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
            }
        }
        return m;
    };
    maxComponent_ = deterministicReduce(n_.z, 0.0f, centreSlab, maxOf<float>);
    displacementBox_ = Box3i{};
}

void Advector::traceCells(float s, const Box3i& cells) {
    if (s == displacementS_ && displacementBox_.contains(cells)) return;
    if (centredSpent_) throw std::logic_error("Advector: retrace after the forward steps");
    const Centred vel(centred_, n_, Vec3f(0.5f));
    forRows(cells, [&](int i0, int i1, int j, int k) {
        traceRow(vel, s, i0, i1, j, k, &displacement_[3 * (size_t(k) * n_.y + j) * n_.x]);
    });
    displacementS_ = s;
    displacementBox_ = cells;
}

void Advector::takeSteps(int count, size_t values) {
    if (hatSize_ == 0) {
        // The first MacCormack call through this velocity: every forward step
        // it and the calls after it need (the other two components, which
        // trace nothing new). The traces now hold all the centred velocity
        // gave, so the steps take its bytes when they fit, else the lease's.
        hatSize_ = size_t(stepValues(n_, count));
        rangeSize_ = count == 1 ? hatSize_ : 0;
        const bool reuse = stepBytes(n_, count) <= centredBytes(n_);
        auto* bytes = reinterpret_cast<std::byte*>(centred_);
        auto take = [&](size_t size) -> std::byte* {
            if (!reuse) return lease_->take<std::byte>(size);
            std::byte* p = bytes;
            bytes += ScratchArena::rounded(size);
            return p;
        };
        for (int c = 0; c < count; ++c)
            hat_[c] = reinterpret_cast<float*>(take(hatSize_ * sizeof(float)));
        if (rangeSize_) {
            rangeLo_ = reinterpret_cast<float*>(take(rangeSize_ * 2 * sizeof(float)));
            rangeHi_ = rangeLo_ + rangeSize_;
        }
        centredSpent_ = reuse;
    }
    if (values > hatSize_ || (count == 1 && !rangeLo_) || !hat_[count - 1])
        throw std::logic_error("Advector: a call through this velocity needs other forward steps");
}

void Advector::advect(AdvectionScheme scheme, const ScalarGrid* const* src, ScalarGrid* const* dst,
                      int count, float dt, Limiter limiter, const float* background) {
    const ScalarGrid& g = *src[0];
    const Vec3i dims{g.nx(), g.ny(), g.nz()};
    const Vec3f off = g.offset();
    const float s = dt / dx_;
    const bool mac = scheme == AdvectionScheme::MacCormack;
    const SampleLayout shape = g.layout();
    // One field at a time keeps its limiter bounds from the first pass, where
    // the blend has the eight values at hand. Several fields in one call
    // share each point's stencils and take their bounds again in the second
    // pass (grid-sized bounds for each would be more memory than a copy).
    if (count < 1 || count > kMaxFields)
        throw std::invalid_argument("Advector::advect: 1 to 4 fields per call");
    // In place, the fields go one after another, each keeping its bounds:
    // past the first pass a field is read only at the point being written.
    const bool inPlace = src[0] == dst[0];
    for (int c = 0; c < count; ++c)
        if ((src[c] == dst[c]) != inPlace)
            throw std::invalid_argument("Advector::advect: all fields in place, or none");
    if (!lease_) throw std::logic_error("Advector::advect before setVelocity");
    // Per field, `results`: the cells whose value can change; `firsts`: the
    // cells the first pass must cover for the second to read only what it
    // wrote. Each field keeps its own region (fuel spreads wider than smoke),
    // row by row (a plume fills little of its bounding box); `result` and
    // `first` bound them all, and a point is traced once for every field whose
    // region holds it.
    // (The regions' span lists are the Advector's, kept from call to call.)
    std::array<Region, kMaxFields>& results = regions_->results;
    std::array<Region, kMaxFields>& firsts = regions_->firsts;
    Box3i result{{0, 0, 0}, dims};
    Box3i first = result;
    if (background) {
        // A trace moves at most maxComponent * |s| cells per axis, and a blend
        // reads one cell beyond; one more absorbs rounding.
        const int reach = int(std::ceil(maxComponent_ * std::fabs(s))) + 2;
        std::array<Region, kMaxFields>& active = regions_->active;
        activeRegions(src, count, background, active.data());
        result = first = Box3i{};
        for (int c = 0; c < count; ++c) {
            grow(active[c], reach, dims, results[c], regions_->alongY);
            if (mac)
                grow(results[c], reach, dims, firsts[c], regions_->alongY);
            else
                firsts[c] = results[c];
            result = unite(result, results[c].bounds);
            first = unite(first, firsts[c].bounds);
        }
    }
    // The parts [lo, hi) of row segment [i0, i1) of (j, k) that each field
    // covers in its region (all of it without a background), and the span of
    // them all.
    struct RowParts {
        int lo[kMaxFields], hi[kMaxFields];
        int spanLo, spanHi;
    };

    // The sample points' displacements: traced once per cell, a face taking
    // the mean of the two cells it lies between (so the three velocity
    // components share one trace per cell instead of one each).
    if (background && dims == n_) {
        // Cell-centred fields: only the rows' spans that some field's first
        // pass covers (and a cell beyond); the cache then holds no box.
        Region& firstOfAll = regions_->active[0];  // spent: the regions are grown
        firstOfAll = firsts[0];
        for (int c = 1; c < count; ++c)
            for (size_t r = 0; r < firstOfAll.spans.size(); ++r)
                hull(firstOfAll.spans[r], firsts[c].spans[r]);
        firstOfAll.bounds = first;
        Region& traced = regions_->traced;
        grow(firstOfAll, 1, n_, traced, regions_->alongY);
        if (centredSpent_) throw std::logic_error("Advector: retrace after the forward steps");
        const Centred vel(centred_, n_, Vec3f(0.5f));
        forRows(traced.bounds, [&](int, int, int j, int k) {
            const Region::Span sp = traced.at(j, k);
            traceRow(vel, s, sp.lo, sp.hi, j, k,
                     &displacement_[3 * (size_t(k) * n_.y + j) * n_.x]);
        });
        displacementS_ = s;
        displacementBox_ = Box3i{};
    } else {
        traceCells(s, grow(first, 1, n_));
    }
    const Centred displacement(displacement_, n_, off);
    if (mac || inPlace) takeSteps(inPlace ? 1 : count, g.size());
    const bool avx2 = simd::avx2();

    // The passes over `fields` fields from `from` into `to`, each field within
    // its regions (with a background) and all within the boxes.
    auto passes = [&](const ScalarGrid* const* from, ScalarGrid* const* to, int fields,
                      const Region* firstRegions, const Region* resultRegions,
                      const Box3i& firstBox, const Box3i& resultBox) {
        const bool keepRange = fields == 1;
        // Where the first pass writes: the forward steps, or for a
        // semi-Lagrangian step the result (in place: the step's room, copied
        // over afterwards).
        float* out[kMaxFields] = {};
        for (int c = 0; c < fields; ++c)
            out[c] = mac || inPlace ? hat_[c] : to[c]->data();
        auto rowParts = [&](const Region* regions, int i0, int i1, int j, int k) {
            RowParts p;
            p.spanLo = i1, p.spanHi = i0;
            for (int c = 0; c < fields; ++c) {
                p.lo[c] = i0, p.hi[c] = i1;
                if (background) {
                    const Region::Span sp = regions[c].at(j, k);
                    p.lo[c] = std::max(i0, sp.lo);
                    p.hi[c] = std::max(p.lo[c], std::min(i1, sp.hi));
                }
                if (p.lo[c] < p.hi[c])
                    p.spanLo = std::min(p.spanLo, p.lo[c]), p.spanHi = std::max(p.spanHi, p.hi[c]);
            }
            return p;
        };

        // One MacCormack field (a velocity component, the bulk of the work)
        // runs four or eight points at a time; the rest, and each row's last
        // few, one at a time.
        const bool fourWide = mac && keepRange;
        const WideField wide{&displacement, shape,     off,       from[0]->data(),
                             hat_[0],       rangeLo_,  rangeHi_,  fourWide ? to[0]->data() : nullptr,
                             limiter == Limiter::Revert};

        // Several fields (or one without MacCormack) run four or eight points
        // at a time where each field's part of the row holds all of them or
        // none.
        const bool manyWide = !keepRange || !mac;
        WideFields many{wide, fields, {}, {}, {}};
        for (int c = 0; c < fields; ++c) {
            many.src[c] = from[c]->data();
            many.out[c] = out[c];
            many.dst[c] = to[c]->data();
        }
        // The points a block at i takes (8 with AVX2, else 4; 0 for none): as
        // many as fit before i1 without cutting across a field's part.
        auto blockLanes = [&](const RowParts& part, int i, int i1) {
            for (int lanes = avx2 ? 8 : 4; lanes >= 4; lanes -= 4) {
                if (i + lanes > i1) continue;
                bool whole = true;
                for (int c = 0; c < fields; ++c) {
                    const bool none =
                        part.hi[c] <= part.lo[c] || part.hi[c] <= i || i + lanes <= part.lo[c];
                    const bool all = part.lo[c] <= i && i + lanes <= part.hi[c];
                    whole = whole && (none || all);
                }
                if (whole) return lanes;
            }
            return 0;
        };
        auto blockFields = [&](const RowParts& part, int i, int lanes) {
            unsigned set = 0;
            for (int c = 0; c < fields; ++c)
                if (part.lo[c] <= i && i + lanes <= part.hi[c]) set |= 1u << c;
            return set;
        };
        // The first or second pass of several fields over a block at i, where
        // one fits; its points, or 0.
        using FieldsPass = void (*)(const WideFields&, unsigned, int, int, int, size_t);
        auto manyBlock = [&](const RowParts& part, int i, int i1, int j, int k, size_t row,
                             FieldsPass pass8, FieldsPass pass4) {
            const int lanes = manyWide ? blockLanes(part, i, i1) : 0;
            if (lanes) (lanes == 8 ? pass8 : pass4)(many, blockFields(part, i, lanes), i, j, k, row);
            return lanes;
        };

        // Backtrace each sample point; every field reads the same stencil.
        forRows(firstBox, [&](int i0, int i1, int j, int k) {
            const size_t row = g.index(0, j, k);
            const RowParts part = rowParts(firstRegions, i0, i1, j, k);
            int i = part.spanLo;
            i1 = part.spanHi;
            if (fourWide)
                i = avx2 ? firstPassAvx2(wide, i, i1, j, k, row) : firstPass(wide, i, i1, j, k, row);
            for (; i < i1; ++i) {
                if (const int lanes =
                        manyBlock(part, i, i1, j, k, row, firstPassFields8, firstPassFields4)) {
                    i += lanes - 1;
                    continue;
                }
                const Vec3f pGrid{i + off.x, j + off.y, k + off.z};
                const Stencil st = shape.stencil(pGrid - displacement.at(i, j, k));
                for (int c = 0; c < fields; ++c) {
                    if (i < part.lo[c] || i >= part.hi[c]) continue;
                    if (mac && keepRange)
                        out[c][row + i] = blendWithRange(from[c]->data(), st, rangeLo_[row + i],
                                                         rangeHi_[row + i]);
                    else
                        out[c][row + i] = blend(from[c]->data(), st);
                }
            }
        });

        if (!mac) {
            if (inPlace)  // the step's room back into the field
                forRows(firstBox, [&](int i0, int i1, int j, int k) {
                    const size_t row = g.index(0, j, k);
                    const RowParts part = rowParts(firstRegions, i0, i1, j, k);
                    if (part.spanLo < part.spanHi)
                        std::copy(out[0] + row + part.spanLo, out[0] + row + part.spanHi,
                                  to[0]->data() + row + part.spanLo);
                });
            return;
        }

        // Step forward from each point through the forward step to estimate
        // the error and remove half of it; where that leaves the range of the
        // values the backtrace blended, clamp to it or fall back to the
        // semi-Lagrangian value. The forward step mirrors the backtrace (x +
        // displacement) instead of tracing again: the same reversal to first
        // order in the velocity gradient, exact for a uniform flow, for a third
        // of the pass's work. Each point reads its own source value and writes
        // only its own result, so `to` may be `from`.
        forRows(resultBox, [&](int i0, int i1, int j, int k) {
            const size_t row = g.index(0, j, k);
            const RowParts part = rowParts(resultRegions, i0, i1, j, k);
            int i = part.spanLo;
            i1 = part.spanHi;
            if (fourWide)
                i = avx2 ? secondPassAvx2(wide, i, i1, j, k, row)
                         : secondPass(wide, i, i1, j, k, row);
            for (; i < i1; ++i) {
                if (const int lanes =
                        manyBlock(part, i, i1, j, k, row, secondPassFields8, secondPassFields4)) {
                    i += lanes - 1;
                    continue;
                }
                const Vec3f pGrid{i + off.x, j + off.y, k + off.z};
                const Vec3f d = displacement.at(i, j, k);
                const Stencil forward = shape.stencil(pGrid + d);
                const Stencil back = keepRange ? Stencil{} : shape.stencil(pGrid - d);
                for (int c = 0; c < fields; ++c) {
                    if (i < part.lo[c] || i >= part.hi[c]) continue;
                    float hat = out[c][row + i];
                    float there = blend(out[c], forward);
                    float value = hat + 0.5f * ((*from[c])[row + i] - there);
                    float lo, hi;
                    if (keepRange)
                        lo = rangeLo_[row + i], hi = rangeHi_[row + i];
                    else
                        blendWithRange(from[c]->data(), back, lo, hi);
                    (*to[c])[row + i] = (limiter == Limiter::Revert && (value < lo || value > hi))
                                            ? hat
                                            : std::clamp(value, lo, hi);
                }
            }
        });
    };

    if (inPlace) {
        for (int c = 0; c < count; ++c)
            passes(src + c, dst + c, 1, &firsts[c], &results[c],
                   background ? firsts[c].bounds : first, background ? results[c].bounds : result);
    } else {
        passes(src, dst, count, firsts.data(), results.data(), first, result);
    }

    if (background)
        for (int c = 0; c < count; ++c) fillOutside(*dst[c], results[c], background[c]);
}

}  // namespace plume
