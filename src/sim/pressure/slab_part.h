// A pressure solve whose grid's z-slabs are split among processes
// (core/processes.h): which slabs this process owns, and the few collective
// steps the split solve is built from.
//
// Only the finest level is split. Each process keeps a padded Poisson grid
// of its owned slabs whose z ghost layers, at a cut, hold the neighbour's
// slab: a kernel that reads a neighbour slab runs after exchangeGhosts. Every
// sum is a per-slab partial, and sum() adds all of them in slab order, as
// one process does; maxima are exact in any order. So the split solve gives
// one process's bits for any number of processes.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/processes.h"
#include "core/slab_split.h"

namespace plume {

// A projection's share of a grid whose z-slabs are split among processes.
struct SlabPart {
    const Processes* processes = nullptr;  // null: this process holds the whole grid
    // Per process, the grid z-slabs it owns: contiguous, in process order,
    // covering [0, nz); some may be empty.
    std::vector<SlabRange> owned;
    int first = 0;  // grid z of the local fields' slab 0
    int nz = 0;     // slabs of the whole grid
    bool split() const { return processes != nullptr && processes->count() > 1; }
};

// What the split solve spent on talking to the other processes since the
// projection was made: bytes this process received, and seconds spent in
// the exchanges, gathers and sums (waiting for slower processes included).
struct SplitCost {
    std::uint64_t bytes = 0;
    double seconds = 0.0;
    int calls = 0;
};

// The collective steps of a split solve. Every process calls each of them
// in the same order.
class SlabComm {
  public:
    explicit SlabComm(const SlabPart& part);

    int rank() const { return processes_->rank(); }
    SlabRange mine() const { return owned_[size_t(rank())]; }
    int nz() const { return nz_; }

    // `padded` holds this process's owned slabs with one ghost slab either
    // side (slabBytes each): fills the ghosts at a cut with the neighbour's
    // slab. Ghosts beyond the grid are left as they are.
    void exchangeGhosts(void* padded, size_t slabBytes);
    // `whole` holds every slab of the grid (slabBytes each), this process's
    // owned ones filled: fills the others on every process.
    void allGather(void* whole, size_t slabBytes);
    // The same for a grid whose slabs are owned as `owned` says (per
    // process, contiguous, in process order).
    void allGather(void* whole, size_t slabBytes, const std::vector<SlabRange>& owned);
    // `local` holds this process's owned slabs with `below` and `above`
    // more (slabBytes each): fills those from the processes owning them.
    void exchange(void* local, size_t slabBytes, int below, int above);
    const std::vector<SlabRange>& owned() const { return owned_; }
    // The partials of the owned slabs (one per owned slab, in order) added
    // with every other process's in slab order.
    double sum(const double* owned);
    float max(float value);
    // Whether any process passes true.
    bool any(bool value);
    // Every process's values, element by element: the largest.
    void max(std::span<int> values);

    const SplitCost& cost() const { return cost_; }

  private:
    // exchangeSlabs, timed and counted.
    void exchange(void* local, size_t slabBytes, const std::vector<SlabRange>& owned,
                  const std::vector<SlabRange>& held);

    const Processes* processes_;
    std::vector<SlabRange> owned_, ghosted_, whole_;
    int nz_;
    SplitCost cost_;
};

}  // namespace plume
