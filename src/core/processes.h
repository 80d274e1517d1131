// The processes one bake is split across (MPI), or this one process alone:
// the only door to MPI. A build without it (no libopenmpi-dev) still knows
// when a launcher started several of it, and says so.
//
// Sums stay bit-identical for any number of processes because plume never
// adds across slabs in any order but the slabs' own: each process forms the
// partials of the slabs it owns, every process gets all of them, and each
// adds them in slab order as one process would (core/parallel.h).
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/slab_split.h"

namespace plume {

// How many processes a launcher (mpirun, srun) started together, and this
// one's place among them, read from the launcher's environment; {1, 0} when
// none did.
struct Launch {
    int count = 1;
    int rank = 0;
};
Launch launchFromEnvironment();

// Whether this build can talk to other processes (was built with MPI).
bool processesBuilt();

// Why this run cannot go on as the `launch.count` processes it was started
// as, in one line (plume's "plume: error: " goes before it); empty when it
// can (one process).
std::string severalProcessesRefusal(const Launch& launch);

// The processes of this run. With one process no MPI call is made.
class Processes {
  public:
    // Joins the other processes when the launcher started several (MPI_Init);
    // throws std::runtime_error when this build has no MPI.
    Processes(int& argc, char**& argv);
    ~Processes();  // MPI_Finalize
    Processes(const Processes&) = delete;
    Processes& operator=(const Processes&) = delete;

    int rank() const { return rank_; }
    int count() const { return count_; }

    // Each process gives the partials of the slabs it owns, ranges[rank()];
    // returns every slab's partial, in slab order, on every process.
    std::vector<double> allPartials(std::span<const double> owned,
                                    const std::vector<SlabRange>& ranges) const;
    // The sum of all the slabs' partials, added in slab order: what one
    // process holding every slab adds, bit for bit.
    double orderedSum(std::span<const double> owned, const std::vector<SlabRange>& ranges) const;
    // The largest of every process's value (exact in any order).
    float max(float value) const;

    // `local` holds the slabs held[rank()] of a grid (each slabBytes bytes,
    // slab-major) and this process computes owned[rank()] of them. Fills
    // every held slab another process owns with that process's values, and
    // sends this one's owned slabs wherever another process holds them. Any
    // held slab nobody owns is left as it is.
    void exchangeSlabs(void* local, size_t slabBytes, const std::vector<SlabRange>& owned,
                       const std::vector<SlabRange>& held) const;
    // The same for a halo of `halo` slabs either side of each process's
    // owned slabs, `local` holding [begin - halo, end + halo) of them (floats).
    void exchangeHalo(float* local, size_t slabValues, const std::vector<SlabRange>& ranges,
                      int halo) const;
    // Gathers every process's owned slabs (`owned`, ranges[rank()].size()
    // slabs of slabBytes) into `whole` on process 0, which must hold every
    // slab (slab-major); `whole` is not touched on the others.
    void gatherSlabs(const void* owned, size_t slabBytes, const std::vector<SlabRange>& ranges,
                     void* whole) const;
    void gatherSlabs(const float* owned, size_t slabValues, const std::vector<SlabRange>& ranges,
                     std::vector<float>& whole) const;
    // The same into `whole` on every process.
    void allGatherSlabs(const void* owned, size_t slabBytes, const std::vector<SlabRange>& ranges,
                        void* whole) const;
    // Every process's values, element by element: the least, the largest
    // (exact in any order), and whether all are true.
    void min(std::span<int> values) const;
    void max(std::span<int> values) const;
    bool all(bool value) const;
    // Every process's bytes, in process order, on every process (each
    // process's may differ in length): what each found of a list all keep.
    std::vector<std::vector<char>> allGatherBytes(std::span<const char> mine) const;
    // Process 0's bytes on every process (`bytes` resized on the others).
    void broadcast(std::vector<char>& bytes) const;
    // Process 0's values on every process.
    void broadcast(std::span<int> values) const;
    // Process 0 takes every process's owned slabs (ranges[p], slabBytes
    // each) of a grid in slab order, a run of at most runSlabs at a time:
    // its own from mine(begin, end), the others' as they arrive, which each
    // sends from its own mine(). So process 0 holds one run of another's
    // grid, never the whole of it. mine's pointer is read before its next call.
    using SlabSource = std::function<const void*(int begin, int end)>;
    using SlabSink = std::function<void(int begin, int end, const void* values)>;
    void streamSlabs(size_t slabBytes, const std::vector<SlabRange>& ranges, int runSlabs,
                     const SlabSource& mine, const SlabSink& take) const;
    // What this process received from the others and the wall time it spent
    // in the calls above (waiting for them included), since it started.
    struct Traffic {
        double bytes = 0;
        double seconds = 0;
    };
    Traffic traffic() const { return traffic_; }

    // Ends every process of the run at once with `status` (MPI_Abort): what a
    // process that cannot go on does, so the others do not wait for it.
    [[noreturn]] void abort(int status) const;

  private:
    // gatherSlabs on process 0 (all: allGatherSlabs).
    void gatherSlabsTo(const void* owned, size_t slabBytes, const std::vector<SlabRange>& ranges,
                       void* whole, bool all) const;

    int rank_ = 0;
    int count_ = 1;
    mutable Traffic traffic_;
    bool joined_ = false;
};

}  // namespace plume
