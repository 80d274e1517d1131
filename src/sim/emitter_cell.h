// One cell of an emitter's source: what every emitter shape (spheres, boxes,
// meshes, points) does to a cell it covers by `amount` (coverage times noise).
#pragma once

#include <algorithm>

#include "scene/scene.h"
#include "sim/fields.h"
#include "sim/smoke_color.h"

namespace plume {

// Smoke, heat and fuel raised to the emitter's amounts (max, so overlapping
// emitters do not add up); the smoke it adds takes its colour when the
// fields carry one (sim/smoke_color.h); fuel only where the fields burn.
inline void raiseToEmitter(Fields& f, int i, int j, int k, float amount, const EmitterSettings& e,
                           bool colored, bool fuel) {
    const float before = f.density(i, j, k);
    f.density(i, j, k) = std::max(before, amount * e.density);
    if (colored && f.density(i, j, k) > before)
        addColor(f, f.density.index(i, j, k), f.density(i, j, k) - before, e.color);
    f.temperature(i, j, k) = std::max(f.temperature(i, j, k), amount * e.temperature);
    if (fuel) f.fuel(i, j, k) = std::max(f.fuel(i, j, k), amount * e.fuel);
}

}  // namespace plume
