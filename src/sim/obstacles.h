// Static obstacles rasterised onto the grid's solid mask.
#pragma once

#include <vector>

#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// Marks every cell whose centre lies inside an obstacle as solid.
void rasterizeObstacles(Fields& f, const std::vector<ObstacleSettings>& obstacles);

// The same for obstacles that move: `now` places them, and each face touching
// a solid cell gets the velocity of the solid's material point there, from
// where `before` and `after` place that point `seconds` apart (translation,
// rotation and scaling alike), plus a mesh sequence's own surface velocity
// there (ShapeSettings::surfaceVelocity). Returns the largest such speed, m/s.
float rasterizeMovingObstacles(Fields& f, const std::vector<ObstacleSettings>& now,
                               const std::vector<ObstacleSettings>& before,
                               const std::vector<ObstacleSettings>& after, float seconds);

// Empties solids of smoke (smoke never sits in a wall): no density, and the
// ambient temperature, so a wall neither heats nor chills the air beside it.
void clearSolidScalars(Fields& f, float ambientTemperature);

}  // namespace plume
