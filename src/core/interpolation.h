// Trilinear interpolation: the one home of the 2x2x2 stencil, for one point
// or four at once. Grid3::sample, the advector and the renderer's shading
// grid all sample through it, so every sampler clamps and blends alike.
//
// A sample layout says where a grid's samples sit: counts, element strides
// and the offset of sample (0, 0, 0) in cell units (0.5 for cell centres,
// 0 along the axis a staggered component lives on). Positions are in cell
// units from the domain's min corner; the offset is subtracted once, here.
// Outside the samples a position clamps to the outermost ones.
#pragma once

#include <algorithm>
#include <cstddef>

#include "core/simd.h"
#include "core/vec.h"

namespace plume {

// The 2x2x2 stencil around a point: the element index of its low corner, the
// element steps along each axis (0 on a one-sample axis) and the weights.
struct Stencil {
    ptrdiff_t at = 0, dx = 0, dy = 0, dz = 0;
    float fx = 0, fy = 0, fz = 0;
};

// Clamps one coordinate to the samples and splits it into cell and fraction.
[[gnu::always_inline]] inline void stencilAxis(float x, int n, ptrdiff_t stride, float& frac,
                                               ptrdiff_t& step, ptrdiff_t& at) {
    if (n <= 1) return;
    x = std::clamp(x, 0.0f, float(n - 1));
    int i = std::min(int(x), n - 2);
    frac = x - float(i);
    step = stride;
    at += ptrdiff_t(i) * stride;
}

// Where the samples of one grid sit: counts, element strides and offset.
struct SampleLayout {
    int nx, ny, nz;
    ptrdiff_t sx, sy, sz;
    Vec3f offset;
    // Slabs between the first slab of the frame positions are given in and
    // this grid's first (a process's part of a split box, sim/fields.h
    // partZ): taken off after the offset, which is exact, so a part reads the
    // same stencil, to the bit, as the whole box would.
    float frameZ = 0.0f;

    // x fastest, one element per sample.
    SampleLayout(int nx_, int ny_, int nz_, Vec3f offset_)
        : SampleLayout(nx_, ny_, nz_, 1, offset_) {}
    // `channels` interleaved elements per sample.
    SampleLayout(int nx_, int ny_, int nz_, int channels, Vec3f offset_)
        : nx(nx_),
          ny(ny_),
          nz(nz_),
          sx(channels),
          sy(ptrdiff_t(channels) * nx_),
          sz(ptrdiff_t(channels) * nx_ * ny_),
          offset(offset_) {}

