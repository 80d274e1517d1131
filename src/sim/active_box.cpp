#include "sim/active_box.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/activity.h"

namespace plume {

Box3i scalarActivity(const Fields& f, float ambient) {
    // The smoke's colour is never without its density (sim/smoke_color.h):
    // density's cells hold it.
    const ScalarGrid* grids[] = {&f.density, &f.temperature, &f.fuel, &f.flame};
    const float background[] = {0.0f, ambient, 0.0f, 0.0f};
    Box3i box;
    for (int g = 0; g < 4; ++g)
        if (grids[g]->size() == f.cellCount())
            box = unite(box, cellsOtherThan(*grids[g], background[g]));
    return box;
}

Box3i cellsOfWorldBox(Vec3f lo, Vec3f hi, float dx, Vec3i cells) {
    Box3i b;
    for (int a = 0; a < 3; ++a) {
        const int l = std::clamp(int(std::floor(lo[a] / dx)) - 1, 0, cells[a]);
        const int h = std::clamp(int(std::ceil(hi[a] / dx)) + 1, 0, cells[a]);
        (a == 0 ? b.lo.x : a == 1 ? b.lo.y : b.lo.z) = l;
        (a == 0 ? b.hi.x : a == 1 ? b.hi.y : b.hi.z) = h;
    }
    return b;
}

Box3i tileAligned(const Box3i& b, int margin, Vec3i cells) {
    if (b.empty()) return b;
    Box3i out;
    for (int a = 0; a < 3; ++a) {
        const int l = std::max((b.lo[a] - margin) / kTileCells * kTileCells, 0);
        const int h =
            std::min((b.hi[a] + margin + kTileCells - 1) / kTileCells * kTileCells, cells[a]);
        (a == 0 ? out.lo.x : a == 1 ? out.lo.y : out.lo.z) = std::max(l, 0);
        (a == 0 ? out.hi.x : a == 1 ? out.hi.y : out.hi.z) = h;
    }
    return out;
}

std::array<Boundary, 6> boxBoundary(const Box3i& box, Vec3i cells,
                                    const std::array<Boundary, 6>& domain) {
    std::array<Boundary, 6> sides = domain;
    for (int a = 0; a < 3; ++a) {
        if (box.lo[a] > 0) sides[2 * a] = Boundary::Open;
        if (box.hi[a] < cells[a]) sides[2 * a + 1] = Boundary::Open;
    }
    return sides;
}

unsigned stillAirSides(const Box3i& box, Vec3i cells, const std::array<Boundary, 6>& domain) {
    const std::array<Boundary, 6> sides = boxBoundary(box, cells, domain);
    unsigned open = 0;
    for (int s = 0; s < 6; ++s)
        if (sides[s] != Boundary::Wall) open |= 1u << s;
    return open;
}

// Boxes within a tile of each other (tile-aligned boxes: touching or
// overlapping) become the box around both, until none are; in the order of
// their min corners (z, y, x), so the islands' order is the same whatever
// order their sources came in.
std::vector<Box3i> mergeNear(std::vector<Box3i> boxes) {
    auto near = [](const Box3i& a, const Box3i& b) {
        return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y &&
               a.lo.z <= b.hi.z && b.lo.z <= a.hi.z;
    };
    for (bool merged = true; merged;) {
        merged = false;
        for (size_t a = 0; a < boxes.size() && !merged; ++a)
            for (size_t b = a + 1; b < boxes.size() && !merged; ++b)
                if (near(boxes[a], boxes[b])) {
                    boxes[a] = unite(boxes[a], boxes[b]);
                    boxes.erase(boxes.begin() + std::ptrdiff_t(b));
                    merged = true;
                }
    }
    std::sort(boxes.begin(), boxes.end(), [](const Box3i& a, const Box3i& b) {
        return std::tie(a.lo.z, a.lo.y, a.lo.x) < std::tie(b.lo.z, b.lo.y, b.lo.x);
    });
    return boxes;
}

// Copies what fields `from` of a box at `fromOffset` (domain cells) hold
// where the box of `to` at `toOffset` overlaps it: the velocity, the scalars
// (fire's when both burn) and, with `solid`, the solid cells.
void copyFieldsOverlap(const Fields& from, Vec3i fromOffset, Fields& to, Vec3i toOffset,
                       bool solid) {
    for (int axis = 0; axis < 3; ++axis)
        copyOverlap(from.component(axis), fromOffset, to.component(axis), toOffset);
    copyOverlap(from.density, fromOffset, to.density, toOffset);
    copyOverlap(from.temperature, fromOffset, to.temperature, toOffset);
    if (solid) copyOverlap(from.solid, fromOffset, to.solid, toOffset);
    if (from.burns() && to.burns()) {
        copyOverlap(from.fuel, fromOffset, to.fuel, toOffset);
        copyOverlap(from.flame, fromOffset, to.flame, toOffset);
        copyOverlap(from.expansion, fromOffset, to.expansion, toOffset);
    }
    if (from.colored() && to.colored())
        for (int c = 0; c < 3; ++c) copyOverlap(from.color[c], fromOffset, to.color[c], toOffset);
}

}  // namespace plume
