#include "core/processes.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
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
// Adds the wall time of its scope and the bytes it was told to a Traffic.
class Meter {
  public:
    Meter(double& seconds, double& bytes, double received)
        : seconds_(seconds), start_(std::chrono::steady_clock::now()) {
        bytes += received;
    }
    ~Meter() {
        seconds_ +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

  private:
    double& seconds_;
    std::chrono::steady_clock::time_point start_;
};

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
    const Meter meter(traffic_.seconds, traffic_.bytes,
                      double(all.size() - owned.size()) * sizeof(double));
    gatherAll(owned.data(), int(owned.size()), ranges, all.data());
    return all;
}

float Processes::max(float value) const {
    if (count_ == 1) return value;
    float result = value;
    const Meter meter(traffic_.seconds, traffic_.bytes, double(count_ - 1) * sizeof(float));
    MPI_Allreduce(&value, &result, 1, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD);
    return result;
}

void Processes::exchangeSlabs(void* local, size_t slabBytes, const std::vector<SlabRange>& owned,
                              const std::vector<SlabRange>& held) const {
    if (count_ == 1 || slabBytes == 0) return;
    MPI_Datatype slab;
    MPI_Type_contiguous(int(slabBytes), MPI_BYTE, &slab);
    MPI_Type_commit(&slab);
    const SlabRange mine = held[size_t(rank_)];
    auto at = [&](int globalSlab) {
        return static_cast<char*>(local) + size_t(globalSlab - mine.begin) * slabBytes;
    };
    auto overlap = [](SlabRange a, SlabRange b) {
        return SlabRange{std::max(a.begin, b.begin), std::min(a.end, b.end)};
    };
    double received = 0;
    for (int p = 0; p < count_; ++p)
        if (p != rank_)
            received += double(std::max(0, overlap(owned[size_t(p)], mine).size())) * slabBytes;
    const Meter meter(traffic_.seconds, traffic_.bytes, received);
    std::vector<MPI_Request> requests;
    for (int p = 0; p < count_; ++p) {
        if (p == rank_) continue;
        // What p owns of what this process holds, and what this one owns of p's.
        const SlabRange get = overlap(owned[size_t(p)], mine);
        const SlabRange put = overlap(owned[size_t(rank_)], held[size_t(p)]);
        if (get.size() > 0) {
            requests.emplace_back();
            MPI_Irecv(at(get.begin), get.size(), slab, p, 0, MPI_COMM_WORLD, &requests.back());
        }
        if (put.size() > 0) {
            requests.emplace_back();
            MPI_Isend(at(put.begin), put.size(), slab, p, 0, MPI_COMM_WORLD, &requests.back());
        }
    }
    MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    MPI_Type_free(&slab);
}

void Processes::gatherSlabs(const void* owned, size_t slabBytes,
                            const std::vector<SlabRange>& ranges, void* whole) const {
    gatherSlabsTo(owned, slabBytes, ranges, whole, false);
}

void Processes::allGatherSlabs(const void* owned, size_t slabBytes,
                               const std::vector<SlabRange>& ranges, void* whole) const {
    gatherSlabsTo(owned, slabBytes, ranges, whole, true);
}

void Processes::gatherSlabsTo(const void* owned, size_t slabBytes,
                              const std::vector<SlabRange>& ranges, void* whole, bool all) const {
    const SlabRange mine = ranges[size_t(rank_)];
    if (count_ == 1) {
        std::memcpy(static_cast<char*>(whole) + size_t(mine.begin) * slabBytes, owned,
                    size_t(mine.size()) * slabBytes);
        return;
    }
    MPI_Datatype slab;
    MPI_Type_contiguous(int(slabBytes), MPI_BYTE, &slab);
    MPI_Type_commit(&slab);
    std::vector<int> counts, offsets;
    for (const SlabRange& r : ranges) counts.push_back(r.size()), offsets.push_back(r.begin);
    const bool receives = all || rank_ == 0;
    const Meter meter(traffic_.seconds, traffic_.bytes,
                      receives ? double(ranges.back().end - mine.size()) * slabBytes : 0.0);
    if (all)
        MPI_Allgatherv(owned, mine.size(), slab, whole, counts.data(), offsets.data(), slab,
                       MPI_COMM_WORLD);
    else
        MPI_Gatherv(owned, mine.size(), slab, whole, counts.data(), offsets.data(), slab, 0,
                    MPI_COMM_WORLD);
    MPI_Type_free(&slab);
}

