// The advector's row kernels: the trace of each cell centre, and MacCormack's
// two passes over a block of fields. Each row runs eight points at a time in
// its AVX2 build, four in its portable one (chosen by simd::dispatch), and one
// at a time where no block fits; every point gets the same bits on every path.
#pragma once

#include <cstddef>

#include "core/interpolation.h"
#include "sim/advection.h"
#include "sim/advection_centred.h"
#include "sim/advection_regions.h"

namespace plume {

// What the passes over a block of fields read and write: grids of one shape,
// row after row (x fastest).
struct PassFields {
    const Centred* displacement;  // of each sample point: it departed from x - d
    SampleLayout shape;           // the fields' sample points
    int count;                    // fields, 1 to Advector::kMaxFields
    const float* src[Advector::kMaxFields];
    // The semi-Lagrangian steps: MacCormack's forward steps, or the results
    // of a semi-Lagrangian advection (in place: room to copy back from).
    float* step[Advector::kMaxFields];
    float* dst[Advector::kMaxFields];  // MacCormack's results
    // One field's limiter bounds, kept by the first pass where its blend has
    // the eight values at hand; without them (several fields: grid-sized
    // bounds for each would be more memory than a copy) the second pass
    // blends them again from the same stencils.
    float* lo = nullptr;
    float* hi = nullptr;
    bool revert = false;  // the limiter falls back to the step (else clamps)
    // Sides (bit s for Side s) beyond which lies still air: each field's
    // background, a sample beyond the last (see advection.h).
    unsigned openSides = 0;
    float background[Advector::kMaxFields] = {};

    // The index of row (j, k)'s first value.
    size_t rowStart(int j, int k) const { return size_t(k) * shape.sz + size_t(j) * shape.sy; }
};

// RK2 backtrace displacements of cells i0..i1-1 of row (j, k) through the
// centred velocity `vel` into out + 3 i, for s = dt / dx.
void traceRow(const Centred& vel, float s, int i0, int i1, int j, int k, float* out);

// The semi-Lagrangian step of each field at its part of row (j, k): the
// source blended at the departure point (and one field's bounds).
void semiLagrangianRow(const PassFields& f, const RowParts& part, int j, int k);

// MacCormack's backward step, correction and limiter at each field's part of
// row (j, k), into dst. A point reads its own source value and writes only its
// own result, so dst may be src.
void correctRow(const PassFields& f, const RowParts& part, int j, int k);

}  // namespace plume
