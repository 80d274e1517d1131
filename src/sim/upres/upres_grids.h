// Upres's grids over boxes of the domain (sim/upres/upres.h), shared by its
// files: upres.cpp (the frame, the fine box), upres_input.cpp, upres_feed.cpp,
// upres_stirring.cpp and upres_resume.cpp. In a namespace of their own, so a
// unity batch's neighbours keep their own names.
#pragma once

#include "core/box.h"
#include "sim/fields.h"

namespace plume::upres {

// Copies `from` (over box `fromBox` of the domain) into `to` (over `toBox`),
// where the two overlap; the rest of `to` is `outside`.
void copyOver(const ScalarGrid& from, const Box3i& fromBox, ScalarGrid& to, const Box3i& toBox,
              float outside);

// The largest magnitude in `g`, slab by slab (the same bits for any thread count).
float maxAbs(const ScalarGrid& g);

// The fine grid's place (no grids yet) over base box `box` of a domain of
// `domainCells` cells of `dx` from `domainOrigin`: `factor` times finer.
Fields fineLayout(const Box3i& box, int factor, float dx, Vec3f domainOrigin, Vec3i domainCells);

}  // namespace plume::upres
