// What a frame's fields hold in all, for --stats and --report: how much smoke
// and fuel there is and the fastest flow. One pass over each grid, a small
// cost beside a substep's dozens (about 1% of a bake's simulation time:
// tests/bench/README.md, Whole runs), paid only when --stats or --report asks.
#pragma once

#include <vector>

#include "sim/fields.h"
#include "sim/frame_feed.h"

namespace plume {

struct FieldTotals {
    // Density (and fuel) summed over the cells times the cell volume: the
    // "mass" in density units times m^3. Falls as smoke dissipates or leaves
    // through an open side, rises while an emitter runs.
    double smoke = 0, fuel = 0;
    float peakSpeed = 0;  // the largest face speed, m/s (what the CFL rule counts)
    double sparks = 0;    // live sparks (set by the solver's source; 0 from a cache)
};

// Over a frame's islands, a run of slabs at a time as the feed hands them
// out (a split bake's process 0 never holds the frame whole for them), each
// slab's sum added in slab order, so the totals are the same bits for any
// thread count and any number of processes.
FieldTotals fieldTotals(const FrameFeed& feed);
// The same over islands one process holds (Solver::islandFields).
FieldTotals fieldTotals(const std::vector<const Fields*>& islands);

}  // namespace plume
