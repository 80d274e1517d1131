// Three-float samples at the cell centres (the velocity, or the backtrace
// displacement), x y z x y z ...: read anywhere by one vector blend, and at
// the sample points of one grid shape exactly (a centre, or the mean of the
// two cells a face lies between). The traces and the passes' kernels read
// them; everything here is always inlined, so that the AVX2 builds of those
// kernels (core/simd_dispatch.h) compile it for themselves.
#pragma once

#include <cstddef>

#include "core/interpolation.h"
#include "core/simd.h"
#include "core/vec.h"

namespace plume {

[[gnu::always_inline]] inline Vec3f xyz(simd::F4 v) { return {v[0], v[1], v[2]}; }

// Four floats from p: a three-float sample and, in the fourth lane, whatever
// follows it (the next sample's x, or the room after the last), which every
// user ignores: lanes never mix, so the first three are the sample's own.
[[gnu::always_inline]] inline simd::F4 load3(const float* p) { return simd::load(p); }
[[gnu::always_inline]] inline void store3(float* p, simd::F4 v) {
    __builtin_memcpy(p, &v, 3 * sizeof(float));
}

// A trilinear blend of three-float samples (stencil steps in floats).
[[gnu::always_inline]] inline simd::F4 blend3(const float* base, const Stencil& s) {
    const float* p = base + s.at;
    const simd::F4 v[8] = {load3(p),
                           load3(p + s.dx),
                           load3(p + s.dy),
                           load3(p + s.dy + s.dx),
                           load3(p + s.dz),
                           load3(p + s.dz + s.dx),
                           load3(p + s.dz + s.dy),
                           load3(p + s.dz + s.dy + s.dx)};
    return trilinear(v, s.fx, s.fy, s.fz);
}

// The samples of one velocity field, or its traces' displacements.
class Centred {
  public:
    Centred(const float* c, Vec3i n, Vec3f sampleOffset, float frameZ = 0.0f)
        : c_(c), shape_(n.x, n.y, n.z, 3, Vec3f(0.5f)) {
        shape_.frameZ = frameZ;
        for (int a = 0; a < 3; ++a)
            if (sampleOffset[a] == 0.0f) face_ = a;
    }
    [[gnu::always_inline]] Vec3f operator()(Vec3f pGrid) const {
        return xyz(blend3(c_, shape_.stencil(pGrid)));
    }
    [[gnu::always_inline]] Vec3f at(int i, int j, int k) const { return xyz(at4(i, j, k)); }
    [[gnu::always_inline]] simd::F4 at4(int i, int j, int k) const {
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
    [[gnu::always_inline]] void at4(int i, int j, int k, simd::F4& x, simd::F4& y,
                                    simd::F4& z) const {
        if (face_ == 0 && (i < 1 || i + 3 >= shape_.nx)) {
            const simd::F4 d0 = at4(i, j, k), d1 = at4(i + 1, j, k), d2 = at4(i + 2, j, k),
                           d3 = at4(i + 3, j, k);
            // Transpose: (x, y, z, .) per point to one coordinate per vector.
            const simd::F4 t0 = __builtin_shufflevector(d0, d1, 0, 4, 1, 5);  // x0 x1 y0 y1
            const simd::F4 t1 = __builtin_shufflevector(d2, d3, 0, 4, 1, 5);  // x2 x3 y2 y3
            const simd::F4 t2 = __builtin_shufflevector(d0, d1, 2, 6, 3, 7);  // z0 z1 . .
            const simd::F4 t3 = __builtin_shufflevector(d2, d3, 2, 6, 3, 7);  // z2 z3 . .
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
        const simd::F4 m0 = 0.5f * (simd::load(a) + simd::load(b));
        const simd::F4 m1 = 0.5f * (simd::load(a + 4) + simd::load(b + 4));
        const simd::F4 m2 = 0.5f * (simd::load(a + 8) + simd::load(b + 8));
        x = __builtin_shufflevector(__builtin_shufflevector(m0, m1, 0, 3, 6, 7), m2, 0, 1, 2, 5);
        y = __builtin_shufflevector(__builtin_shufflevector(m0, m1, 1, 4, 7, 7), m2, 0, 1, 2, 6);
        z = __builtin_shufflevector(__builtin_shufflevector(m0, m1, 2, 5, 5, 5), m2, 0, 1, 4, 7);
    }

    // The same at points i..i+W-1, W the lanes of V: four, or eight read as
    // two fours.
    template <typename V>
    [[gnu::always_inline]] void atN(int i, int j, int k, V& x, V& y, V& z) const {
        if constexpr (simd::kLanes<V> == 4) {
            at4(i, j, k, x, y, z);
        } else {
            simd::F4 x0, y0, z0, x1, y1, z1;
            at4(i, j, k, x0, y0, z0);
            at4(i + 4, j, k, x1, y1, z1);
            x = simd::concat(x0, x1), y = simd::concat(y0, y1), z = simd::concat(z0, z1);
        }
    }

    const float* samples() const { return c_; }
    const SampleLayout& layout() const { return shape_; }

  private:
    const float* c_;
    SampleLayout shape_;  // three floats a sample
    int face_ = -1;       // the axis a face grid is staggered along, or -1
};

}  // namespace plume
