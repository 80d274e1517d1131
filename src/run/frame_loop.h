// The one frame loop of every command that makes frames (render, bake,
// render-vdb, upres): a source makes each frame, the sinks write it. So every
// command has the same progress line, --stats, --report, Ctrl-C handling,
// out-of-memory message and closing line.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "run/frame_sinks.h"
#include "run/frame_source.h"
#include "scene/scene.h"

namespace plume {

// Makes the source once the sinks have checked their paths (a solver's
// memory is allocated only then); `stage` names what it is doing, for an
// out-of-memory message.
using MakeSource =
    std::function<std::unique_ptr<FrameSource>(FrameSinks& sinks, const char*& stage)>;

// Runs the source's frames from its first to lastIndex (indices from 1, as
// Scene counts them) through the sinks, opened with the scene as it is then.
// Returns the exit status: 0, or 128 + the signal after an interrupt (the
// outputs finished and what they keep said). Out of memory, throws a
// RunError saying at which frame and stage, and what is kept; statePath
// names a resume state whose frame the message may name.
int runFrameLoop(const Scene& scene, FrameSinks& sinks, int lastIndex, const MakeSource& make,
                 const std::string& statePath = {});

}  // namespace plume
