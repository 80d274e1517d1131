#include "sim/pressure/split_solve.h"

#include <algorithm>
#include <vector>

namespace plume {

using namespace simd;

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

SolveStats solveSplit(const PoissonGrid& g, SlabComm& comm, Preconditioner& m, double* p,
                      const float* b, float bMax, float tolerance, int maxIterations,
                      ScratchArena::Lease& scratch) {
    std::vector<double> partial(size_t(g.nz()));
    float* r = scratch.take<float>(g.paddedSize());
    float* z = scratch.take<float>(g.paddedSize());
    float* d = scratch.take<float>(g.paddedSize());
    float* q = scratch.take<float>(g.paddedSize());
    for (float* v : {r, z, d, q}) clear(g, v);
    const float target = tolerance * bMax;
    const int nx = g.nx(), ny = g.ny();
    const size_t floatSlab = g.strideZ() * sizeof(float), doubleSlab = g.strideZ() * sizeof(double);

    auto trueResidual = [&] {
        comm.exchangeGhosts(p, doubleSlab);
        return comm.max(residual(g, p, b, r));
    };
    float rMax = trueResidual();
    if (!(rMax <= bMax)) {
        clear(g, p);
        rMax = trueResidual();
    }
    SolveStats stats;
    const bool closed = g.regionCount() > 0;
    auto precondition = [&] {
        double rz = m.apply(r, z);
        if (closed) {  // stay in the range of A on closed regions
            removeSingularMeanSplit(g, z, comm);
            g.forSlabs([&](int k) { partial[size_t(k)] = dotSlab(g, r, z, k); });
            rz = comm.sum(partial.data());
        }
        return rz;
    };
    auto direction = [&](int k, float beta) {
        const F4 b4 = splat(beta);
        for (int j = 0; j < ny; ++j) {
            const size_t row = g.index(0, j, k);
            int i = 0;
            for (; i + 4 <= nx; i += 4)
                store(d + row + i, load(z + row + i) + b4 * load(d + row + i));
            for (; i < nx; ++i) d[row + i] = z[row + i] + beta * d[row + i];
        }
    };

    double rho = 0.0;
    float beta = 0.0f;
    bool restart = true;
    float lastTrue = rMax;
    while (rMax > target && stats.iterations < maxIterations) {
        if (restart) {
            rho = precondition();
            beta = 0.0f;
            restart = false;
        }
        g.forSlabs([&](int k) { direction(k, beta); });
        comm.exchangeGhosts(d, floatSlab);
        g.forSlabs([&](int k) { partial[size_t(k)] = applyAndDotSlab(g, d, q, k); });
        const double sigma = comm.sum(partial.data());
        if (!(sigma > 0.0) || !(rho > 0.0)) break;
        const float alpha = float(rho / sigma);
        rMax = comm.max(updateSolution(g, p, r, d, q, alpha));
        ++stats.iterations;
        if (rMax <= target) {
            rMax = trueResidual();
            restart = true;
            if (rMax > target && rMax > 0.5f * lastTrue) break;
            lastTrue = rMax;
            continue;
        }
        const double rhoNew = precondition();
        beta = float(rhoNew / rho);
        rho = rhoNew;
    }
    // (Every way out of the loop leaves p's ghosts exchanged since its last
    // change: the gradient's faces at a cut read the neighbour's pressure.)
    if (!restart) rMax = trueResidual();
    if (closed) {  // pressure mean 0 on closed regions
        removeSingularMeanSplit(g, p, comm);
        comm.exchangeGhosts(p, doubleSlab);
    }
    stats.residual = rMax / bMax;
    return stats;
}

}  // namespace plume