void Processes::min(std::span<int> values) const {
    if (count_ == 1) return;
    const Meter meter(traffic_.seconds, traffic_.bytes,
                      double(count_ - 1) * double(values.size_bytes()));
    MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_INT, MPI_MIN,
                  MPI_COMM_WORLD);
}

void Processes::max(std::span<int> values) const {
    if (count_ == 1) return;
    const Meter meter(traffic_.seconds, traffic_.bytes,
                      double(count_ - 1) * double(values.size_bytes()));
    MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_INT, MPI_MAX,
                  MPI_COMM_WORLD);
}

bool Processes::all(bool value) const {
    int v = value ? 1 : 0;
    const Meter meter(traffic_.seconds, traffic_.bytes, double(count_ - 1) * sizeof v);
    if (count_ > 1) MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return v != 0;
}

std::vector<std::vector<char>> Processes::allGatherBytes(std::span<const char> mine) const {
    if (count_ == 1) return {std::vector<char>(mine.begin(), mine.end())};
    const size_t n = static_cast<size_t>(count_);
    std::vector<int> sizes(n), starts(n);
    const int size = int(mine.size());
    MPI_Allgather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD);
    long total = 0;
    for (int p = 0; p < count_; ++p) starts[size_t(p)] = int(total), total += sizes[size_t(p)];
    std::vector<char> all(static_cast<size_t>(total));
    {
        const Meter meter(traffic_.seconds, traffic_.bytes, double(total - size));
        MPI_Allgatherv(mine.data(), size, MPI_BYTE, all.data(), sizes.data(), starts.data(),
                       MPI_BYTE, MPI_COMM_WORLD);
    }
    std::vector<std::vector<char>> out(n);
    for (int p = 0; p < count_; ++p)
        out[size_t(p)].assign(all.begin() + starts[size_t(p)],
                              all.begin() + starts[size_t(p)] + sizes[size_t(p)]);
    return out;
}

void Processes::broadcast(std::vector<char>& bytes) const {
    if (count_ == 1) return;
    unsigned long long size = bytes.size();
    MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    bytes.resize(size_t(size));
    MPI_Bcast(bytes.data(), int(size), MPI_CHAR, 0, MPI_COMM_WORLD);
}

void Processes::broadcast(std::span<int> values) const {
    if (count_ == 1) return;
    const Meter meter(traffic_.seconds, traffic_.bytes, rank_ ? double(values.size_bytes()) : 0.0);
    MPI_Bcast(values.data(), int(values.size()), MPI_INT, 0, MPI_COMM_WORLD);
}

