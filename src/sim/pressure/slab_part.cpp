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
    ghostSlabs_ = received(ghosted_);
    gatherSlabs_ = received(whole_);
}

std::uint64_t SlabComm::received(const std::vector<SlabRange>& held) const {
    const SlabRange h = held[size_t(rank())];
    std::uint64_t slabs = 0;
    for (int p = 0; p < int(owned_.size()); ++p) {
        if (p == rank()) continue;
        const SlabRange o = owned_[size_t(p)];
        slabs += uint64_t(std::max(0, std::min(o.end, h.end) - std::max(o.begin, h.begin)));
    }
    return slabs;
}

void SlabComm::exchangeGhosts(void* padded, size_t slabBytes) {
    Timed t(cost_);
    processes_->exchangeSlabs(padded, slabBytes, owned_, ghosted_);
    cost_.bytes += ghostSlabs_ * slabBytes;
}

void SlabComm::allGather(void* whole, size_t slabBytes) {
    Timed t(cost_);
    processes_->exchangeSlabs(whole, slabBytes, owned_, whole_);
    cost_.bytes += gatherSlabs_ * slabBytes;
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
