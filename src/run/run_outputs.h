// Where a run writes (FrameSinks, frame_sinks.h). The command line fills the
// per-frame outputs straight from its options; the commands add the video's
// path and the resume state's. A new output is a field here, an option in
// main.cpp and a sink in FrameSinks, with no edit to the commands.
#pragma once

#include <string>

namespace plume {

// Where a run writes; an empty path was not asked for.
struct RunOutputs {
    std::string vdbDir;       // VDB cache: DIR/NAME_0001.vdb ...
    std::string nvdbDir;      // NanoVDB cache: DIR/NAME_0001.nvdb ... (run/cache_sinks.h)
    std::string pngDir;       // PNG frames: DIR/NAME_0001.png ...
    std::string exrDir;       // EXR frames: DIR/NAME_0001.exr ...
    std::string deepDir;      // deep EXR frames: DIR/NAME_0001.exr ...
    std::string flipbookDir;  // the flipbook: DIR/NAME_colour.png, DIR/NAME.json
    std::string videoPath;    // the MP4
    std::string statsPath;    // per-frame CSV (--stats)
    std::string reportPath;   // the HTML report (--report)
    std::string commandLine;  // the command as typed, for the report
    std::string statePath;    // resume state, rewritten after every frame (bake)
    // Frames whose every per-frame file (VDB, PNG, EXR) exists are not written
    // again; a re-run job redoes only what is missing. No video then.
    bool skipExisting = false;

    // Whether the run writes pictures (the renderer runs for some frames).
    bool pictures() const {
        return !videoPath.empty() || !pngDir.empty() || !exrDir.empty() || !deepDir.empty() ||
               !flipbookDir.empty();
    }
};

}  // namespace plume
