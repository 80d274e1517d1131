#include "core/processes.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#ifdef PLUME_MPI
#include <mpi.h>
#endif

namespace plume {

namespace {

int environmentInt(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') return -1;
    char* end = nullptr;
    const long n = std::strtol(value, &end, 10);
    return *end == '\0' && n >= 0 && n < (1 << 20) ? int(n) : -1;
}

#ifdef PLUME_MPI
// Doubles, slab by slab, from each process's owned range into `all`.
void gatherAll(const double* owned, int ownedCount, const std::vector<SlabRange>& ranges,
               double* all) {
    std::vector<int> counts, offsets;
    for (const SlabRange& r : ranges) counts.push_back(r.size()), offsets.push_back(r.begin);
    MPI_Allgatherv(owned, ownedCount, MPI_DOUBLE, all, counts.data(), offsets.data(), MPI_DOUBLE,
                   MPI_COMM_WORLD);
}
#endif

}  // namespace

Launch launchFromEnvironment() {
    // Open MPI's mpirun, then MPICH's Hydra (and other PMI launchers), then
    // srun starting a step of several tasks.
    const char* pairs[][2] = {{"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"},
                              {"PMI_SIZE", "PMI_RANK"},
                              {"SLURM_STEP_NUM_TASKS", "SLURM_PROCID"}};
    for (const auto& [size, rank] : pairs) {
        const int count = environmentInt(size);
        if (count > 1) return {count, std::max(0, environmentInt(rank))};
    }
    return {};
}

#ifdef PLUME_MPI

bool processesBuilt() { return true; }

Processes::Processes(int& argc, char**& argv) {
    if (launchFromEnvironment().count <= 1) return;
    // Only the main thread calls MPI; TBB's workers never do.
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    joined_ = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &count_);
}

Processes::~Processes() {
    if (joined_) MPI_Finalize();
}

std::vector<double> Processes::allPartials(std::span<const double> owned,
                                           const std::vector<SlabRange>& ranges) const {
    std::vector<double> all(size_t(ranges.back().end));
    if (count_ == 1) {
        std::copy(owned.begin(), owned.end(), all.begin() + ranges[0].begin);
        return all;
    }
    gatherAll(owned.data(), int(owned.size()), ranges, all.data());
    return all;
}

float Processes::max(float value) const {
    if (count_ == 1) return value;
    float result = value;
    MPI_Allreduce(&value, &result, 1, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD);
    return result;
}

void Processes::exchangeHalo(float* local, size_t slabValues, const std::vector<SlabRange>& ranges,
                             int halo) const {
    if (count_ == 1 || halo <= 0) return;
    const SlabRange mine = ranges[size_t(rank_)];
    if (mine.size() == 0) return;
    // Neighbours: the nearest processes below and above that own slabs.
    int below = rank_ - 1, above = rank_ + 1;
    while (below >= 0 && ranges[size_t(below)].size() == 0) --below;
    while (above < count_ && ranges[size_t(above)].size() == 0) ++above;
    const size_t base = size_t(mine.begin - halo);  // global slab of local slab 0
    auto at = [&](int globalSlab) { return local + (size_t(globalSlab) - base) * slabValues; };
    MPI_Request requests[4];
    int n = 0;
    // Slabs a neighbour sends are its owned slabs nearest to us, at most `halo`
    // of them (a neighbour may own fewer).
    if (below >= 0) {
        const int get = std::min(halo, ranges[size_t(below)].size());
        const int put = std::min(halo, mine.size());
        MPI_Irecv(at(mine.begin - get), int(size_t(get) * slabValues), MPI_FLOAT, below, 0,
                  MPI_COMM_WORLD, &requests[n++]);
        MPI_Isend(at(mine.begin), int(size_t(put) * slabValues), MPI_FLOAT, below, 1,
                  MPI_COMM_WORLD, &requests[n++]);
    }
    if (above < count_) {
        const int get = std::min(halo, ranges[size_t(above)].size());
        const int put = std::min(halo, mine.size());
        MPI_Irecv(at(mine.end), int(size_t(get) * slabValues), MPI_FLOAT, above, 1, MPI_COMM_WORLD,
                  &requests[n++]);
        MPI_Isend(at(mine.end - put), int(size_t(put) * slabValues), MPI_FLOAT, above, 0,
                  MPI_COMM_WORLD, &requests[n++]);
    }
    MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);
}

void Processes::gatherSlabs(const float* owned, size_t slabValues,
                            const std::vector<SlabRange>& ranges, std::vector<float>& whole) const {
    const SlabRange mine = ranges[size_t(rank_)];
    whole.clear();
    if (rank_ == 0) whole.resize(size_t(ranges.back().end) * slabValues);
    if (count_ == 1) {
        std::copy(owned, owned + size_t(mine.size()) * slabValues, whole.begin());
        return;
    }
    std::vector<int> counts, offsets;
    for (const SlabRange& r : ranges) {
        counts.push_back(int(size_t(r.size()) * slabValues));
        offsets.push_back(int(size_t(r.begin) * slabValues));
    }
    MPI_Gatherv(owned, counts[size_t(rank_)], MPI_FLOAT, whole.data(), counts.data(),
                offsets.data(), MPI_FLOAT, 0, MPI_COMM_WORLD);
}

#else  // a build without MPI: one process

bool processesBuilt() { return false; }

Processes::Processes(int&, char**&) {
    if (const std::string why = severalProcessesRefusal(launchFromEnvironment()); !why.empty())
        throw std::runtime_error(why);
}

Processes::~Processes() = default;

std::vector<double> Processes::allPartials(std::span<const double> owned,
                                           const std::vector<SlabRange>& ranges) const {
    std::vector<double> all(size_t(ranges.back().end));
    std::copy(owned.begin(), owned.end(), all.begin() + ranges[0].begin);
    return all;
}

float Processes::max(float value) const { return value; }

void Processes::exchangeHalo(float*, size_t, const std::vector<SlabRange>&, int) const {}

void Processes::gatherSlabs(const float* owned, size_t slabValues,
                            const std::vector<SlabRange>& ranges, std::vector<float>& whole) const {
    whole.assign(owned, owned + size_t(ranges[0].size()) * slabValues);
}

#endif

std::string severalProcessesRefusal(const Launch& launch) {
    if (launch.count <= 1) return {};
    const std::string started = std::to_string(launch.count) + " were started (mpirun or srun)";
    if (!processesBuilt())
        return "this plume was built without MPI (libopenmpi-dev), so it runs as one process, but " +
               started + "; run it alone, or rebuild it with libopenmpi-dev installed";
    return "plume does not yet split a bake across processes, and " + started +
           "; run it as one process";
}

double Processes::orderedSum(std::span<const double> owned,
                             const std::vector<SlabRange>& ranges) const {
    double sum = 0.0;
    for (double p : allPartials(owned, ranges)) sum += p;
    return sum;
}

}  // namespace plume
