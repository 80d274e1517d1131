#include "sim/pressure/split_solve.h"

#include <algorithm>
#include <span>
#include <vector>

namespace plume {

double SplitSymmetricGaussSeidel::apply(const float* r, float* z) {
    const PoissonGrid& g = *g_;
    SlabComm& comm = *comm_;
    const size_t slabBytes = g.strideZ() * sizeof(float);
    const int flip = comm.mine().begin & 1;  // the grid's red-black colours
    g.forSlabs([&](int k) { divideByDiagonalSlab(g, z, r, k); });
    comm.exchangeGhosts(z, slabBytes);
    g.forSlabs([&](int k) { smoothColourSlab(g, z, r, 1 ^ flip, 1.0f, k); });
    comm.exchangeGhosts(z, slabBytes);
    g.forSlabs([&](int k) { smoothColourSlab(g, z, r, 0 ^ flip, 1.0f, k); });
    g.forSlabs([&](int k) { partial_[size_t(k)] = dotSlab(g, r, z, k); });
    return comm.sum(partial_.data());
}

namespace {
template <typename T>
void removeMean(const PoissonGrid& g, T* x, SlabComm& comm) {
    std::vector<double> partial(size_t(g.nz()));
    const uint32_t* cells = g.regionCells();
    for (int r = 0; r < g.regionCount(); ++r) {
        std::fill(partial.begin(), partial.end(), 0.0);
        for (size_t s = g.runStart(r); s < g.runStart(r + 1); ++s) {
            const PoissonGrid::SlabRun& run = g.runs()[s];
            double sum = 0.0;
            for (uint32_t n = run.begin; n < run.end; ++n) sum += x[cells[n]];
            partial[size_t(run.slab)] = sum;
        }
        const T mean = T(comm.sum(partial.data()) / double(g.regionCellCount(r)));
        for (size_t s = g.runStart(r); s < g.runStart(r + 1); ++s)
            for (uint32_t n = g.runs()[s].begin; n < g.runs()[s].end; ++n) x[cells[n]] -= mean;
    }
}
}  // namespace

void removeSingularMeanSplit(const PoissonGrid& g, float* x, SlabComm& comm) {
    removeMean(g, x, comm);
}
void removeSingularMeanSplit(const PoissonGrid& g, double* x, SlabComm& comm) {
    removeMean(g, x, comm);
}

namespace {
// PcgSolver's steps that talk to the other processes, through SlabComm.
class SplitPcgComm final : public PcgComm {
  public:
    explicit SplitPcgComm(SlabComm& comm) : comm_(comm) {}
    float max(float value) override { return comm_.max(value); }
    double sum(std::span<const double> partial) override { return comm_.sum(partial.data()); }
    void exchangeGhosts(const PoissonGrid& g, double* p) override {
        comm_.exchangeGhosts(p, g.strideZ() * sizeof(double));
    }
    void removeSingularMean(const PoissonGrid& g, float* x) override {
        removeSingularMeanSplit(g, x, comm_);
    }
    void removeSingularMean(const PoissonGrid& g, double* x) override {
        removeSingularMeanSplit(g, x, comm_);
    }
    // Not pipelined: the neighbour's first stage must be done before the
    // exchange that `second` reads.
    void firstThenSecond(const PoissonGrid& g, FunctionRef<void(int)> first, float* x,
                         FunctionRef<void(int)> second) override {
        g.forSlabs(first);
        comm_.exchangeGhosts(x, g.strideZ() * sizeof(float));
        g.forSlabs(second);
    }

  private:
    SlabComm& comm_;
};
}  // namespace

SolveStats solveSplit(const PoissonGrid& g, SlabComm& comm, Preconditioner& m, double* p,
                      const float* b, float bMax, float tolerance, int maxIterations,
                      ScratchArena::Lease& scratch) {
    SplitPcgComm split(comm);
    PcgSolver pcg;
    return pcg.solve(g, m, p, b, bMax, tolerance, maxIterations, scratch, split);
}

}  // namespace plume
