// Dissipation: smoke fades and heat cools toward the ambient air, exactly
// over a step (exp(-rate dt)), with a floor below which a value is nothing.
#pragma once

#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// Density decays at physics.densityDissipation, temperature toward ambient
// at physics.temperatureDissipation.
void dissipate(Fields& f, const PhysicsSettings& physics, float dt);

}  // namespace plume
