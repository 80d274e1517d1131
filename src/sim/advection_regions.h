// Where advect() works: cells of a grid as one span of x per row, each field's
// own (fuel spreads wider than smoke, and a plume fills little of its box),
// and the rows of a box that the traces and the passes run over.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "core/activity.h"
#include "core/box.h"
#include "core/parallel.h"
#include "sim/advection.h"
#include "sim/fields.h"

namespace plume {

// Cells of a grid as one span [lo, hi) of x per row (j, k), lo >= hi for
// none, and the box that bounds them.
struct Region {
    using Span = RowSpan;
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

// `r` grown by `by` cells along every axis (each cell to the cube of side
// 2 by + 1 around it, or more), kept inside [0, n): each row spans the hull
// of the rows within `by` in y and z, widened by `by` in x. Into `out` (not
// r), through `alongY`: regions the caller keeps, whose span lists are reused.
void grow(const Region& r, int by, Vec3i n, Region& out, Region& alongY);

// Sets every cell of g outside `region` to `value`.
void fillOutside(ScalarGrid& g, const Region& region, float value);

// Calls body(i0, i1, j, k) for each row segment of `box`, slabs in parallel.
template <typename F>
void forRows(const Box3i& box, F&& body) {
    if (box.empty()) return;
    parallelForSlabs(box.hi.z - box.lo.z, [&](int kk) {
        const int k = box.lo.z + kk;
        for (int j = box.lo.y; j < box.hi.y; ++j) body(box.lo.x, box.hi.x, j, k);
    });
}

// The parts [lo, hi) of a row segment that each of a block's fields covers,
// and the span of them all (spanLo >= spanHi for none).
struct RowParts {
    int lo[Advector::kMaxFields], hi[Advector::kMaxFields];
    int spanLo, spanHi;
};

// The parts of row segment [i0, i1) of (j, k) in each of `count` fields'
// regions, or all of it for each without regions.
inline RowParts rowParts(const Region* regions, int count, int i0, int i1, int j, int k) {
    RowParts p;
    p.spanLo = i1, p.spanHi = i0;
    for (int c = 0; c < count; ++c) {
        p.lo[c] = i0, p.hi[c] = i1;
        if (regions) {
            const Region::Span sp = regions[c].at(j, k);
            p.lo[c] = std::max(i0, sp.lo);
            p.hi[c] = std::max(p.lo[c], std::min(i1, sp.hi));
        }
        if (p.lo[c] < p.hi[c])
            p.spanLo = std::min(p.spanLo, p.lo[c]), p.spanHi = std::max(p.spanHi, p.hi[c]);
    }
    return p;
}

// The regions of the scalars' advect() calls (with a background), kept by the
// Advector from call to call so that a substep allocates no span lists.
struct AdvectionRegions {
    // Per field, `results`: the cells whose value can change; `firsts`: the
    // cells the first pass must cover for the second to read only what it
    // wrote.
    std::array<Region, Advector::kMaxFields> active, results, firsts;
    Region alongY, traced;
    Box3i result, first;  // the bounds of all fields' results, and of their firsts

    // Finds each of `count` fields' regions: the cells where it differs from
    // its background, grown by `reach` (the farthest a trace goes) for its
    // results and, for MacCormack (`twoPasses`), by as much again for its
    // first pass.
    void find(const ScalarGrid* const* src, int count, const float* background, int reach,
              bool twoPasses);
    // The cells whose traces the first passes read: every field's first
    // region and a cell beyond, on a grid of n cells.
    const Region& tracedCells(int count, Vec3i n);
};

}  // namespace plume
