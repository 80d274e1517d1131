// plume farm --bake-tasks N: the bake as one Slurm job of N MPI tasks, each
// process holding its part of the grid. What that job asks Slurm for and how
// it starts the tasks; the render array and the encode job do not change.
#pragma once

#include <string>

namespace plume {

struct BakeTasks {
    int tasks = 1;           // N, >= 1
    int cpusPerTask = 0;     // plume farm --cpus-per-task; 0: the cluster's default (one)
    std::string memPerTask;  // plume farm --mem-per-task, as given; empty: the default

    bool split() const { return tasks > 1; }
    // The #SBATCH lines for the tasks and their memory: with one task, the
    // job's --mem as given; with N, --ntasks=N and each task's memory as
    // --mem-per-cpu (Slurm's --mem is per node, which N tasks may share).
    // Throws InputError for a --mem-per-task Slurm would not read.
    std::string sbatchLines() const;
    // The command that starts the N tasks as one MPI job ("srun ... "), ending
    // in a space; empty with one task.
    std::string launcher() const;
    // plume's --threads value in each task: the CPUs Slurm gave the task.
    std::string threads() const;
};

// A Slurm memory size (an integer, optionally K, M, G or T; M when none) in
// mebibytes, rounded up; -1 when it is not one.
long long slurmMebibytes(const std::string& size);

}  // namespace plume
