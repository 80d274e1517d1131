// Motion blur of the smoke: each cell's density (and temperature) averaged
// along the local velocity over the shutter, once per frame before the light
// sweeps. The ray march, its lights and its shadows then see the blurred smoke
// at no cost per ray, and the taps are spread evenly over the shutter, so the
// blur is smooth and deterministic (no per-pixel time jitter, no noise).
#pragma once

#include "core/grid3.h"
#include "core/volume.h"

namespace plume {

// Taps per cell: enough that neighbouring taps land within half a voxel of
// each other along the fastest cell's path, at most this many.
constexpr int kMaxBlurTaps = 16;

// Writes into `density` (and `temperature` and `flame`, when the volume has
// them, and the smoke's colour into color[0..2] premultiplied, when it has one
// and `color` is given) the
// volume's fields averaged over a shutter of `shutterSeconds` centred on the
// frame: a cell at x sees what was at x - v(x) t for t in the shutter. The
// grids grow by the way the fastest smoke moves, so smoke blurred past the
// volume's edge is kept. The volume must have its velocity. Returns the view
// of the blurred volume (without velocity).
VolumeView blurAlongVelocity(const VolumeView& volume, float shutterSeconds, ScalarGrid& density,
                             ScalarGrid& temperature, ScalarGrid& flame,
                             ScalarGrid* color = nullptr);

}  // namespace plume
