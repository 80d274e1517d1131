// The V-cycle of a finest level split among processes (slab_part.h).
//
// The finest level runs stage by stage over the owned slabs (a stage
// pipeline gives the same bits as stage after stage, so this is the one-
// process cycle's arithmetic), with the ghost slabs exchanged before each
// stage that reads a neighbour slab. Restriction in x and y is per fine
// slab, so each process forms its owned planes of the level's stage, every
// process gathers all of them and forms the whole coarse right-hand side;
// the coarse levels then run whole and identically on every process, and
// each prolongs the coarse correction into its own slabs.
#include "sim/pressure/multigrid.h"

namespace plume {

void MultigridPreconditioner::buildSplit(const PoissonGrid& local, const PoissonGrid& whole,
                                         SlabComm& comm) {
    buildLevels(whole);
    comm_ = &comm;
    firstSlab_ = comm.mine().begin;
    fine_ = &local;
    partial_.assign(size_t(local.nz()), 0.0);
    if (levelCount() > 1) levels_[0].rows.assign(levels_[0].rowStride * size_t(local.nz()), 0.0f);
}

double MultigridPreconditioner::applySplit(const float* r, float* z) {
    SlabComm& comm = *comm_;
    const PoissonGrid& g = *fine_;
    const size_t slabBytes = g.strideZ() * sizeof(float);
    // Red-black colours are the grid's: (i + j + grid z) % 2.
    const int flip = firstSlab_ & 1;
    auto fromZero = [&] { g.forSlabs([&](int k) { divideByDiagonalSlab(g, z, r, k); }); };
    auto sweep = [&](int colour) {
        comm.exchangeGhosts(z, slabBytes);
        g.forSlabs([&](int k) { smoothColourSlab(g, z, r, colour ^ flip, 1.0f, k); });
    };
    if (levelCount() == 1) {
        // coarseSolve() on the finest level.
        fromZero();
        sweep(1);
        for (int s = 1; s < coarseSweeps_; ++s) sweep(0), sweep(1);
        for (int s = 0; s < coarseSweeps_; ++s) sweep(1), sweep(0);
    } else {
        fromZero();
        sweep(1);
        for (int s = 1; s < kSweeps; ++s) sweep(0), sweep(1);
        comm.exchangeGhosts(z, slabBytes);
        g.forSlabs([&](int k) { restrictSlab(0, z, r, k); });
        const PoissonGrid& c = grid(1);
        comm.allGather(levels_[0].stage.data(), size_t(c.nx()) * size_t(c.ny()) * sizeof(float));
        restrictZ(0, levels_[1].b.data());
        cycle(1, nullptr, nullptr);
        const float* coarseX = levels_[1].x.data();
        g.forSlabs([&](int k) { prolongSlab(0, coarseX, z, k); });
        for (int s = 0; s < kSweeps; ++s) sweep(1), sweep(0);
    }
    g.forSlabs([&](int k) { partial_[size_t(k)] = dotSlab(g, r, z, k); });
    return comm.sum(partial_.data());
}

}  // namespace plume
