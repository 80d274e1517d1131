// Tricubic B-spline reconstruction where a voxel covers several pixels
// (render.filter "cubic" and "sharp"): smooth (C2) where trilinear creases at
// every voxel face.
//
// "cubic" reads density, temperature and flame through the B-spline over
// their values, as Cycles' "Cubic" volume interpolation does. It approximates:
// a one-voxel feature keeps (2/3)^3 of its value, so a close-up looks soft.
// "sharp" reads them through the B-spline over their coefficients
// (bsplineCoefficients, once a frame; Unser's prefilter, Thevenaz, Blu and
// Unser 2000): it passes through every cell's value and stays C2, where
// Catmull-Rom is only C1 and, clamped, trims the smoke's rim. "sharp" is not
// the default: it rings at sharp rims, which neither of Cycles'
// interpolations draws (tests/bench/README.md, the filters).
//
// The ringing: a step dips a tenth of its height below 0 a voxel and a half
// beyond its last cell. What is reconstructed is clamped at 0
// (ShadingGrid::cubicDensity); empty-space skipping reads the values, so it
// skips the ring's tail beyond two cells of the smoke, at most a few
// hundredths of the density (RenderFilter.EmptySpaceSkipsOnlyTheRingingsTail).
//
// The light each cell sends toward the camera (ShadingGrid::smoothSourceAt)
// goes through the B-spline over its values with either filter: read
// trilinearly, it draws the voxel lattice as creases on a coarse close-up's
// lit side (RenderFilter.CubicCloseUpHasNoVoxelCreases). A fire's light peaks
// within a voxel or two of its lamps, so that lane is read through Catmull-Rom
// (catmullRomWeights), which interpolates.
//
// Direct 4x4x4 weights, not Sigg and Hadwiger's eight trilinear lookups (GPU
// Gems 2, ch. 20): those pay where hardware filters a lookup; on a CPU they
// read the same 64 values and add seven lerps each (BM_CubicLookup*).
//
// The three axes are worked four-wide (lanes x, y, z), lane by lane the
// scalar formulas in the same order, so the bits are those of one axis at a
// time. The ray-marcher computes the GridPoint once per sample for the
// empty-space flag, the density and the light.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "core/simd.h"
#include "core/vec.h"

