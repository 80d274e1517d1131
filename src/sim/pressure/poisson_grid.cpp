#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>

#include "core/error.h"
#include "sim/pressure/poisson.h"

namespace plume {

// ---- cell classes -----------------------------------------------------------

void PoissonGrid::build(Vec3i cells, const std::array<bool, 6>& openSide, const uint8_t* solid) {
    nx_ = cells.x, ny_ = cells.y, nz_ = cells.z;
    sy_ = size_t(nx_ + 2);
    sz_ = sy_ * size_t(ny_ + 2);
    open_ = openSide;
    diag_.assign(sz_ * size_t(nz_ + 2), 0);
    if (diag_.size() > std::numeric_limits<uint32_t>::max())
        throw RunError("pressure grid too large (more than 2^32 cells)");

    std::vector<uint8_t> fluid(cellCount(), 1);
    if (solid)
        forSlabs([&](int k) {
            const size_t slab = size_t(k) * ny_ * nx_;
            for (size_t n = slab; n < slab + size_t(ny_) * nx_; ++n) fluid[n] = solid[n] == 0;
        });
    classify(fluid);
    labelClosedRegions();
}

void PoissonGrid::buildCoarse(const PoissonGrid& fine) {
    nx_ = (fine.nx_ + 1) / 2, ny_ = (fine.ny_ + 1) / 2, nz_ = (fine.nz_ + 1) / 2;
    sy_ = size_t(nx_ + 2);
    sz_ = sy_ * size_t(ny_ + 2);
    open_ = fine.open_;
    diag_.assign(sz_ * size_t(nz_ + 2), 0);
    singularCells_.clear();
    singularStart_.clear();
    regionCount_.clear();
    runs_.clear();
    runStart_.clear();

    // A coarse cell is fluid when any child is an unknown.
    std::vector<uint8_t> fluid(cellCount(), 0);
    forSlabs([&](int k) {
        for (int j = 0; j < ny_; ++j)
            for (int i = 0; i < nx_; ++i) {
                bool any = false;
                for (int c = 0; c < 2; ++c)
                    for (int b = 0; b < 2; ++b)
                        for (int a = 0; a < 2; ++a) {
                            int fi = 2 * i + a, fj = 2 * j + b, fk = 2 * k + c;
                            if (fi < fine.nx_ && fj < fine.ny_ && fk < fine.nz_)
                                any = any || fine.unknown(fine.index(fi, fj, fk));
                        }
                fluid[(size_t(k) * ny_ + j) * nx_ + i] = any;
            }
    });
    classify(fluid);
}

void PoissonGrid::slabsOf(const PoissonGrid& whole, int begin, int end) {
    nx_ = whole.nx_, ny_ = whole.ny_, nz_ = end - begin;
    sy_ = whole.sy_, sz_ = whole.sz_;
    open_ = whole.open_;
    // Padded slab begin is grid slab begin - 1.
    diag_.assign(whole.diag_.begin() + ptrdiff_t(sz_ * size_t(begin)),
                 whole.diag_.begin() + ptrdiff_t(sz_ * size_t(end + 2)));
    singularCells_.clear();
    singularStart_.clear();
    regionCount_.clear();
    runs_.clear();
    runStart_.clear();
    unknowns_ = 0;
    for (int k = 0; k < nz_; ++k)
        for (int j = 0; j < ny_; ++j)
            for (int i = 0; i < nx_; ++i) unknowns_ += unknown(index(i, j, k));
    // Every region, with the cells of these slabs (indices moved to this grid's).
    if (whole.regionCount() == 0) return;
    const size_t shift = sz_ * size_t(begin);
    for (int r = 0; r < whole.regionCount(); ++r) {
        singularStart_.push_back(singularCells_.size());
        for (size_t n = whole.singularStart_[size_t(r)]; n < whole.singularStart_[size_t(r) + 1];
             ++n) {
            const size_t cell = whole.singularCells_[n];
            const int slab = int(cell / sz_) - 1;
            if (slab >= begin && slab < end) singularCells_.push_back(uint32_t(cell - shift));
        }
    }
    singularStart_.push_back(singularCells_.size());
    regionCount_ = whole.regionCount_;
    findRuns();
}

void PoissonGrid::buildFromFluid(Vec3i cells, const std::array<bool, 6>& openSide,
                                 const std::vector<uint8_t>& fluid) {
    nx_ = cells.x, ny_ = cells.y, nz_ = cells.z;
    sy_ = size_t(nx_ + 2);
    sz_ = sy_ * size_t(ny_ + 2);
    open_ = openSide;
    diag_.assign(sz_ * size_t(nz_ + 2), 0);
    if (diag_.size() > std::numeric_limits<uint32_t>::max())
        throw RunError("pressure grid too large (more than 2^32 cells)");
    singularCells_.clear();
    singularStart_.clear();
    regionCount_.clear();
    runs_.clear();
    runStart_.clear();
    classify(fluid);
}

bool PoissonGrid::hasClosedRegion() {
    // Breadth first from every unknown beside an open side; the classes are
    // at most 7, so the top bit of each marks a cell reached (and is cleared
    // after). The queue holds a front, not the grid.
    constexpr uint8_t kReached = 0x80;
    const ptrdiff_t step[6] = {
        -1, 1, -ptrdiff_t(sy_), ptrdiff_t(sy_), -ptrdiff_t(sz_), ptrdiff_t(sz_)};
    std::deque<uint32_t> front;
    for (int k = 0; k < nz_; ++k)
        for (int j = 0; j < ny_; ++j)
            for (int i = 0; i < nx_; ++i) {
                const size_t n = index(i, j, k);
                if (!unknown(n)) continue;
                for (ptrdiff_t s : step)
                    if (diag_[size_t(ptrdiff_t(n) + s)] == kDirichletGhost) {
                        diag_[n] |= kReached;
                        front.push_back(uint32_t(n));
                        break;
                    }
            }
    size_t reached = front.size();
    while (!front.empty()) {
        const size_t n = front.front();
        front.pop_front();
        for (ptrdiff_t s : step) {
            const size_t m = size_t(ptrdiff_t(n) + s);
            if ((diag_[m] & kReached) || !unknown(m)) continue;
            diag_[m] |= kReached;
            front.push_back(uint32_t(m));
            ++reached;
        }
    }
    for (uint8_t& d : diag_) d &= uint8_t(~kReached);
    return reached < unknowns_;
}

void PoissonGrid::classify(const std::vector<uint8_t>& fluidMask) {
    auto fluid = [&](int i, int j, int k) {
        if (i < 0 || j < 0 || k < 0 || i >= nx_ || j >= ny_ || k >= nz_) return false;
        return fluidMask[(size_t(k) * ny_ + j) * nx_ + i] != 0;
    };
    forSlabs([&](int k) {
        for (int j = 0; j < ny_; ++j)
            for (int i = 0; i < nx_; ++i) {
                if (!fluid(i, j, k)) continue;
                int count = 0;
                // Fluid neighbours couple; open sides are Dirichlet ghosts.
                count += fluid(i - 1, j, k) || (i == 0 && open_[kXMin]);
                count += fluid(i + 1, j, k) || (i == nx_ - 1 && open_[kXMax]);
                count += fluid(i, j - 1, k) || (j == 0 && open_[kYMin]);
                count += fluid(i, j + 1, k) || (j == ny_ - 1 && open_[kYMax]);
                count += fluid(i, j, k - 1) || (k == 0 && open_[kZMin]);
                count += fluid(i, j, k + 1) || (k == nz_ - 1 && open_[kZMax]);
                diag_[index(i, j, k)] = uint8_t(count);
            }
    });
    setGhosts();
}

void PoissonGrid::setGhosts() {
    // Ghost layer outside each open side marks "pressure 0 here".
    for (int k = 0; k < nz_; ++k)
        for (int j = 0; j < ny_; ++j) {
            if (open_[kXMin]) diag_[index(-1, j, k)] = kDirichletGhost;
            if (open_[kXMax]) diag_[index(nx_, j, k)] = kDirichletGhost;
        }
    for (int k = 0; k < nz_; ++k)
        for (int i = 0; i < nx_; ++i) {
            if (open_[kYMin]) diag_[index(i, -1, k)] = kDirichletGhost;
            if (open_[kYMax]) diag_[index(i, ny_, k)] = kDirichletGhost;
        }
    for (int j = 0; j < ny_; ++j)
        for (int i = 0; i < nx_; ++i) {
            if (open_[kZMin]) diag_[index(i, j, -1)] = kDirichletGhost;
            if (open_[kZMax]) diag_[index(i, j, nz_)] = kDirichletGhost;
        }
    unknowns_ = 0;
    for (int k = 0; k < nz_; ++k)
        for (int j = 0; j < ny_; ++j)
            for (int i = 0; i < nx_; ++i) unknowns_ += unknown(index(i, j, k));
}

void PoissonGrid::labelClosedRegions() {
    singularCells_.clear();
    singularStart_.clear();
    regionCount_.clear();
    runs_.clear();
    runStart_.clear();
    // Flood fill over unknowns; a region is grounded when one of its cells has
    // an open face (it then owns a Dirichlet condition and A is regular on it).
    std::vector<uint8_t> seen(diag_.size(), 0);
    std::vector<uint32_t> region, stack;
    const ptrdiff_t step[6] = {
        -1, 1, -ptrdiff_t(sy_), ptrdiff_t(sy_), -ptrdiff_t(sz_), ptrdiff_t(sz_)};
    for (int k = 0; k < nz_; ++k)
        for (int j = 0; j < ny_; ++j)
            for (int i = 0; i < nx_; ++i) {
                size_t seed = index(i, j, k);
                if (!unknown(seed) || seen[seed]) continue;
                region.clear();
                bool grounded = false;
                stack.push_back(uint32_t(seed));
                seen[seed] = 1;
                while (!stack.empty()) {
                    size_t n = stack.back();
                    stack.pop_back();
                    // A grounded region's cells are not needed: an open
                    // domain is one region of every cell (4 bytes each).
                    if (!grounded) region.push_back(uint32_t(n));
                    for (ptrdiff_t s : step) {
                        size_t m = size_t(ptrdiff_t(n) + s);
                        if (diag_[m] == kDirichletGhost && !grounded) {
                            grounded = true;
                            std::vector<uint32_t>().swap(region);
                        }
                        if (unknown(m) && !seen[m]) {
                            seen[m] = 1;
                            stack.push_back(uint32_t(m));
                        }
                    }
                }
                if (grounded) continue;
                // Keep slab order inside the region so sums are reproducible.
                std::sort(region.begin(), region.end());
                singularStart_.push_back(singularCells_.size());
                singularCells_.insert(singularCells_.end(), region.begin(), region.end());
            }
    if (!singularStart_.empty()) singularStart_.push_back(singularCells_.size());
    regionCount_.clear();
    for (size_t r = 0; r + 1 < singularStart_.size(); ++r)
        regionCount_.push_back(singularStart_[r + 1] - singularStart_[r]);
    findRuns();
}

void PoissonGrid::findRuns() {
    runs_.clear();
    runStart_.assign(1, 0);
    for (int r = 0; r < regionCount(); ++r) {
        for (size_t n = singularStart_[size_t(r)]; n < singularStart_[size_t(r) + 1]; ++n) {
            const int slab = int(singularCells_[n] / sz_) - 1;
            if (runs_.size() == runStart_.back() || runs_.back().slab != slab)
                runs_.push_back({slab, uint32_t(n), uint32_t(n)});
            runs_.back().end = uint32_t(n + 1);
        }
        runStart_.push_back(runs_.size());
    }
}

void PoissonGrid::removeSingularMean(float* x) const { removeMean(x); }
void PoissonGrid::removeSingularMean(double* x) const { removeMean(x); }

template <typename T>
void PoissonGrid::removeMean(T* x) const {
    if (singularStart_.empty()) return;
    for (int r = 0; r < regionCount(); ++r) {
        const uint32_t* cells = singularCells_.data();
        const SlabRun* run = runs_.data() + runStart_[size_t(r)];
        const int runCount = int(runStart_[size_t(r) + 1] - runStart_[size_t(r)]);
        const size_t count = regionCount_[size_t(r)];
        // Per-slab partials added in slab order: what a grid split among
        // processes adds too (sim/pressure/split_solve.h).
        auto partial = [&](int s) {
            double sum = 0.0;
            for (uint32_t n = run[s].begin; n < run[s].end; ++n) sum += x[cells[n]];
            return sum;
        };
        double sum = 0.0;
        if (count < kSerialCells)
            for (int s = 0; s < runCount; ++s) sum += partial(s);
        else
            sum = deterministicSum(runCount, partial);
        const T mean = T(sum / double(count));
        auto subtract = [&](int s) {
            for (uint32_t n = run[s].begin; n < run[s].end; ++n) x[cells[n]] -= mean;
        };
        if (count < kSerialCells)
            for (int s = 0; s < runCount; ++s) subtract(s);
        else
            parallelForSlabs(runCount, subtract);
    }
}

}  // namespace plume
