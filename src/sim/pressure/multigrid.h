// Geometric multigrid V-cycle, used as the preconditioner of CG ("mgpcg"),
// after McAdams, Sifakis and Teran 2010, "A parallel multigrid Poisson solver
// for fluids simulation on large grids".
//
// Levels halve the cell count per axis ((n + 1) / 2, so any size works) until
// at most kCoarsestCells remain. A coarse cell is fluid when any child is an
// unknown; open sides stay Dirichlet on every level. Transfers are cell-centred
// trilinear interpolation P (weights 3/4, 1/4 per axis) and its transpose:
// restriction R = P^T / 2, which is the average of the fine residual times 4,
// the factor between the unscaled 7-point matrices of spacing h and 2h. At a
// wall or inflow side interpolation copies the nearest coarse value (Neumann),
// beyond an open side and in solids it reads 0.
//
// Smoothing is red-black Gauss-Seidel, two sweeps: red then black before the
// coarse correction, black then red after it, and a coarsest solve of
// symmetric sweep pairs. With R = c P^T that makes the V-cycle a symmetric
// operator, as CG needs. On each level the smoothing, the residual and the
// transfers run as one wavefront over the slabs (pipelineSlabs), so a V-cycle
// reads the finest grid about twice.
#pragma once

#include <array>
#include <vector>

#include "sim/pressure/pcg.h"
#include "sim/pressure/poisson_kernels.h"
#include "sim/pressure/slab_part.h"

namespace plume {

class MultigridPreconditioner final : public Preconditioner {
  public:
    static constexpr size_t kCoarsestCells = 512;

    // Builds the hierarchy under the finest grid `fine`, which must outlive
    // this object (or the next build). Allocates every level's scratch.
    void build(const PoissonGrid& fine);
    // The levels' scratch (coarse iterates and right-hand sides, restriction
    // stages and rows) handed back to the system between frames: a cycle
    // writes each before it reads it, and the pages read as zeros, as built.
    void returnPages();
    // The same for a finest level split among processes: `local` is this
    // process's owned slabs (PoissonGrid::slabsOf), `whole` the whole finest
    // grid, needed only during the call (every coarse level is built from it
    // and held whole on every process). `local` and `comm` must outlive this
    // object (or the next build). apply() then runs the finest level over
    // the owned slabs, exchanging ghost slabs, gathers the restricted
    // residual and runs the coarse levels redundantly on every process.
    void buildSplit(const PoissonGrid& local, PoissonGrid whole, SlabComm& comm);
    // Bytes build() allocates for a finest grid of `cells`: each coarse
    // level's grid, iterate and right-hand side, and each level's restriction
    // stage and row scratch.
    static std::uint64_t bytesFor(Vec3i cells);

    // z = V-cycle applied to r, from z = 0; returns r . z.
    double apply(const float* r, float* z) override;

    int levelCount() const { return int(levels_.size()); }
    const PoissonGrid& grid(int level) const {
        return level == 0 ? *fine_ : levels_[size_t(level)].grid;
    }

    // Red-black sweeps per level before and after the coarse correction.
    static constexpr int kSweeps = 2;

  private:
    // How fine index f along one axis interpolates from the coarse level:
    // weightP * coarse[parent] + weightQ * coarse[neighbour].
    struct AxisTransfer {
        std::vector<int> parent, neighbour;
        std::vector<float> weightP, weightQ;
        // Transpose, per coarse index: the fine indices and their weights.
        std::vector<std::array<int, 4>> fine;
        std::vector<std::array<float, 4>> weight;
        std::vector<int> count;
    };
    struct Level {
        PoissonGrid grid;                      // unused on level 0 (the caller's grid)
        PaddedField x, b;                      // unused on level 0 (the caller's z and r)
        std::array<AxisTransfer, 3> toCoarse;  // from this level to the next
        std::vector<float> stage;              // residual restricted in x and y, per fine plane
        std::vector<float> rows;               // per-slab row scratch
        size_t rowStride = 0;
    };

    // finestScratch: the finest level's stage and rows for all of `fine`,
    // and the coarse levels' unknowns (a split solve sizes the first to its
    // own slabs, and takes the others once the whole grid is let go).
    void buildLevels(const PoissonGrid& fine, bool finestScratch = true);
    void takeCoarseUnknowns();
    // The V-cycle from level `top` down and back up to it (top > 0: level
    // top's right-hand side is already in place).
    void cycle(int top, const float* r, float* z);
    double applySplit(const float* r, float* z);
    static AxisTransfer makeAxis(int nFine, int nCoarse, bool openMin, bool openMax);
    // Residual of fine slab k restricted in x and y into the level's stage.
    void restrictSlab(int level, const float* x, const float* b, int k);
    // The stage restricted in z into the coarse right-hand side: every
    // coarse slab, or those in [first, end).
    void restrictZ(int level, float* coarseB, int first = 0, int end = -1);
    // x += P coarseX on fine slab k.
    void prolongSlab(int level, const float* coarseX, float* x, int k);
    void coarseSolve(int level, float* x, const float* b);

    const PoissonGrid* fine_ = nullptr;
    std::vector<Level> levels_;
    int coarseSweeps_ = 8;
    std::vector<double> partial_;  // r . z per finest slab
    // A split finest level: the processes, and the grid z of its slab 0.
    // The level's stage holds its planes from stageFirst_ on (a split
    // finest level's: its owned planes, one below and two above).
    SlabComm* comm_ = nullptr;
    int firstSlab_ = 0, stageFirst_ = 0;
    std::vector<SlabRange> coarseOwned_;  // per process, the level-1 slabs it restricts into
};

}  // namespace plume
