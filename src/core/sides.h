// The six sides of the box domain and what each can be. Shared by the scene
// (which names them) and the pressure solve (which builds its matrix from them).
#pragma once

namespace plume {

enum class Boundary { Wall, Open, Inflow };

// Domain sides in a fixed order; index with Side.
enum Side { kXMin = 0, kXMax, kYMin, kYMax, kZMin, kZMax };

}  // namespace plume
