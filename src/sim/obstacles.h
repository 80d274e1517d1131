// Static obstacles rasterised onto the grid's solid mask.
#pragma once

#include <vector>

#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// Marks every cell whose centre lies inside an obstacle as solid.
void rasterizeObstacles(Fields& f, const std::vector<ObstacleSettings>& obstacles);

// Empties solids of smoke (smoke never sits in a wall): no density, and the
// ambient temperature, so a wall neither heats nor chills the air beside it.
void clearSolidScalars(Fields& f, float ambientTemperature);

}  // namespace plume
