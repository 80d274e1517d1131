// The subcommands behind main(): each returns the process exit status and
// throws InputError (exit 2) or RunError (exit 1) for main() to report.
#pragma once

#include <string>
#include <vector>

#include "run/run_outputs.h"

namespace plume {

class Processes;

struct RunOptions {
    std::string scenePath;               // render, bake, check
    std::vector<std::string> overrides;  // --set key=value
    std::string output;                  // -o OUT.mp4
    // --vdb, --png, --exr, --stats, --skip-existing (run/run_outputs.h).
    RunOutputs outputs;
    std::string frames;  // --frames A-B
    int threads = 0;     // --threads N (0: all cores)
    bool quiet = false;
    bool resume = false;                       // bake --resume
    std::string pattern;                       // render-vdb input
    std::vector<std::string> inputs;           // encode: one sequence, or several to tile
    std::vector<std::string> labels;           // encode --label: one per tiled sequence
    std::string grid;                          // render-vdb --grid
    bool reference = false;                    // check --reference
    std::string referenceFormat = "markdown";  // check --reference-format markdown|json
    double fps = 0;                            // encode --fps (0: from the scene)
    bool noVideo = false;                      // --no-video: per-frame outputs only
    int factor = 0;                            // upres --factor (0: the scene's, else 2)
    // bake started as several processes (mpirun, srun): the bake splits across them.
    const Processes* processes = nullptr;
};

int runRender(const RunOptions& options);
int runBake(const RunOptions& options);
int runRenderVdb(const RunOptions& options);
int runCheck(const RunOptions& options);

}  // namespace plume
