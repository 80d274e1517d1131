#include "sim/advection.h"

#include <algorithm>
#include <cmath>

#include "core/parallel.h"

namespace plume {

namespace {

using Box = Advector::Box;

// The 2x2x2 stencil around a point: the element index of its low corner, the
// element steps along each axis (0 on a one-sample axis) and the weights.
struct Stencil {
    ptrdiff_t at = 0, dx = 0, dy = 0, dz = 0;
    float fx = 0, fy = 0, fz = 0;
};

// Clamps one coordinate to the samples and splits it into cell and fraction.
[[gnu::always_inline]] inline void axis(float x, int n, ptrdiff_t stride, float& frac,
                                        ptrdiff_t& step, ptrdiff_t& at) {
    if (n <= 1) return;
    x = std::clamp(x, 0.0f, float(n - 1));
    int i = std::min(int(x), n - 2);
    frac = x - float(i);
    step = stride;
    at += ptrdiff_t(i) * stride;
}

// Where the samples of one grid sit: its size, strides and offset.
struct GridShape {
    int nx, ny, nz;
    ptrdiff_t sy, sz;
    Vec3f off;

    GridShape(int nx_, int ny_, int nz_, Vec3f off_)
        : nx(nx_), ny(ny_), nz(nz_), sy(nx_), sz(ptrdiff_t(nx_) * ny_), off(off_) {}
    explicit GridShape(const ScalarGrid& g) : GridShape(g.nx(), g.ny(), g.nz(), g.offset()) {}

