// Box3i: a half-open box of cell indices [lo, hi), the one box type of the
// solver and the renderer (what is active, what a pass covers).
#pragma once

#include <algorithm>

#include "core/vec.h"

namespace plume {

struct Box3i {
    Vec3i lo{0, 0, 0}, hi{0, 0, 0};

    bool operator==(const Box3i&) const = default;

    // The box of `size` cells whose min corner is `lo`.
    static Box3i at(Vec3i lo, Vec3i size) {
        return {lo, {lo.x + size.x, lo.y + size.y, lo.z + size.z}};
    }

    bool empty() const { return hi.x <= lo.x || hi.y <= lo.y || hi.z <= lo.z; }
    // Cells along each axis (negative or 0 on an axis where it is empty).
    Vec3i size() const { return {hi.x - lo.x, hi.y - lo.y, hi.z - lo.z}; }
    // Cells in all, as a double: boxes are compared by volume, and a product of
    // three ints overflows past 1290³.
    double volume() const {
        return double(hi.x - lo.x) * double(hi.y - lo.y) * double(hi.z - lo.z);
    }
    // This box moved by `by` cells.
    Box3i shifted(Vec3i by) const {
        return {{lo.x + by.x, lo.y + by.y, lo.z + by.z}, {hi.x + by.x, hi.y + by.y, hi.z + by.z}};
    }
    bool contains(int i, int j, int k) const {
        return i >= lo.x && j >= lo.y && k >= lo.z && i < hi.x && j < hi.y && k < hi.z;
    }
    // True when every cell of `inner` is in this box (an empty inner always is).
    bool contains(const Box3i& inner) const {
        return inner.empty() ||
               (!empty() && lo.x <= inner.lo.x && lo.y <= inner.lo.y && lo.z <= inner.lo.z &&
                inner.hi.x <= hi.x && inner.hi.y <= hi.y && inner.hi.z <= hi.z);
    }
};

// The smallest box holding both; an empty box adds nothing.
inline Box3i unite(const Box3i& a, const Box3i& b) {
    if (a.empty()) return b;
    if (b.empty()) return a;
    return {{std::min(a.lo.x, b.lo.x), std::min(a.lo.y, b.lo.y), std::min(a.lo.z, b.lo.z)},
            {std::max(a.hi.x, b.hi.x), std::max(a.hi.y, b.hi.y), std::max(a.hi.z, b.hi.z)}};
}

// The cells both hold (empty when none).
inline Box3i intersect(const Box3i& a, const Box3i& b) {
    Box3i c{{std::max(a.lo.x, b.lo.x), std::max(a.lo.y, b.lo.y), std::max(a.lo.z, b.lo.z)},
            {std::min(a.hi.x, b.hi.x), std::min(a.hi.y, b.hi.y), std::min(a.hi.z, b.hi.z)}};
    return c.empty() ? Box3i{} : c;
}

// Cells of a box `f` times finer along each axis.
inline Vec3i times(Vec3i v, int f) { return {v.x * f, v.y * f, v.z * f}; }
inline Box3i times(const Box3i& b, int f) { return {times(b.lo, f), times(b.hi, f)}; }

// `b` grown by `by` cells on every side, kept inside [0, n).
inline Box3i grow(const Box3i& b, Vec3i by, Vec3i n) {
    if (b.empty()) return b;
    return {{std::max(b.lo.x - by.x, 0), std::max(b.lo.y - by.y, 0), std::max(b.lo.z - by.z, 0)},
            {std::min(b.hi.x + by.x, n.x), std::min(b.hi.y + by.y, n.y),
             std::min(b.hi.z + by.z, n.z)}};
}
inline Box3i grow(const Box3i& b, int by, Vec3i n) { return grow(b, Vec3i{by, by, by}, n); }

}  // namespace plume
