// A read-only view of scalar volumes placed in the world: what the renderer
// draws, whether it comes from the solver or from a VDB file.
#pragma once

#include <algorithm>
#include <array>

#include "core/grid3.h"
#include "core/spark.h"
#include "core/vec.h"

namespace plume {

// The colour a cell shows: premultiplied over density, in [0, 1] (the
// advection's limiter keeps each channel within its neighbours' values, not
// the ratio within the colours emitted); black where there is no smoke. A
// cache's `color` grid holds exactly this, so its render matches the bake's.
inline float shownColor(float premultiplied, float density) {
    return density > 0.0f ? std::clamp(premultiplied / density, 0.0f, 1.0f) : 0.0f;
}

struct VolumeView {
    const ScalarGrid* density = nullptr;      // cell-centred, required
    const ScalarGrid* temperature = nullptr;  // cell-centred, same size, may be null
    Vec3f origin{0, 0, 0};                    // world position of the min corner of cell (0, 0, 0)
    float dx = 1.0f;                          // voxel size in metres
    // Velocity components in m/s over the same cells (faces or centres: each
    // grid knows where its samples sit), for motion blur; null when unknown.
    std::array<const ScalarGrid*, 3> velocity{};
    const ScalarGrid* flame = nullptr;  // fire: where it glows, same size as density, may be null
    // The smoke's colour (linear RGB albedo, sim/smoke_color.h), one grid a
    // channel over the same cells, null when it has none: premultiplied
    // (colour times density, as the solver and Mantaflow hold it) or the
    // colour itself (a cache's `color` grid).
    std::array<const ScalarGrid*, 3> color{};
    bool colorPremultiplied = true;
    // For a slice view (render.view): what only the solver knows, over the
    // same cells, null otherwise. Pressure in pascals (air of 1.2 kg/m^3),
    // divergence of the face velocities in 1/s (0 in solid cells).
    const ScalarGrid* pressure = nullptr;
    const ScalarGrid* divergence = nullptr;
    // The sparks (sim/sparks.h) in the same frame as origin, null when none.
    const SparkList* sparks = nullptr;

    Vec3f worldMin() const { return origin; }
    Vec3f worldMax() const {
        return origin +
               Vec3f(float(density->nx()), float(density->ny()), float(density->nz())) * dx;
    }
};

}  // namespace plume
