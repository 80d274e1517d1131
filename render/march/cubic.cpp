#include "render/march/cubic.h"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/parallel.h"

namespace plume {

namespace {

// The cubic B-spline's pole, and the gain (1 - z)(1 - 1/z) = 6 that makes the
// two passes' response to a constant 1 (Thevenaz, Blu and Unser 2000, box 2).
constexpr double kPoleD = -0.26794919243112270;  // sqrt(3) - 2
constexpr float kPole = float(kPoleD);
constexpr float kGain = 6.0f;
// Terms of the causal pass's start: |z|^16 is 7e-10, below a float's epsilon.
constexpr int kHorizon = 16;

// Index m of a line of `length` values extended half-sample symmetrically
// (value -1 is value 0, value length is value length - 1): the extension
// the clamped taps of bsplineSample read.
int mirrored(int m, int length) {
    const int period = 2 * length;
    int p = m % period;
    if (p < 0) p += period;
    return p < length ? p : period - 1 - p;
}

// The prefilter along one axis of `lanes` lines at once, in place: line l's
// m-th value at data[l * laneStride + m * stride]. Each lane's arithmetic is
// the same whichever lines share the call, so the result does not depend on
// how the lines are split among threads.
//
// Causal pass c+[m] = 6 f[m] + z c+[m - 1], started from the sum of the
// line's mirrored past; anticausal pass c[m] = z (c[m + 1] - c+[m]), started
// from c[length - 1] = z / (z - 1) c+[length - 1], which is that recursion at
// m = length - 1 with c[length] = c[length - 1] (the coefficients of a
// half-sample symmetric line are half-sample symmetric).
void prefilterLines(float* data, int length, ptrdiff_t stride, int lanes, ptrdiff_t laneStride,
                    std::vector<float>& start) {
    if (length < 2) return;  // one value: its own coefficient
    const float z = kPole;
    start.assign(size_t(lanes), 0.0f);

    // Start of the causal pass: sum over m >= 0 of z^m f[-m], Horner's rule
    // from the farthest term.
    for (int m = kHorizon - 1; m >= 0; --m) {
        const float* f = data + mirrored(-m, length) * stride;
        for (int l = 0; l < lanes; ++l) start[size_t(l)] = f[l * laneStride] + z * start[size_t(l)];
    }
    for (int l = 0; l < lanes; ++l) data[l * laneStride] = kGain * start[size_t(l)];

    // Causal pass.
    for (int m = 1; m < length; ++m) {
        float* c = data + m * stride;
        const float* before = c - stride;
        for (int l = 0; l < lanes; ++l)
            c[l * laneStride] = kGain * c[l * laneStride] + z * before[l * laneStride];
    }

    // Anticausal pass.
    const float last = z / (z - 1.0f);
    float* end = data + (length - 1) * stride;
    for (int l = 0; l < lanes; ++l) end[l * laneStride] = last * end[l * laneStride];
    for (int m = length - 2; m >= 0; --m) {
        float* c = data + m * stride;
        const float* after = c + stride;
        for (int l = 0; l < lanes; ++l)
            c[l * laneStride] = z * (after[l * laneStride] - c[l * laneStride]);
    }
}

}  // namespace

void bsplineCoefficients(const float* values, Vec3i n, std::vector<float>& coefficients) {
    const ptrdiff_t sy = n.x, sz = ptrdiff_t(n.x) * n.y;
    coefficients.resize(size_t(sz) * n.z);
    float* c = coefficients.data();

    // Along x, one line at a time (with the copy), slab by slab.
    parallelForSlabs(n.z, [&](int k) {
        std::vector<float> start;
        for (int j = 0; j < n.y; ++j) {
            const ptrdiff_t row = k * sz + j * sy;
            std::copy(values + row, values + row + n.x, c + row);
            prefilterLines(c + row, n.x, 1, 1, 0, start);
        }
    });
    // Along y: each slab's lines side by side, x innermost in memory.
    parallelForSlabs(n.z, [&](int k) {
        std::vector<float> start;
        prefilterLines(c + k * sz, n.y, sy, n.x, 1, start);
    });
    // Along z: each row of x's lines side by side.
    parallelForSlabs(n.y, [&](int j) {
        std::vector<float> start;
        prefilterLines(c + j * sy, n.z, sz, n.x, 1, start);
    });
}

}  // namespace plume
