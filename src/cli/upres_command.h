// plume upres: the fine scalars of upres (sim/upres) from an existing cache,
// without baking again (an artist approves a coarse bake's motion, then adds
// detail to it; Houdini's Gas Up Res, Phoenix's resimulation).
#pragma once

#include "cli/commands.h"

namespace plume {

// Reads 'DIR/NAME_####.vdb' from its first frame, advances upres on each
// frame and writes OUTDIR/NAME_####.vdb: the fine scalars and the cache's own
// velocity, as a bake with upres writes them. From an exact cache the frames
// are the inline upres's, bit for bit. InputError (exit 2) for a missing
// scene, a bad pattern or factor, a missing frame, a cache that does not fit
// the scene.
int runUpres(const RunOptions& options);

}  // namespace plume
