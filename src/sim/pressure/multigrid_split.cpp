// The V-cycle of a finest level split among processes (slab_part.h).
//
// The finest level runs stage by stage over the owned slabs (a stage
// pipeline gives the same bits as stage after stage, so this is the one-
// process cycle's arithmetic), with the ghost slabs exchanged before each
// stage that reads a neighbour slab. Restriction in x and y is per fine
// slab, so each process forms its owned planes of the level's stage, takes
// the few planes beyond them from its neighbours and restricts in z into
// its share of the coarse slabs; every process gathers the whole coarse
// right-hand side, the coarse levels run whole and identically on every
// process, and each prolongs the coarse correction into its own slabs.
#include "sim/pressure/multigrid.h"

namespace plume {

void MultigridPreconditioner::buildSplit(const PoissonGrid& local, PoissonGrid whole,
                                         SlabComm& comm) {
    buildLevels(whole, /*finestScratch=*/false);
    // The whole grid let go before the coarse levels take their unknowns:
    // the two are not held at once.
    whole = PoissonGrid();
    takeCoarseUnknowns();
    comm_ = &comm;
    firstSlab_ = comm.mine().begin;
    fine_ = &local;
    partial_.assign(size_t(local.nz()), 0.0);
    coarseOwned_.clear();
    if (levelCount() == 1) return;
    // The finest level's scratch for its owned slabs only: its rows, and of
    // the stage the owned planes with the one below and two above that the
    // coarse slabs this process forms read. Coarse slab K is formed by the
    // owner of fine slab 2K.
    Level& L = levels_[0];
    L.rows.assign(L.rowStride * size_t(local.nz()), 0.0f);
    stageFirst_ = firstSlab_ - 1;
    L.stage.assign(size_t(grid(1).nx()) * size_t(grid(1).ny()) * size_t(local.nz() + 3), 0.0f);
    for (const SlabRange& r : comm.owned())
        coarseOwned_.push_back({(r.begin + 1) / 2, (r.end + 1) / 2});
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
        comm.exchange(levels_[0].stage.data(), size_t(c.nx()) * size_t(c.ny()) * sizeof(float), 1,
                      2);
        const SlabRange K = coarseOwned_[size_t(comm.rank())];
        float* coarseB = levels_[1].b.data();
        restrictZ(0, coarseB, K.begin, K.end);
        comm.allGather(coarseB + c.strideZ(), c.strideZ() * sizeof(float), coarseOwned_);
        cycle(1, nullptr, nullptr);
        const float* coarseX = levels_[1].x.data();
        g.forSlabs([&](int k) { prolongSlab(0, coarseX, z, k); });
        for (int s = 0; s < kSweeps; ++s) sweep(1), sweep(0);
    }
    g.forSlabs([&](int k) { partial_[size_t(k)] = dotSlab(g, r, z, k); });
    return comm.sum(partial_.data());
}

}  // namespace plume
