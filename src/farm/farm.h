// plume farm --slurm: a scene rendered across a Slurm cluster. Writes
// commented job scripts into OUT.farm/ and submits them with sbatch: per
// wedge variant a bake job and a job array rendering frame chunks from its
// cache, then one encode job making the videos (and the wedges' tiled one).
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace plume {

struct FarmOptions {
    std::string scenePath;
    std::string output;                                // -o OUT.mp4 (default: <scene name>.mp4)
    std::vector<std::string> overrides;                // --set, for every variant
    std::vector<std::string> wedges;                   // --wedge KEY=V1,V2,...
    int chunk = 10;                                    // frames per render task
    std::string partition, account, time, memPerTask;  // passed to sbatch as given
    int cpusPerTask = 0;  // sbatch --cpus-per-task; 0: the cluster's default
    // The bake as one job of this many MPI tasks (srun); 1: one process, as before.
    int bakeTasks = 1;
    bool slurm = false;
    bool dryRun = false;
};

// Throws InputError (exit 2, nothing submitted) for a scene or wedge error,
// no sbatch on PATH, or sbatch refusing a job (its message passed on; jobs
// already submitted are cancelled, and the folders and scripts this run made
// are removed).
int runFarm(const FarmOptions& options);

// Adds plume farm's --bake-tasks to its command line (the other options are
// in main.cpp).
void addFarmBakeTasksOption(CLI::App* cmd, FarmOptions& opt);

// Text quoted for a POSIX shell: 'it'\''s'.
std::string shellQuote(const std::string& text);

}  // namespace plume