    [[gnu::always_inline]] Stencil stencil(Vec3f pGrid) const {
        Stencil s;
        axis(pGrid.x - off.x, nx, 1, s.fx, s.dx, s.at);
        axis(pGrid.y - off.y, ny, sy, s.fy, s.dy, s.at);
        axis(pGrid.z - off.z, nz, sz, s.fz, s.dz, s.at);
        return s;
    }
};

// Trilinear blend of floats or of four-float vectors (one lane per component).
template <typename T>
[[gnu::always_inline]] inline T blend(const T* base, const Stencil& s) {
    const T* p = base + s.at;
    T c00 = p[0] + (p[s.dx] - p[0]) * s.fx;
    T c10 = p[s.dy] + (p[s.dy + s.dx] - p[s.dy]) * s.fx;
    T c01 = p[s.dz] + (p[s.dz + s.dx] - p[s.dz]) * s.fx;
    T c11 = p[s.dz + s.dy] + (p[s.dz + s.dy + s.dx] - p[s.dz + s.dy]) * s.fx;
    T c0 = c00 + (c10 - c00) * s.fy;
    T c1 = c01 + (c11 - c01) * s.fy;
    return c0 + (c1 - c0) * s.fz;
}

// The lesser and greater of two values as std::min and std::max pick them,
// for floats, or lane by lane for vectors.
template <typename T>
[[gnu::always_inline]] inline T lesser(T a, T b) { return b < a ? b : a; }
template <typename T>
[[gnu::always_inline]] inline T greater(T a, T b) { return a < b ? b : a; }

// Trilinear blend of the eight corners v of a cell (x fastest, then y, z), and
// their range (MacCormack's limiter bounds); for one point or four at once.
template <typename T>
[[gnu::always_inline]] inline T trilinear(const T* v, T fx, T fy, T fz) {
    T c00 = v[0] + (v[1] - v[0]) * fx;
    T c10 = v[2] + (v[3] - v[2]) * fx;
    T c01 = v[4] + (v[5] - v[4]) * fx;
    T c11 = v[6] + (v[7] - v[6]) * fx;
    T c0 = c00 + (c10 - c00) * fy;
    T c1 = c01 + (c11 - c01) * fy;
    return c0 + (c1 - c0) * fz;
}
template <typename T>
[[gnu::always_inline]] inline void cornerRange(const T* v, T& lo, T& hi) {
    lo = lesser(lesser(lesser(v[0], v[1]), lesser(v[2], v[3])),
                lesser(lesser(v[4], v[5]), lesser(v[6], v[7])));
    hi = greater(greater(greater(v[0], v[1]), greater(v[2], v[3])),
                 greater(greater(v[4], v[5]), greater(v[6], v[7])));
}

// A blend that also gives the range of the eight values it reads, while they
// are in registers.
[[gnu::always_inline]] inline float blendWithRange(const float* base, const Stencil& s,
                                                   float& lo, float& hi) {
    const float* p = base + s.at;
    const float v[8] = {p[0],    p[s.dx],        p[s.dy],        p[s.dy + s.dx],
                        p[s.dz], p[s.dz + s.dx], p[s.dz + s.dy], p[s.dz + s.dy + s.dx]};
    cornerRange(v, lo, hi);
    return trilinear(v, s.fx, s.fy, s.fz);
}

inline Vec3f xyz(Float4 v) { return {v[0], v[1], v[2]}; }

// Four consecutive sample points of a row at once: the same arithmetic as
// GridShape::stencil and blendWithRange, lane by lane, so the results are
// bit for bit those of the one-point code (the golden frames check it), with
// the index and weight work in vector registers and only the loads per lane.
using Int4 = int __attribute__((vector_size(16)));

inline Float4 splat(float v) { return Float4{v, v, v, v}; }
inline Float4 clamp4(Float4 x, Float4 lo, Float4 hi) { return x < lo ? lo : (hi < x ? hi : x); }

struct Stencil4 {
    Int4 at{};
    ptrdiff_t dx = 0, dy = 0, dz = 0;
    Float4 fx{}, fy{}, fz{};
};

[[gnu::always_inline]] inline void axis4(Float4 x, int n, ptrdiff_t stride, Float4& frac,
                                         ptrdiff_t& step, Int4& at) {
    if (n <= 1) return;
    x = clamp4(x, Float4{}, splat(float(n - 1)));
    Int4 i = __builtin_convertvector(x, Int4);
    const Int4 last = {n - 2, n - 2, n - 2, n - 2};
    i = last < i ? last : i;
    frac = x - __builtin_convertvector(i, Float4);
    step = stride;
    at += i * int(stride);
}

[[gnu::always_inline]] inline Stencil4 stencil4(const GridShape& g, Float4 x, Float4 y, Float4 z) {
    Stencil4 s;
    axis4(x - g.off.x, g.nx, 1, s.fx, s.dx, s.at);
    axis4(y - g.off.y, g.ny, g.sy, s.fy, s.dy, s.at);
    axis4(z - g.off.z, g.nz, g.sz, s.fz, s.dz, s.at);
    return s;
}

// blendWithRange for four points; lo and hi may be null.
[[gnu::always_inline]] inline Float4 blend4(const float* base, const Stencil4& s, Float4* lo,
                                            Float4* hi) {
    const float* p[4] = {base + s.at[0], base + s.at[1], base + s.at[2], base + s.at[3]};
    const ptrdiff_t corner[8] = {0,    s.dx,        s.dy,        s.dy + s.dx,
                                 s.dz, s.dz + s.dx, s.dz + s.dy, s.dz + s.dy + s.dx};
    Float4 v[8];
    for (int c = 0; c < 8; ++c) v[c] = Float4{p[0][corner[c]], p[1][corner[c]], p[2][corner[c]], p[3][corner[c]]};
    if (lo) cornerRange(v, *lo, *hi);
    return trilinear(v, s.fx, s.fy, s.fz);
}

inline Float4 load4(const float* p) {
    Float4 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
inline void store4(float* p, Float4 v) { __builtin_memcpy(p, &v, sizeof v); }

// Four-float samples at the cell centres (the velocity, or the backtrace
// displacement): anywhere by one vector blend, and at the sample points of one
// grid shape exactly (a centre, or the mean of the two cells a face lies
// between).
class Centred {
public:
    Centred(const std::vector<Float4>& c, Vec3i n, Vec3f sampleOffset)
        : c_(c.data()), shape_(n.x, n.y, n.z, Vec3f(0.5f)) {
        for (int a = 0; a < 3; ++a)
            if (sampleOffset[a] == 0.0f) face_ = a;
    }
    [[gnu::always_inline]] Vec3f operator()(Vec3f pGrid) const {
        return xyz(blend(c_, shape_.stencil(pGrid)));
    }
    [[gnu::always_inline]] Vec3f at(int i, int j, int k) const { return xyz(at4(i, j, k)); }
    [[gnu::always_inline]] Float4 at4(int i, int j, int k) const {
        int lo[3] = {i, j, k}, hi[3] = {i, j, k};
        if (face_ >= 0) {
            const int n = face_ == 0 ? shape_.nx : (face_ == 1 ? shape_.ny : shape_.nz);
            lo[face_] = std::max(lo[face_] - 1, 0);
            hi[face_] = std::min(hi[face_], n - 1);
        }
        Float4 a = c_[lo[2] * shape_.sz + lo[1] * shape_.sy + lo[0]];
        Float4 b = c_[hi[2] * shape_.sz + hi[1] * shape_.sy + hi[0]];
        return 0.5f * (a + b);
    }
    // The samples at points i..i+3 of row (j, k), one coordinate per vector.
    [[gnu::always_inline]] void at4(int i, int j, int k, Float4& x, Float4& y, Float4& z) const {
        const Float4 d0 = at4(i, j, k), d1 = at4(i + 1, j, k), d2 = at4(i + 2, j, k),
                     d3 = at4(i + 3, j, k);
        x = Float4{d0[0], d1[0], d2[0], d3[0]};
        y = Float4{d0[1], d1[1], d2[1], d3[1]};
        z = Float4{d0[2], d1[2], d2[2], d3[2]};
    }

private:
    const Float4* c_;
    GridShape shape_;
    int face_ = -1;  // the axis a face grid is staggered along, or -1
};

// RK2 (midpoint) departure point of the fluid at pGrid whose velocity is v0;
// s = dt / dx.
[[gnu::always_inline]] inline Vec3f trace(const Centred& vel, Vec3f pGrid, Vec3f v0, float s) {
    Vec3f mid = pGrid - v0 * (0.5f * s);
    return pGrid - vel(mid) * s;
}

// Cells where any of `count` fields differs from its background.
Box activeBox(const ScalarGrid* const* src, int count, const float* background) {
    const ScalarGrid& g = *src[0];
    const int nx = g.nx(), ny = g.ny(), nz = g.nz();
    // Per-slab boxes, merged afterwards: min and max do not depend on order.
    std::vector<Box> slab(size_t(nz), Box{{nx, ny, nz}, {0, 0, 0}});
    parallelForSlabs(nz, [&](int k) {
        Box& b = slab[size_t(k)];
        for (int j = 0; j < ny; ++j)
            for (int c = 0; c < count; ++c) {
                const float* row = &(*src[c])(0, j, k);
                const float bg = background[c];
                int first = 0, last = nx - 1;
                while (first < nx && row[first] == bg) ++first;
                if (first == nx) continue;
                while (row[last] == bg) --last;
                b.lo = {std::min(b.lo.x, first), std::min(b.lo.y, j), k};
                b.hi = {std::max(b.hi.x, last + 1), std::max(b.hi.y, j + 1), k + 1};
            }
    });
    Box box{{nx, ny, nz}, {0, 0, 0}};
    for (const Box& b : slab) {
        if (b.empty()) continue;
        box.lo = {std::min(box.lo.x, b.lo.x), std::min(box.lo.y, b.lo.y), std::min(box.lo.z, b.lo.z)};
        box.hi = {std::max(box.hi.x, b.hi.x), std::max(box.hi.y, b.hi.y), std::max(box.hi.z, b.hi.z)};
    }
    return box;
}

bool contains(const Box& outer, const Box& inner) {
    return inner.empty() || (!outer.empty() && outer.lo.x <= inner.lo.x && outer.lo.y <= inner.lo.y &&
                             outer.lo.z <= inner.lo.z && inner.hi.x <= outer.hi.x &&
                             inner.hi.y <= outer.hi.y && inner.hi.z <= outer.hi.z);
}

Box grow(Box b, int by, Vec3i n) {
    if (b.empty()) return b;
    return {{std::max(b.lo.x - by, 0), std::max(b.lo.y - by, 0), std::max(b.lo.z - by, 0)},
            {std::min(b.hi.x + by, n.x), std::min(b.hi.y + by, n.y), std::min(b.hi.z + by, n.z)}};
}

// Sets every cell of g outside `box` to `value`.
void fillOutside(ScalarGrid& g, const Box& box, float value) {
    const int nx = g.nx(), ny = g.ny();
    parallelForSlabs(g.nz(), [&](int k) {
        for (int j = 0; j < ny; ++j) {
            float* row = &g(0, j, k);
            if (box.empty() || k < box.lo.z || k >= box.hi.z || j < box.lo.y || j >= box.hi.y) {
                std::fill(row, row + nx, value);
                continue;
            }
            std::fill(row, row + box.lo.x, value);
            std::fill(row + box.hi.x, row + nx, value);
        }
    });
}

// Calls body(i0, i1, j, k) for each row segment of `box`, slabs in parallel.
template <typename F>
void forRows(const Box& box, F&& body) {
    if (box.empty()) return;
    parallelForSlabs(box.hi.z - box.lo.z, [&](int kk) {
        const int k = box.lo.z + kk;
        for (int j = box.lo.y; j < box.hi.y; ++j) body(box.lo.x, box.hi.x, j, k);
    });
}

}  // namespace

void Advector::setVelocity(const Fields& f) {
    n_ = {f.u.nx() - 1, f.u.ny(), f.u.nz()};
    dx_ = f.dx;
    centred_.resize(size_t(n_.x) * n_.y * n_.z);
    std::vector<float> slabMax(size_t(n_.z), 0.0f);
    parallelForSlabs(n_.z, [&](int k) {
        float m = 0.0f;
        for (int j = 0; j < n_.y; ++j) {
            Float4* out = &centred_[(size_t(k) * n_.y + j) * n_.x];
            for (int i = 0; i < n_.x; ++i) {
                Vec3f v = f.centredVelocity(i, j, k);
                out[i] = Float4{v.x, v.y, v.z, 0.0f};
                m = std::max({m, std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
            }
        }
        slabMax[size_t(k)] = m;
    });
    maxComponent_ = slabMax.empty() ? 0.0f : *std::max_element(slabMax.begin(), slabMax.end());
    displacementBox_ = Box{};
}

void Advector::traceCells(float s, const Box& cells) {
    if (s == displacementS_ && contains(displacementBox_, cells)) return;
    displacement_.resize(centred_.size());
    const Centred vel(centred_, n_, Vec3f(0.5f));
    forRows(cells, [&](int i0, int i1, int j, int k) {
        Float4* out = &displacement_[(size_t(k) * n_.y + j) * n_.x];
        for (int i = i0; i < i1; ++i) {
            const Vec3f pGrid{i + 0.5f, j + 0.5f, k + 0.5f};
            const Vec3f d = pGrid - trace(vel, pGrid, vel.at(i, j, k), s);
            out[i] = Float4{d.x, d.y, d.z, 0.0f};
        }
    });
    displacementS_ = s;
    displacementBox_ = cells;
}

void Advector::advect(AdvectionScheme scheme, const ScalarGrid* const* src,
                      ScalarGrid* const* dst, int count, float dt, Limiter limiter,
                      const float* background) {
    const ScalarGrid& g = *src[0];
    const Vec3i dims{g.nx(), g.ny(), g.nz()};
    const Vec3f off = g.offset();
    const float s = dt / dx_;
    const bool mac = scheme == AdvectionScheme::MacCormack;
    const GridShape shape(g);
    // One field (a velocity component, over the whole grid) keeps its limiter
    // bounds from the first pass, where the blend has the eight values at
    // hand. Two fields (the scalars, advected only around the smoke) take
    // theirs again in the second pass: a little more work on a small box, and
    // two grid-sized buffers less memory.
    const bool keepRange = count == 1;
    if (mac) {
        for (int c = 0; c < count; ++c) hat_[c].resize(g.size());
        if (keepRange) range_.resize(g.size());
    }

    // `result`: the cells whose value can change; `first`: the cells the first
    // pass must cover for the second to read only what it wrote.
    Box result{{0, 0, 0}, dims};
    Box first = result;
    if (background) {
        // A trace moves at most maxComponent * |s| cells per axis, and a blend
        // reads one cell beyond; one more absorbs rounding.
        const int reach = int(std::ceil(maxComponent_ * std::fabs(s))) + 2;
        result = grow(activeBox(src, count, background), reach, dims);
        first = mac ? grow(result, reach, dims) : result;
    }

    // The sample points' displacements: traced once per cell, a face taking
    // the mean of the two cells it lies between (so the three velocity
    // components share one trace per cell instead of one each).
    traceCells(s, grow(first, 1, n_));
    const Centred displacement(displacement_, n_, off);

    // One MacCormack field (a velocity component, the bulk of the work) runs
    // four points at a time; the rest, and each row's last few, one at a time.
    const bool fourWide = mac && count == 1;
    const Float4 lane{0.0f, 1.0f, 2.0f, 3.0f};
    // Stencils of points i..i+3 of row (j, k) moved back (sign -1) or forward
    // (+1) by their displacement; the sign flip is exact.
    auto movedStencils = [&](int i, int j, int k, float sign) {
        Float4 dx, dy, dz;
        displacement.at4(i, j, k, dx, dy, dz);
        return stencil4(shape, (splat(float(i)) + lane + off.x) + dx * sign,
                        splat(j + off.y) + dy * sign, splat(k + off.z) + dz * sign);
    };

    // Backtrace each sample point; every field reads the same stencil.
    forRows(first, [&](int i0, int i1, int j, int k) {
        const size_t row = g.index(0, j, k);
        int i = i0;
        if (fourWide)
            for (; i + 4 <= i1; i += 4) {
                const Stencil4 st = movedStencils(i, j, k, -1.0f);
                Float4 lo, hi;
                store4(&hat_[0][row + i], blend4(src[0]->data(), st, &lo, &hi));
                for (int l = 0; l < 4; ++l) range_[row + i + l] = Range{lo[l], hi[l]};
            }
        for (; i < i1; ++i) {
            const Vec3f pGrid{i + off.x, j + off.y, k + off.z};
            const Stencil st = shape.stencil(pGrid - displacement.at(i, j, k));
            for (int c = 0; c < count; ++c) {
                if (!mac) {
                    (*dst[c])[row + i] = blend(src[c]->data(), st);
                    continue;
                }
                if (keepRange) {
                    Range& r = range_[row + i];
                    hat_[c][row + i] = blendWithRange(src[c]->data(), st, r.lo, r.hi);
                } else {
                    hat_[c][row + i] = blend(src[c]->data(), st);
                }
            }
        }
    });

    // Step forward from each point through the forward step to estimate the
    // error and remove half of it; where that leaves the range of the values the
    // backtrace blended, clamp to it or fall back to the semi-Lagrangian value.
    // The forward step mirrors the backtrace (x + displacement) instead of
    // tracing again: the same reversal to first order in the velocity
    // gradient, exact for a uniform flow, for a third of the pass's work.
    if (mac)
        forRows(result, [&](int i0, int i1, int j, int k) {
            const size_t row = g.index(0, j, k);
            int i = i0;
            if (fourWide)
                for (; i + 4 <= i1; i += 4) {
                    const Stencil4 forward = movedStencils(i, j, k, 1.0f);
                    const Float4 hat = load4(&hat_[0][row + i]);
                    const Float4 back = blend4(hat_[0].data(), forward, nullptr, nullptr);
                    const Float4 value = hat + 0.5f * (load4(&(*src[0])[row + i]) - back);
                    Float4 lo, hi;
                    for (int l = 0; l < 4; ++l) lo[l] = range_[row + i + l].lo, hi[l] = range_[row + i + l].hi;
                    const Float4 clamped = clamp4(value, lo, hi);
                    store4(&(*dst[0])[row + i],
                           limiter == Limiter::Revert ? ((value < lo) | (hi < value) ? hat : clamped)
                                                      : clamped);
                }
            for (; i < i1; ++i) {
                const Vec3f pGrid{i + off.x, j + off.y, k + off.z};
                const Vec3f d = displacement.at(i, j, k);
                const Stencil forward = shape.stencil(pGrid + d);
                const Stencil from = keepRange ? Stencil{} : shape.stencil(pGrid - d);
                for (int c = 0; c < count; ++c) {
                    float hat = hat_[c][row + i];
                    float back = blend(hat_[c].data(), forward);
                    float value = hat + 0.5f * ((*src[c])[row + i] - back);
                    Range r;
                    if (keepRange)
                        r = range_[row + i];
                    else
                        blendWithRange(src[c]->data(), from, r.lo, r.hi);
                    (*dst[c])[row + i] = (limiter == Limiter::Revert && (value < r.lo || value > r.hi))
                                             ? hat
                                             : std::clamp(value, r.lo, r.hi);
                }
            }
        });

    if (background)
        for (int c = 0; c < count; ++c) fillOutside(*dst[c], result, background[c]);
}

}  // namespace plume
