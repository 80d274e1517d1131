// The pressure Poisson matrix, stored as a grid of cell classes (the
// kernels every pressure solver is built from are in poisson_kernels.h).
//
// Unknowns are the fluid cells. Row c of A is the unscaled 7-point Laplacian:
//   (A p)_c = diag_c * p_c - sum of p_n over fluid neighbours n,
// diag_c = (fluid neighbours) + (open domain faces). A solid neighbour or a
// wall/inflow side adds nothing (Neumann); an open side is a ghost cell with
// p = 0 (Dirichlet), which adds 1 to the diagonal.
//
// Fields are "padded": one layer of ghost cells around the domain that always
// holds 0, so kernels read all six neighbours without bounds checks. Every
// cell that is not an unknown (solids) also holds 0 in every vector, which
// makes the neighbour sum exact without masks. Kernels run over z-slabs, x
// innermost; every reduction is a per-slab partial added in slab order.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/parallel.h"
#include "core/sides.h"
#include "core/vec.h"

namespace plume {

// A scalar per padded cell; the ghost layer and non-unknown cells hold 0.
using PaddedField = std::vector<float>;

// diag value stored for the ghost layer just outside an open side; lets the
// projection tell "pressure 0 lives here" from "no pressure here" (0).
inline constexpr uint8_t kDirichletGhost = 7;

// 1 / diag by the stored class; 0 for non-unknowns and ghosts.
inline constexpr float kInverseDiagonal[8] = {0.0f,        1.0f, 1.0f / 2.0f, 1.0f / 3.0f,
                                              1.0f / 4.0f, 0.2f, 1.0f / 6.0f, 0.0f};

class PoissonGrid {
  public:
    PoissonGrid() = default;

    // Padded cells of a grid of `cells`, and the bytes of its classes (the
    // diagonal, one byte a cell; kernels take 1 / diagonal from it).
    static std::uint64_t paddedCount(Vec3i cells) {
        return std::uint64_t(cells.x + 2) * std::uint64_t(cells.y + 2) * std::uint64_t(cells.z + 2);
    }
    static std::uint64_t bytesFor(Vec3i cells) { return paddedCount(cells) * sizeof(uint8_t); }

    // Classes the cells of the finest level: fluid unless solid[index] != 0
    // (unpadded, x fastest; null means no solids). Labels the connected fluid
    // regions that touch no open side: each is a singular block of A.
    void build(Vec3i cells, const std::array<bool, 6>& openSide, const uint8_t* solid);

    // Classes a level half as fine: a coarse cell is fluid when any of its
    // (up to 8) children is an unknown; open sides stay open.
    void buildCoarse(const PoissonGrid& fine);

    // Slabs [begin, end) of a whole grid's classes, with one ghost slab
    // either side taken from `whole` too (a neighbour's cells at a cut, the
    // grid's ghosts at its ends): a process's share of a split finest level
    // (sim/pressure/slab_part.h). Closed regions are the whole grid's concern.
    void slabsOf(const PoissonGrid& whole, int begin, int end);
    // Classes the cells of the finest level from a fluid mask (1 = fluid,
    // unpadded, x fastest) without labelling closed regions: the whole grid
    // of a split solve, built with no more than its classes and the mask.
    void buildFromFluid(Vec3i cells, const std::array<bool, 6>& openSide,
                        const std::vector<uint8_t>& fluid);
    // Whether some unknown is connected to no open side (a closed region),
    // found without a copy of the grid.
    bool hasClosedRegion();
    // Labels the closed regions of a grid made by buildFromFluid (before
    // slabsOf takes its share of them).
    void labelClosed() { labelClosedRegions(); }

    int nx() const { return nx_; }
    int ny() const { return ny_; }
    int nz() const { return nz_; }
    size_t strideY() const { return sy_; }
    size_t strideZ() const { return sz_; }
    size_t paddedSize() const { return diag_.size(); }
    size_t cellCount() const { return size_t(nx_) * ny_ * nz_; }
    size_t unknownCount() const { return unknowns_; }
    const std::array<bool, 6>& openSide() const { return open_; }

    size_t index(int i, int j, int k) const {
        return (size_t(k + 1) * (ny_ + 2) + size_t(j + 1)) * (nx_ + 2) + size_t(i + 1);
    }
    // Diagonal (0 = not an unknown, kDirichletGhost outside open sides).
    const uint8_t* diag() const { return diag_.data(); }
    // 1 / diag as floats (0 for non-unknowns): the smoother reads it instead of
    // dividing.
    bool unknown(size_t n) const { return diag_[n] != 0 && diag_[n] != kDirichletGhost; }

    // Singular blocks (closed regions): projections onto the range of A.
    bool singular() const { return !singularCells_.empty(); }
    // The closed regions, every one of the whole grid's even where a split
    // grid holds none of its cells: each region's cells (padded indices, in
    // slab order) in runs of one slab each, and its cells in the whole grid.
    // A region's mean is the sum of its per-slab partials in slab order.
    struct SlabRun {
        int slab;             // z of the slab in this grid
        uint32_t begin, end;  // into regionCells()
    };
    int regionCount() const { return int(regionCount_.size()); }
    size_t regionCellCount(int r) const { return regionCount_[size_t(r)]; }
    const uint32_t* regionCells() const { return singularCells_.data(); }
    // Runs of region r: [runStart(r), runStart(r + 1)) of runs().
    const std::vector<SlabRun>& runs() const { return runs_; }
    size_t runStart(int r) const { return runStart_[size_t(r)]; }
    // Subtracts, per closed region, the mean over its cells (deterministic).
    void removeSingularMean(float* x) const;
    void removeSingularMean(double* x) const;

    // Runs body(k) for each z-slab: in parallel on large levels, serially on
    // small ones where a task costs more than the work.
    template <typename F>
    void forSlabs(F&& body) const;

  private:
    // Diagonal classes from a fluid mask (1 = unknown, x fastest), then the ghosts.
    void classify(const std::vector<uint8_t>& fluid);
    void setGhosts();
    template <typename T>
    void removeMean(T* x) const;
    void labelClosedRegions();

    int nx_ = 0, ny_ = 0, nz_ = 0;
    size_t sy_ = 0, sz_ = 0;
    std::array<bool, 6> open_{};
    std::vector<uint8_t> diag_;
    size_t unknowns_ = 0;
    // Padded indices of the cells of each closed region, region after region.
    std::vector<uint32_t> singularCells_;
    std::vector<size_t> singularStart_;  // region r: [start[r], start[r+1])
    std::vector<size_t> regionCount_;    // cells of region r in the whole grid
    std::vector<SlabRun> runs_;
    std::vector<size_t> runStart_;
    // runs_ and runStart_ from singularCells_ and singularStart_.
    void findRuns();
};

// Below this many cells a level is swept on the calling thread.
inline constexpr size_t kSerialCells = 16 * 1024;

template <typename F>
void PoissonGrid::forSlabs(F&& body) const {
    if (cellCount() < kSerialCells) {
        for (int k = 0; k < nz_; ++k) body(k);
    } else {
        parallelForSlabs(nz_, body);
    }
}

}  // namespace plume