namespace plume {

// The four B-spline weights for a fraction t in [0, 1) between taps 1 and 2.
[[gnu::always_inline]] inline void bsplineWeights(float t, float w[4]) {
    const float t2 = t * t, t3 = t2 * t, s = 1.0f - t;
    constexpr float kSixth = 1.0f / 6.0f;
    w[0] = kSixth * s * s * s;
    w[3] = kSixth * t3;
    w[1] = kSixth * (3.0f * t3 - 6.0f * t2 + 4.0f);
    w[2] = 1.0f - w[0] - w[1] - w[3];  // the weights sum to one exactly
}

// Where a lookup at pGrid (cell units from the min corner) falls in a
// cell-centred grid, per axis in lanes x, y, z: the position from the first
// cell centre clamped to the centres, its cell (the floor) and the fraction.
// Trilinear (core/interpolation.h) and the B-spline both start from it.
struct GridPoint {
    simd::F4 x;
    simd::I4 cell;
    simd::F4 t;
};

[[gnu::always_inline]] inline GridPoint gridPoint(Vec3f pGrid, Vec3i n) {
    // Cell centres sit at i + 0.5; x >= 0, so truncation is the floor.
    const simd::F4 hi = {float(n.x - 1), float(n.y - 1), float(n.z - 1), 0.0f};
    GridPoint g;
    g.x = simd::clamp(simd::F4{pGrid.x, pGrid.y, pGrid.z, 0.0f} - 0.5f, simd::F4{}, hi);
    g.cell = __builtin_convertvector(g.x, simd::I4);
    g.t = g.x - __builtin_convertvector(g.cell, simd::F4);
    return g;
}

// Catmull-Rom's four weights for the fractions t (lanes x, y, z): the
// interpolating cubic (C1, through every cell's value), w[tap][axis].
[[gnu::always_inline]] inline void catmullRomWeights(simd::F4 t, simd::F4 w[4]) {
    const simd::F4 t2 = t * t, t3 = t2 * t;
    w[0] = 0.5f * (2.0f * t2 - t3 - t);
    w[1] = 0.5f * (3.0f * t3 - 5.0f * t2) + 1.0f;
    w[3] = 0.5f * (t3 - t2);
    w[2] = 1.0f - w[0] - w[1] - w[3];  // the weights sum to one exactly
}

// The B-spline weights of the three axes at once, w[tap][axis] for the
// fractions t (lanes x, y, z): lane by lane bsplineWeights' formulas in the
// same order, so the bits are its.
[[gnu::always_inline]] inline void bsplineWeights(simd::F4 t, simd::F4 w[4]) {
    const simd::F4 t2 = t * t, t3 = t2 * t, s = 1.0f - t;
    const simd::F4 kSixth = simd::splat(1.0f / 6.0f);
    w[0] = kSixth * s * s * s;
    w[3] = kSixth * t3;
    w[1] = kSixth * (3.0f * t3 - 6.0f * t2 + 4.0f);
    w[2] = 1.0f - w[0] - w[1] - w[3];
}

// At an edge: clamped taps, one float at a time. Rare, and kept out of line
// so the inside path (inlined into the ray-marcher) stays small.
[[gnu::noinline, gnu::cold]] inline simd::F4 bsplineRowsAtEdge(const float* data, Vec3i n,
                                                               const int cell[3],
                                                               const simd::F4 w[4]) {
    using simd::F4;
    const ptrdiff_t sy = n.x, sz = ptrdiff_t(n.x) * n.y;
    F4 rows{};
    ptrdiff_t ox[4];
    for (int tap = 0; tap < 4; ++tap) ox[tap] = std::clamp(cell[0] - 1 + tap, 0, n.x - 1);
    for (int k = 0; k < 4; ++k) {
        const ptrdiff_t z = std::clamp(cell[2] - 1 + k, 0, n.z - 1) * sz;
        F4 y{};
        for (int j = 0; j < 4; ++j) {
            const float* row = data + z + std::clamp(cell[1] - 1 + j, 0, n.y - 1) * sy;
            y += simd::splat(w[j][1]) * F4{row[ox[0]], row[ox[1]], row[ox[2]], row[ox[3]]};
        }
        rows += simd::splat(w[k][2]) * y;
    }
    return rows;
}

// The B-spline at g of a cell-centred scalar grid of n cells, x fastest;
// beyond the edge the outermost cells repeat (clamped taps), as trilinear
// clamps. Away from the edges a row's four taps are consecutive floats: one
// four-wide load each.
[[gnu::always_inline]] inline float bsplineSample(const float* data, Vec3i n, const GridPoint& g) {
    using simd::F4;
    F4 w[4];
    bsplineWeights(g.t, w);

    const int cell[3] = {g.cell[0], g.cell[1], g.cell[2]};
    const ptrdiff_t sy = n.x, sz = ptrdiff_t(n.x) * n.y;
    F4 rows{};  // the four x taps, summed over y and z
    if (cell[0] >= 1 && cell[0] + 2 < n.x && cell[1] >= 1 && cell[1] + 2 < n.y && cell[2] >= 1 &&
        cell[2] + 2 < n.z) [[likely]] {
        // Inside: 16 rows of four consecutive floats.
        const F4 wy0 = simd::splat(w[0][1]), wy1 = simd::splat(w[1][1]), wy2 = simd::splat(w[2][1]),
                 wy3 = simd::splat(w[3][1]);
        const float* p = data + (cell[2] - 1) * sz + (cell[1] - 1) * sy + (cell[0] - 1);
        for (int k = 0; k < 4; ++k, p += sz) {
            const F4 y = wy0 * simd::load(p) + wy1 * simd::load(p + sy) +
                         wy2 * simd::load(p + 2 * sy) + wy3 * simd::load(p + 3 * sy);
            rows += simd::splat(w[k][2]) * y;
        }
    } else {
        rows = bsplineRowsAtEdge(data, n, cell, w);
    }
    return simd::hsum(F4{w[0][0], w[1][0], w[2][0], w[3][0]} * rows);
}

// The B-spline at pGrid (cell units from the min corner).
[[gnu::always_inline]] inline float bsplineSample(const float* data, Vec3i n, Vec3f pGrid) {
    return bsplineSample(data, n, gridPoint(pGrid, n));
}

// The B-spline coefficients of a cell-centred grid of n values (x fastest):
// bsplineSample over them passes through every cell's value, edges
// included. Unser's recursive prefilter (pole sqrt(3) - 2), a causal and an
// anticausal pass along each axis in turn, the lines beyond the grid
// mirrored about its faces as the clamped taps read them. Bit-identical for
// any thread count (each line's arithmetic is its own).
void bsplineCoefficients(const float* values, Vec3i n, std::vector<float>& coefficients);

}  // namespace plume
