#include "farm/farm_bake_tasks.h"

#include <cctype>

#include "core/error.h"

namespace plume {

long long slurmMebibytes(const std::string& size) {
    size_t digits = 0;
    while (digits < size.size() && std::isdigit(static_cast<unsigned char>(size[digits]))) ++digits;
    if (digits == 0 || digits > 12 || size.size() > digits + 1) return -1;
    const long long n = std::stoll(size.substr(0, digits));
    const char unit = digits < size.size() ? char(std::toupper(size[digits])) : 'M';
    switch (unit) {
        case 'K':
            return (n + 1023) / 1024;
        case 'M':
            return n;
        case 'G':
            return n * 1024;
        case 'T':
            return n * 1024 * 1024;
        default:
            return -1;
    }
}

std::string BakeTasks::sbatchLines() const {
    if (!split()) return memPerTask.empty() ? "" : "#SBATCH --mem=" + memPerTask + "\n";
    std::string lines = "#SBATCH --ntasks=" + std::to_string(tasks) + "\n";
    if (memPerTask.empty()) return lines;
    const long long mib = slurmMebibytes(memPerTask);
    if (mib <= 0)
        throw InputError("plume farm: error: --mem-per-task '" + memPerTask +
                         "' is not a size Slurm reads (e.g. 4G, 512M); with --bake-tasks each "
                         "task gets it, shared among the task's CPUs");
    // Each task's memory, split evenly among its CPUs (rounded up).
    const int cpus = cpusPerTask > 0 ? cpusPerTask : 1;
    return lines + "#SBATCH --mem-per-cpu=" + std::to_string((mib + cpus - 1) / cpus) + "M\n";
}

std::string BakeTasks::launcher() const {
    if (!split()) return "";
    // --mpi=pmix: Debian 12's OpenMPI (4.1) joins its processes through PMIx
    // only; it has no PMI-2 client, so under slurm-wlm's other plugin,
    // --mpi=pmi2 (or none), MPI_Init fails ("OMPI was not built with SLURM's
    // PMI support"). srun of Slurm 22.05 does not take the job's
    // --cpus-per-task from its environment, hence it is given again.
    std::string s = "srun --mpi=pmix --kill-on-bad-exit=1 --ntasks=" + std::to_string(tasks);
    if (cpusPerTask > 0) s += " --cpus-per-task=" + std::to_string(cpusPerTask);
    return s + " ";
}

std::string BakeTasks::threads() const {
    // One task: all the CPUs Slurm gave the job on its node. Several: each
    // task its own --cpus-per-task (1 when not asked for), not the node's.
    return split() ? "\"${SLURM_CPUS_PER_TASK:-1}\"" : "\"${SLURM_CPUS_ON_NODE:-0}\"";
}

}  // namespace plume
