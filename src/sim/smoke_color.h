// Smoke colour: each emitter's smoke scatters its own colour (emitter.color,
// a linear RGB albedo), and where smokes meet their colours mix by density.
//
// The solver holds the colour premultiplied, colour times density, in three
// cell-centred grids (Fields::color), as Mantaflow holds its color_r, _g and
// _b. They go through every stage density goes through: emitted as density
// is raised (the rise times the emitter's colour), made by burning with the
// soot (times physics.flame_smoke_color), dissipated and diffused as density
// is, and cleared from solids. So the colour of a cell, premultiplied over
// density, is the density-weighted mix of the smokes in it.
//
// Advection is the one stage that moves them differently (advectColor): as
// the colour, premultiplied over density, carried semi-Lagrangian, times the
// density's own advected value. Advected each on its own as density is
// (MacCormack, each field clamped to its own neighbours), two colours
// meeting overshot: red plus blue reached 1.8 times the density where they
// met, and the colours' mass grew 23% in a closed box where density's grew
// 12% (tests/system/smoke_color_test.cpp's two emitters, frames 6 to 12). Carried
// this way a cell's colour is a density-weighted mean of the colours it came
// from: within [0, 1], no channel made where none was, and the channels of
// smoke all of pure colours sum to exactly its density, so their mass is
// kept as density's is.
//
// A scene without a colour key holds no colour grids and runs exactly as it
// did; the renderer then draws all smoke in render.albedo's grey.
#pragma once

#include <algorithm>
#include <cstddef>

#include "core/scratch_arena.h"
#include "core/vec.h"
#include "core/volume.h"  // shownColor
#include "sim/advection.h"
#include "sim/fields.h"

namespace plume {

// Adds `amount` of density in colour `color` to cell `cell` (an index into
// the cell-centred grids) of premultiplied colour grids.
inline void addColor(Fields& f, size_t cell, float amount, Vec3f color) {
    f.color[0][cell] += amount * color.x;
    f.color[1][cell] += amount * color.y;
    f.color[2][cell] += amount * color.z;
}

// Below this a colour channel is nothing, as dissipation floors density.
constexpr float kNegligibleColor = 1e-6f;

// Advects f's colour through `velocity` over dt seconds, after f.density
// was advected through it: `before` holds the density as it was before (it
// is advected in place, as scratch). The traces are made anew (the density's
// MacCormack steps took their room), with scratch from `arena` when given,
// else the advector's own. openSides as Advector::advect's.
void advectColor(Advector& advector, const MacVelocity& velocity, ScratchArena* arena, Fields& f,
                 ScalarGrid& before, float dt, unsigned openSides);

}  // namespace plume