    [[gnu::always_inline]] Stencil stencil(Vec3f pGrid) const {
        Stencil s;
        stencilAxis(pGrid.x - offset.x, nx, sx, s.fx, s.dx, s.at);
        stencilAxis(pGrid.y - offset.y, ny, sy, s.fy, s.dy, s.at);
        stencilAxis((pGrid.z - offset.z) - frameZ, nz, sz, s.fz, s.dz, s.at);
        return s;
    }
};

// Trilinear blend of the eight corners v of a cell (x fastest, then y, z):
// x first, then y, then z. T is a float, a Vec3f or a four- or eight-wide
// vector (one lane per point, W its weights).
template <typename T, typename W>
[[gnu::always_inline]] inline T trilinear(const T* v, W fx, W fy, W fz) {
    T c00 = v[0] + (v[1] - v[0]) * fx;
    T c10 = v[2] + (v[3] - v[2]) * fx;
    T c01 = v[4] + (v[5] - v[4]) * fx;
    T c11 = v[6] + (v[7] - v[6]) * fx;
    T c0 = c00 + (c10 - c00) * fy;
    T c1 = c01 + (c11 - c01) * fy;
    return c0 + (c1 - c0) * fz;
}

// The eight corners of a stencil, x fastest.
template <typename T>
[[gnu::always_inline]] inline void gatherCorners(const T* base, const Stencil& s, T* v) {
    const T* p = base + s.at;
    v[0] = p[0], v[1] = p[s.dx], v[2] = p[s.dy], v[3] = p[s.dy + s.dx];
    v[4] = p[s.dz], v[5] = p[s.dz + s.dx], v[6] = p[s.dz + s.dy], v[7] = p[s.dz + s.dy + s.dx];
}

// The value at a stencil of the samples starting at `base`.
template <typename T>
[[gnu::always_inline]] inline T blend(const T* base, const Stencil& s) {
    T v[8];
    gatherCorners(base, s, v);
    return trilinear(v, s.fx, s.fy, s.fz);
}

// The lesser and greater of two values as std::min and std::max pick them,
// for floats, or lane by lane for vectors.
template <typename T>
[[gnu::always_inline]] inline T lesser(T a, T b) {
    return b < a ? b : a;
}
template <typename T>
[[gnu::always_inline]] inline T greater(T a, T b) {
    return a < b ? b : a;
}

// The range of the eight corners (MacCormack's limiter bounds).
template <typename T>
[[gnu::always_inline]] inline void cornerRange(const T* v, T& lo, T& hi) {
    lo = lesser(lesser(lesser(v[0], v[1]), lesser(v[2], v[3])),
                lesser(lesser(v[4], v[5]), lesser(v[6], v[7])));
    hi = greater(greater(greater(v[0], v[1]), greater(v[2], v[3])),
                 greater(greater(v[4], v[5]), greater(v[6], v[7])));
}

// A blend that also gives the range of the eight values it reads, while they
// are in registers.
[[gnu::always_inline]] inline float blendWithRange(const float* base, const Stencil& s, float& lo,
                                                   float& hi) {
    float v[8];
    gatherCorners(base, s, v);
    cornerRange(v, lo, hi);
    return trilinear(v, s.fx, s.fy, s.fz);
}

// ---- four or eight points at once --------------------------------------------
// The same arithmetic lane by lane, so the results are bit for bit those of
// the one-point code, with the index and weight work in vector registers and
// only the loads per lane. V is simd::F4, or simd::F8 inside an AVX2 function.

template <typename V>
struct StencilN {
    simd::Mask<V> at{};
    ptrdiff_t dx = 0, dy = 0, dz = 0;
    V fx{}, fy{}, fz{};
};
using Stencil4 = StencilN<simd::F4>;

template <typename V>
[[gnu::always_inline]] inline void stencilAxisN(V x, int n, ptrdiff_t stride, V& frac,
                                                ptrdiff_t& step, simd::Mask<V>& at) {
    using IV = simd::Mask<V>;
    if (n <= 1) return;
    x = simd::clamp(x, V{}, simd::broadcast<V>(float(n - 1)));
    IV i = __builtin_convertvector(x, IV);
    const IV last = simd::broadcast<IV>(n - 2);
    i = last < i ? last : i;
    frac = x - __builtin_convertvector(i, V);
    step = stride;
    // SSE2 has no 32-bit lane multiply (it takes several instructions), and
    // the x axis of a scalar grid, the hot case, has stride 1.
    if (stride == 1)
        at += i;
    else
        at += i * int(stride);
}

template <typename V>
[[gnu::always_inline]] inline StencilN<V> stencilN(const SampleLayout& g, V x, V y, V z) {
    StencilN<V> s;
    stencilAxisN(x - g.offset.x, g.nx, g.sx, s.fx, s.dx, s.at);
    stencilAxisN(y - g.offset.y, g.ny, g.sy, s.fy, s.dy, s.at);
    stencilAxisN((z - g.offset.z) - g.frameZ, g.nz, g.sz, s.fz, s.dz, s.at);
    return s;
}
[[gnu::always_inline]] inline Stencil4 stencil4(const SampleLayout& g, simd::F4 x, simd::F4 y,
                                                simd::F4 z) {
    return stencilN(g, x, y, z);
}

// blendWithRange for four or eight points; lo and hi may be null.
template <typename V>
[[gnu::always_inline]] inline V blendN(const float* base, const StencilN<V>& s, V* lo, V* hi) {
    constexpr int kN = simd::kLanes<V>;
    const float* p[kN];
    for (int l = 0; l < kN; ++l) p[l] = base + s.at[l];
    V v[8];
    if (s.dx == 1) {
        // Each corner's x neighbour is the next float: one 8-byte load per
        // pair, and two shuffles give the lanes of both.
        const ptrdiff_t pair[4] = {0, s.dy, s.dz, s.dz + s.dy};
        for (int c = 0; c < 4; ++c) {
            const ptrdiff_t o = pair[c];
            if constexpr (kN == 4) {
                const simd::F4 a = simd::loadPairs(p[0] + o, p[1] + o);
                const simd::F4 b = simd::loadPairs(p[2] + o, p[3] + o);
                v[2 * c] = __builtin_shufflevector(a, b, 0, 2, 4, 6);
                v[2 * c + 1] = __builtin_shufflevector(a, b, 1, 3, 5, 7);
            } else {
                // Lanes 0, 1, 4, 5 in a and 2, 3, 6, 7 in b: in-lane shuffles.
                const simd::F8 a = simd::concat(simd::loadPairs(p[0] + o, p[1] + o),
                                                simd::loadPairs(p[4] + o, p[5] + o));
                const simd::F8 b = simd::concat(simd::loadPairs(p[2] + o, p[3] + o),
                                                simd::loadPairs(p[6] + o, p[7] + o));
                v[2 * c] = __builtin_shufflevector(a, b, 0, 2, 8, 10, 4, 6, 12, 14);
                v[2 * c + 1] = __builtin_shufflevector(a, b, 1, 3, 9, 11, 5, 7, 13, 15);
            }
        }
    } else {
        const ptrdiff_t corner[8] = {0,    s.dx,        s.dy,        s.dy + s.dx,
                                     s.dz, s.dz + s.dx, s.dz + s.dy, s.dz + s.dy + s.dx};
        for (int c = 0; c < 8; ++c)
            for (int l = 0; l < kN; ++l) v[c][l] = p[l][corner[c]];
    }
    if (lo) cornerRange(v, *lo, *hi);
    return trilinear(v, s.fx, s.fy, s.fz);
}
[[gnu::always_inline]] inline simd::F4 blend4(const float* base, const Stencil4& s, simd::F4* lo,
                                              simd::F4* hi) {
    return blendN(base, s, lo, hi);
}

}  // namespace plume
