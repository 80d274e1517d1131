// The active box of a sparse solve (`solver.sparse`): the cells of the domain
// the solver holds, around everything that moves the air or marks it.
//
// A plume fills a small part of a wide domain; a dense solver pays for every
// cell anyway. The sparse solver keeps its fields over a box of the domain:
// the cells where smoke, heat, fuel or flame differ from the still air, the
// emitters, and the solids that move, grown by a margin the smoke cannot
// cross before the next check, rounded out to whole tiles. The box grows
// ahead of the smoke and shrinks behind it; outside it the air is still (or
// moves with the wind). Where a side of the box lies inside the domain the
// pressure solve sees an open side (pressure 0 beyond it: air flows in and
// out freely), as Houdini's sparse solver does at the edge of its active
// region; a side on the domain's boundary keeps that side's kind.
//
// Blender's "adaptive domain" is the same idea. Smoke in clusters apart gets a
// box each (an island, sim/solver.h), so the still air between two plumes
// costs nothing; inside a box every cell is held (tiles inside it would save
// little: a plume sets the air moving across nearly all of its box).
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "core/box.h"
#include "core/sides.h"
#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// Cells per tile edge: the box's sides fall on multiples of it, so a box that
// grows by a little grows by a tile, and a resize is rare.
inline constexpr int kTileCells = 8;

// The cells of f (in f's own indices) where density, fuel or flame is not 0 or
// the temperature is not `ambient`. Deterministic for any thread count.
Box3i scalarActivity(const Fields& f, float ambient);

// The domain cells a world box [lo, hi] touches, grown by a cell (a soft edge
// reaches that far), inside [0, cells).
Box3i cellsOfWorldBox(Vec3f lo, Vec3f hi, float dx, Vec3i cells);

// `b` grown by `margin` cells, rounded out to whole tiles, inside [0, cells).
Box3i tileAligned(const Box3i& b, int margin, Vec3i cells);

// Boxes within a tile of each other (tile-aligned boxes: touching or
// overlapping) become the box around both, until none are; in the order of
// their min corners (z, y, x). A sparse solve's islands.
std::vector<Box3i> mergeNear(std::vector<Box3i> boxes);

// Copies what fields `from` of a box at `fromOffset` (domain cells) hold
// where the box of `to` at `toOffset` overlaps it: the velocity, the scalars
// (fire's when both burn) and, with `solid`, the solid cells.
void copyFieldsOverlap(const Fields& from, Vec3i fromOffset, Fields& to, Vec3i toOffset,
                       bool solid);

// What each side of the box is to the pressure solve: the domain's kind where
// the box reaches the domain's side, open inside the domain.
std::array<Boundary, 6> boxBoundary(const Box3i& box, Vec3i cells,
                                    const std::array<Boundary, 6>& domain);

// The sides of the box (bit s for Side s) beyond which lies still air, for
// Advector::advect's scalars: all but the domain's walls.
unsigned stillAirSides(const Box3i& box, Vec3i cells, const std::array<Boundary, 6>& domain);

// Copies the samples of `from` (a grid of a box at `fromOffset`, in domain
// cells) that the grid `to` (at `toOffset`) also covers. Both grids sample the
// same points of their cells (two cell grids, or two face grids of one axis).
template <typename T>
void copyOverlap(const Grid3<T>& from, Vec3i fromOffset, Grid3<T>& to, Vec3i toOffset) {
    // Index i of `to` is index i + shift of `from`.
    const Vec3i shift{toOffset.x - fromOffset.x, toOffset.y - fromOffset.y,
                      toOffset.z - fromOffset.z};
    const int i0 = std::max(0, -shift.x), i1 = std::min(to.nx(), from.nx() - shift.x);
    const int j0 = std::max(0, -shift.y), j1 = std::min(to.ny(), from.ny() - shift.y);
    const int k0 = std::max(0, -shift.z), k1 = std::min(to.nz(), from.nz() - shift.z);
    if (i0 >= i1 || j0 >= j1 || k0 >= k1) return;
    for (int k = k0; k < k1; ++k)
        for (int j = j0; j < j1; ++j)
            std::copy_n(&from(i0 + shift.x, j + shift.y, k + shift.z), i1 - i0, &to(i0, j, k));
}

}  // namespace plume
