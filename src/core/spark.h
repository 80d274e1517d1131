// Spark: one point the fire throws (sim/sparks.h), as the solver moves it,
// the cache stores it (the `sparks` points grid) and the renderer draws it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/vec.h"

namespace plume {

struct Spark {
    Vec3f p{0, 0, 0};          // metres, in the frame the volume beside it is placed in
    Vec3f v{0, 0, 0};          // m/s
    float age = 0.0f;          // seconds since its birth
    float life = 1.0f;         // seconds it may live
    float temperature = 0.0f;  // kelvin
    float pscale = 0.005f;     // radius, metres
    std::uint64_t id = 0;      // its birth's hash: the same spark in any run
};

using SparkList = std::vector<Spark>;

}  // namespace plume
