// Where a grid differs from its still background: "where is the smoke?".
// The one scan behind the sparse solve's boxes (sim/active_box.h), the
// advection's skipping of still air (sim/advection) and the renderer's box of
// the smoke: per row of x, the span from the first to the last active cell,
// and the box that bounds the rows' spans, united slab by slab in slab order
// (the same box for any thread count).
#pragma once

#include <cstddef>

#include "core/box.h"
#include "core/grid3.h"
#include "core/parallel.h"

namespace plume {

// Cells [lo, hi) of a row; lo >= hi for none.
struct RowSpan {
    int lo = 0, hi = 0;
    bool empty() const { return lo >= hi; }
    // The cells of row (j, k) it holds, as a box (empty when it is).
    Box3i box(int j, int k) const {
        return empty() ? Box3i{} : Box3i{{lo, j, k}, {hi, j + 1, k + 1}};
    }
};

// The cells of row[0, n) from the first to the last for which active(value)
// holds (cells between them need not be active).
template <typename Active>
RowSpan activeSpan(const float* row, int n, Active active) {
    int first = 0;
    while (first < n && !active(row[first])) ++first;
    if (first == n) return {};
    int last = n - 1;
    while (!active(row[last])) --last;
    return {first, last + 1};
}

// The box of the cells of g where active(value) holds. With `spans`, each
// row's span too: row (j, k) at spans[k * ny + j], empty rows included.
template <typename Active>
Box3i activeCells(const Grid3<float>& g, Active active, RowSpan* spans = nullptr) {
    auto slabBox = [&](int k) {
        Box3i box;
        for (int j = 0; j < g.ny(); ++j) {
            const RowSpan s = activeSpan(&g(0, j, k), g.nx(), active);
            if (spans) spans[std::size_t(k) * g.ny() + j] = s;
            box = unite(box, s.box(j, k));
        }
        return box;
    };
    return deterministicReduce(g.nz(), Box3i{}, slabBox,
                               [](const Box3i& a, const Box3i& b) { return unite(a, b); });
}

// The cells where g is not `background`.
inline Box3i cellsOtherThan(const Grid3<float>& g, float background, RowSpan* spans = nullptr) {
    return activeCells(
        g, [background](float v) { return v != background; }, spans);
}

}  // namespace plume
