#include "sim/pressure/slab_part.h"

#include <algorithm>
#include <span>

namespace plume {

namespace {

// Adds the time until it goes out of scope to a cost.
class Timed {
  public:
    explicit Timed(SplitCost& cost) : cost_(cost), start_(std::chrono::steady_clock::now()) {}
    ~Timed() {
        cost_.seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        ++cost_.calls;
    }

  private:
    SplitCost& cost_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace

SlabComm::SlabComm(const SlabPart& part)
    : processes_(part.processes), owned_(part.owned), nz_(part.nz) {
    for (const SlabRange& r : owned_) {
        ghosted_.push_back({r.begin - 1, r.end + 1});
        whole_.push_back({0, nz_});
    }
}

void SlabComm::exchange(void* local, size_t slabBytes, const std::vector<SlabRange>& owned,
                        const std::vector<SlabRange>& held) {
    Timed t(cost_);
    processes_->exchangeSlabs(local, slabBytes, owned, held);
    // What this process received: held slabs other processes own.
    const SlabRange h = held[size_t(rank())];
    for (int p = 0; p < int(owned.size()); ++p) {
        if (p == rank()) continue;
        const SlabRange o = owned[size_t(p)];
        cost_.bytes +=
            uint64_t(std::max(0, std::min(o.end, h.end) - std::max(o.begin, h.begin))) * slabBytes;
    }
}

void SlabComm::exchangeGhosts(void* padded, size_t slabBytes) {
    exchange(padded, slabBytes, owned_, ghosted_);
}

void SlabComm::allGather(void* whole, size_t slabBytes) {
    exchange(whole, slabBytes, owned_, whole_);
}

void SlabComm::allGather(void* whole, size_t slabBytes, const std::vector<SlabRange>& owned) {
    const int n = owned.back().end;
    exchange(whole, slabBytes, owned, std::vector<SlabRange>(owned.size(), SlabRange{0, n}));
}

void SlabComm::exchange(void* local, size_t slabBytes, int below, int above) {
    std::vector<SlabRange> held;
    for (const SlabRange& r : owned_) held.push_back({r.begin - below, r.end + above});
    exchange(local, slabBytes, owned_, held);
}

double SlabComm::sum(const double* owned) {
    Timed t(cost_);
    cost_.bytes += uint64_t(nz_ - mine().size()) * sizeof(double);
    return processes_->orderedSum(std::span<const double>(owned, size_t(mine().size())), owned_);
}

float SlabComm::max(float value) {
    Timed t(cost_);
    cost_.bytes += sizeof(float);
    return processes_->max(value);
}

bool SlabComm::any(bool value) {
    Timed t(cost_);
    cost_.bytes += sizeof(int);
    return !processes_->all(!value);
}

void SlabComm::max(std::span<int> values) {
    Timed t(cost_);
    cost_.bytes += values.size() * sizeof(int);
    processes_->max(values);
}

}  // namespace plume
