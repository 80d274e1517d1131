// Projection over a grid whose z-slabs are split among processes
// (slab_part.h): the one-process projection's steps over this process's
// owned slabs, with the solve of split_solve.h.
#include <cmath>
#include <cstring>
#include <utility>

#include "sim/pressure/projection.h"
#include "sim/pressure/projection_impl.h"

namespace plume {

void PressureSolverImpl::prepareSplit(const Fields& f) {
    SlabComm& c = *comm;
    const SlabRange mine = c.mine();
    const size_t slabCells = size_t(n_.x) * size_t(n_.y);
    const size_t ownedBytes = slabCells * size_t(mine.size());
    const bool hasSolid = f.solid.size() == f.cellCount() && f.cellCount() > 0;
    const uint8_t* owned = hasSolid && mine.size() > 0 ? &f.solid(0, 0, fieldK0) : nullptr;
    // Rebuilt on every process when any process's owned mask changed.
    bool changed = !built_;
    if (owned)
        changed = changed || solid_.size() != ownedBytes ||
                  std::memcmp(solid_.data(), owned, ownedBytes) != 0;
    int flags[2] = {changed, hasSolid};
    c.max(flags);
    if (!flags[0]) return;
    const bool anySolid = flags[1] != 0;
    if (owned) solid_.assign(owned, owned + ownedBytes);

    // The whole grid's classes, from the whole solid mask (one byte a cell,
    // gathered): the coarse levels and the classes at a cut depend on the
    // neighbour's cells. Held only while the levels are built, and built
    // with no more than the mask and the classes.
    PoissonGrid whole;
    {
        std::vector<uint8_t> fluid(slabCells * size_t(c.nz()), 1);
        if (anySolid) {
            if (owned)
                std::memcpy(fluid.data() + slabCells * size_t(mine.begin), owned, ownedBytes);
            c.allGather(fluid.data(), slabCells);
            for (uint8_t& cell : fluid) cell = cell == 0;
        }
        whole.buildFromFluid({n_.x, n_.y, c.nz()}, open_, fluid);
    }
    // Closed regions: labelled on the whole grid, each process keeping the
    // cells of its own slabs.
    if (whole.hasClosedRegion()) whole.labelClosed();
    grid.slabsOf(whole, mine.begin, mine.end);
    if (built_) keepUnknownsOnly();
    if (method_ == PressureMethod::PCG)
        splitSgs = std::make_unique<SplitSymmetricGaussSeidel>(grid, c);
    else
        mg.buildSplit(grid, std::move(whole), c);
    built_ = true;
}

SolveStats Projection::projectSplit(Fields& f, float tolerance, int maxIterations) {
    if (!(f.n == n_)) throw RunError("projection: fields do not match the pressure grid size");
    if (n_.x <= 0 || n_.y <= 0 || part_.nz <= 0) return {};
    enforceBoundaries(f);
    PressureSolverImpl& s = *impl_;
    SlabComm& c = *s.comm;
    s.prepareSplit(f);
    const PoissonGrid& g = s.grid;

    ScratchArena::Lease scratch(*s.arena);
    float* b = scratch.take<float>(g.paddedSize());
    clear(g, b);
    float localMax = g.nz() > 0 ? computeRhs(f, g, b, s.fieldK0) : 0.0f;
    if (g.regionCount() > 0) {  // closed regions: solve in the least-squares sense
        removeSingularMeanSplit(g, b, c);
        localMax = maxAbs(g, b);
    }
    // A NaN or infinity on any process: none solves (as one process would not).
    const bool finite = !c.any(!std::isfinite(localMax));
    const float bMax = finite ? c.max(localMax) : 0.0f;
    s.subtracted = false;
    if (bMax == 0.0f || !finite) return {};

    Preconditioner& m = method_ == PressureMethod::PCG ? static_cast<Preconditioner&>(*s.splitSgs)
                                                       : static_cast<Preconditioner&>(s.mg);
    const SolveStats stats =
        solveSplit(g, c, m, s.pcgPressure.data(), b, bMax, tolerance, maxIterations, scratch);
    if (!std::isfinite(stats.residual)) {
        s.resetPressure();
        return stats;
    }
    if (g.nz() > 0) subtractGradient(f, g, s.pcgPressure.data(), s.fieldK0);
    s.subtracted = true;
    s.addToSum();
    return stats;
}

}  // namespace plume
