// How fast the flow moves at the scales the base grid cannot hold: Kim et
// al.'s energy estimate. The kinetic energy per cell, less what one level
// coarser of it predicts (the wavelet decomposition Mantaflow also uses),
// is the energy in the grid's finest band; by Kolmogorov's cascade the band
// just beyond it carries energy in proportion. Its square root, smoothed over
// the six neighbours, is a speed in m/s: how strongly to stir there.
#pragma once

#include "core/grid3.h"

namespace plume {

// `velocity`: the three cell-centred components (m/s) over the same cells.
// `out` takes their size.
void unresolvedSpeed(const ScalarGrid (&velocity)[3], ScalarGrid& out);

}  // namespace plume