void Processes::streamSlabs(size_t slabBytes, const std::vector<SlabRange>& ranges, int runSlabs,
                            const SlabSource& mine, const SlabSink& take) const {
    constexpr int kTag = 42;
    std::vector<char> run;  // process 0's, for another's slabs
    for (int p = 0; p < int(ranges.size()); ++p) {
        if (rank_ != 0 && p != rank_) continue;
        for (int begin = ranges[size_t(p)].begin; begin < ranges[size_t(p)].end;
             begin += runSlabs) {
            const int end = std::min(begin + runSlabs, ranges[size_t(p)].end);
            const size_t bytes = size_t(end - begin) * slabBytes;
            if (p == rank_ && rank_ == 0) {
                take(begin, end, mine(begin, end));
            } else if (p == rank_) {
                const void* values = mine(begin, end);
                const Meter meter(traffic_.seconds, traffic_.bytes, 0.0);
                MPI_Send(values, int(bytes), MPI_BYTE, 0, kTag, MPI_COMM_WORLD);
            } else {
                run.resize(std::max(run.size(), bytes));
                {
                    const Meter meter(traffic_.seconds, traffic_.bytes, double(bytes));
                    MPI_Recv(run.data(), int(bytes), MPI_BYTE, p, kTag, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                }
                take(begin, end, run.data());
            }
        }
    }
}

void Processes::abort(int status) const {
    if (joined_) MPI_Abort(MPI_COMM_WORLD, status);
    std::exit(status);
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

void Processes::exchangeSlabs(void*, size_t, const std::vector<SlabRange>&,
                              const std::vector<SlabRange>&) const {}

void Processes::gatherSlabs(const void* owned, size_t slabBytes,
                            const std::vector<SlabRange>& ranges, void* whole) const {
    std::memcpy(static_cast<char*>(whole) + size_t(ranges[0].begin) * slabBytes, owned,
                size_t(ranges[0].size()) * slabBytes);
}

void Processes::allGatherSlabs(const void* owned, size_t slabBytes,
                               const std::vector<SlabRange>& ranges, void* whole) const {
    gatherSlabs(owned, slabBytes, ranges, whole);
}

void Processes::gatherSlabsTo(const void* owned, size_t slabBytes,
                              const std::vector<SlabRange>& ranges, void* whole, bool) const {
    gatherSlabs(owned, slabBytes, ranges, whole);
}

void Processes::min(std::span<int>) const {}
void Processes::max(std::span<int>) const {}
bool Processes::all(bool value) const { return value; }
std::vector<std::vector<char>> Processes::allGatherBytes(std::span<const char> mine) const {
    return {std::vector<char>(mine.begin(), mine.end())};
}
void Processes::broadcast(std::vector<char>&) const {}
void Processes::broadcast(std::span<int>) const {}
void Processes::streamSlabs(size_t, const std::vector<SlabRange>& ranges, int runSlabs,
                            const SlabSource& mine, const SlabSink& take) const {
    for (int begin = ranges[0].begin; begin < ranges[0].end; begin += runSlabs) {
        const int end = std::min(begin + runSlabs, ranges[0].end);
        take(begin, end, mine(begin, end));
    }
}
[[noreturn]] void Processes::abort(int status) const { std::exit(status); }

#endif

std::string severalProcessesRefusal(const Launch& launch) {
    if (launch.count <= 1) return {};
    const std::string started = std::to_string(launch.count) + " were started (mpirun or srun)";
    if (!processesBuilt())
        return "this plume was built without MPI (libopenmpi-dev), so it runs as one process, "
               "but " +
               started + "; run it alone, or rebuild it with libopenmpi-dev installed";
    return {};
}

void Processes::exchangeHalo(float* local, size_t slabValues, const std::vector<SlabRange>& ranges,
                             int halo) const {
    std::vector<SlabRange> held;
    for (const SlabRange& r : ranges) held.push_back({r.begin - halo, r.end + halo});
    exchangeSlabs(local, slabValues * sizeof(float), ranges, held);
}

void Processes::gatherSlabs(const float* owned, size_t slabValues,
                            const std::vector<SlabRange>& ranges, std::vector<float>& whole) const {
    whole.clear();
    if (rank_ == 0) whole.resize(size_t(ranges.back().end) * slabValues);
    gatherSlabs(static_cast<const void*>(owned), slabValues * sizeof(float), ranges,
                rank_ == 0 ? static_cast<void*>(whole.data()) : nullptr);
}

double Processes::orderedSum(std::span<const double> owned,
                             const std::vector<SlabRange>& ranges) const {
    double sum = 0.0;
    for (double p : allPartials(owned, ranges)) sum += p;
    return sum;
}

}  // namespace plume
