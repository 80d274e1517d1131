// Static obstacles rasterised onto the grid's solid mask.
#pragma once

#include <vector>

#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// Marks every cell whose centre lies inside an obstacle as solid.
void rasterizeObstacles(Fields& f, const std::vector<ObstacleSettings>& obstacles);

// Zeroes density and temperature inside solids (smoke never sits in a wall).
void clearSolidScalars(Fields& f);

}  // namespace plume
