// Emitters: spheres and boxes that put smoke, heat and motion into the domain.
#pragma once

#include <vector>

#include "core/noise.h"
#include "scene/scene.h"
#include "scene/shot_clock.h"
#include "sim/fields.h"

namespace plume {

// Raises density and temperature inside every emitter active at `frame` to the
// emitter's values (max, so overlapping emitters do not add up), with a one-cell
// soft edge so the source is round at any resolution; imposes the emitter's
// velocity on faces inside it when that velocity is non-zero, plus for a
// mesh sequence inherit_velocity times its surface's own. `time` (simulated
// seconds) animates the deterministic noise; `shot`, the substep's span of
// the shot, places a points emitter's points (sim/point_emitters.h).
void applyEmitters(Fields& f, const std::vector<EmitterSettings>& emitters, int frame, double time,
                   const ShotSpan& shot = {});

}  // namespace plume
