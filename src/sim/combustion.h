// Combustion: fuel that is hot enough burns, and burning makes heat, smoke,
// gas expansion and flame. After Mantaflow's processBurn / updateFlame, with
// every rate per second and exact over a substep (exp(-rate dt)), so the
// result does not depend on how a frame is cut into substeps.
#pragma once

#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// One substep of burning. Where fuel sits in gas hotter than
// physics.ignitionTemperature, the fraction 1 - exp(-burnRate dt) of it
// burns; each unit burnt adds flameHeat to the temperature, flameSmoke to the
// density and flameExpansion / dt to f.expansion (the divergence the
// projection keeps there this substep). The flame is the burning fuel's
// amount (at most 1) where it burns, and elsewhere fades at flameCooling.
// Returns the fuel burnt, summed over cells (a deterministic sum).
double burn(Fields& f, const PhysicsSettings& physics, float dt);

}  // namespace plume
