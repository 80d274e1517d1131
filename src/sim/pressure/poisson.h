// The pressure Poisson matrix, stored as a grid of cell classes, and the
// matrix-free kernels every pressure solver is built from.
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
#include "core/simd.h"
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
    static std::uint64_t bytesFor(Vec3i cells) {
        return paddedCount(cells) * sizeof(uint8_t);
    }

    // Classes the cells of the finest level: fluid unless solid[index] != 0
    // (unpadded, x fastest; null means no solids). Labels the connected fluid
    // regions that touch no open side: each is a singular block of A.
    void build(Vec3i cells, const std::array<bool, 6>& openSide, const uint8_t* solid);

    // Classes a level half as fine: a coarse cell is fluid when any of its
    // (up to 8) children is an unknown; open sides stay open.
    void buildCoarse(const PoissonGrid& fine);

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
};

// ---- four-wide helpers of the Poisson kernels (core/simd.h) ---------------
namespace simd {
// The diagonal of four cells as floats.
inline F4 diagonal(const uint8_t* d) {
    U4 u;
    __builtin_memcpy(&u, d, sizeof u);
    return __builtin_convertvector(u, F4);
}
// 1 / diag, 0 where diag is 0 (same bits as kInverseDiagonal).
inline F4 inverse(F4 diag) { return select(diag > splat(0.0f), splat(1.0f) / diag, splat(0.0f)); }
}  // namespace simd

// ---- kernels (x and b are padded fields of the grid) -----------------------

// r = b - A x over the row of cells starting at padded index `row` (nx cells);
// returns max |r| over the row.
float residualRow(const PoissonGrid& g, const float* x, const float* b, size_t row, float* r);

// One half-sweep of red-black Gauss-Seidel over cells with (i+j+k)%2 == colour,
// over-relaxed by omega (1 = plain Gauss-Seidel).
void smoothColour(const PoissonGrid& g, float* x, const float* b, int colour, float omega = 1.0f);
// The same on slab k only (a pipeline stage).
void smoothColourSlab(const PoissonGrid& g, float* x, const float* b, int colour, float omega,
                      int k);
// x = b / diag on slab k: the red half-sweep from x = 0, written on every cell
// (the black half-sweep that must follow overwrites the black ones).
void divideByDiagonalSlab(const PoissonGrid& g, float* x, const float* b, int k);
// x . y over slab k.
double dotSlab(const PoissonGrid& g, const float* x, const float* y, int k);
// y = A x over slab k; returns x . y over the slab.
double applyAndDotSlab(const PoissonGrid& g, const float* x, float* y, int k);

// Runs count stages over the slabs of g as a wavefront: stage s runs on slab k
// after stage s-1 has run on slabs k-1, k, k+1, and before stage s+1 does.
// Each stage may read slabs k-1..k+1 and write slab k, so a chain of sweeps
// streams through memory once instead of once per stage. The result does not
// depend on how the slabs are split over threads.
void pipelineSlabs(const PoissonGrid& g, const FunctionRef<void(int)>* stages, int count);

// A red then a black half-sweep starting from x = 0, in one pass; writes every
// interior cell of x, so x need not be cleared first.
void smoothFromZero(const PoissonGrid& g, float* x, const float* b);

// y = A x; returns x . y.
double applyAndDot(const PoissonGrid& g, const float* x, float* y);

// r = b - A x; returns max |r|.
float residual(const PoissonGrid& g, const float* x, const float* b, float* r);
// The same for a solution kept in double (CG's iterate): b - A x is formed in
// double, so it is not limited by float rounding of x, which for smooth
// pressures on large grids is above 1e-4 of max|b|.
float residual(const PoissonGrid& g, const double* x, const float* b, float* r);

// max |x| over the interior.
float maxAbs(const PoissonGrid& g, const float* x);

// x . y over the interior, in double.
double dot(const PoissonGrid& g, const float* x, const float* y);

// Sets every value of x, ghosts included, to 0.
void clear(const PoissonGrid& g, float* x);
void clear(const PoissonGrid& g, double* x);

// Below this many cells a level is swept on the calling thread.
inline constexpr size_t kSerialCells = 16 * 1024;

// Max and sum of term(k) over the slabs of g, combined in slab order (on the
// calling thread for a small level): the same for any thread count.
template <typename F>
float slabMax(const PoissonGrid& g, F&& term) {
    if (g.cellCount() < kSerialCells) {
        float m = 0.0f;
        for (int k = 0; k < g.nz(); ++k) m = maxOf(m, float(term(k)));
        return m;
    }
    return deterministicReduce(g.nz(), 0.0f, term, maxOf<float>);
}
template <typename F>
double slabSum(const PoissonGrid& g, F&& term) {
    if (g.cellCount() < kSerialCells) {
        double s = 0.0;
        for (int k = 0; k < g.nz(); ++k) s += term(k);
        return s;
    }
    return deterministicSum(g.nz(), term);
}

template <typename F>
void PoissonGrid::forSlabs(F&& body) const {
    if (cellCount() < kSerialCells) {
        for (int k = 0; k < nz_; ++k) body(k);
    } else {
        parallelForSlabs(nz_, body);
    }
}

}  // namespace plume
