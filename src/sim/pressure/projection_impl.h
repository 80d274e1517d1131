// What a Projection keeps between solves, and the steps its one-process and
// split (slab_part.h) solves share: internal to sim/pressure.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/parallel.h"
#include "core/scratch_arena.h"
#include "scene/scene.h"
#include "sim/fields.h"
#include "sim/pressure/multigrid.h"
#include "sim/pressure/pcg.h"
#include "sim/pressure/poisson_kernels.h"
#include "sim/pressure/slab_part.h"
#include "sim/pressure/sor.h"
#include "sim/pressure/split_solve.h"

namespace plume {

class PressureSolverImpl {
  public:
    PressureSolverImpl(Vec3i n, const std::array<Boundary, 6>& boundary, PressureMethod method,
                       ScratchArena* scratch)
        : method_(method), n_(n) {
        if (!scratch) ownScratch_ = std::make_unique<ScratchArena>();
        arena = scratch ? scratch : ownScratch_.get();
        for (int s = 0; s < 6; ++s) open_[s] = boundary[s] == Boundary::Open;
        const size_t padded = size_t(n.x + 2) * size_t(n.y + 2) * size_t(n.z + 2);
        if (method_ == PressureMethod::SOR)
            p.assign(padded, 0.0f);
        else
            pcgPressure.assign(padded, 0.0);
    }

    // Slabs of the pressure grid: the fields' with one process, the owned
    // ones of a split solve.
    int slabs() const { return n_.z; }

    // A split solve's (projection_split.cpp): the same over this process's
    // owned slabs, from the whole grid's classes (every process calls it).
    void prepareSplit(const Fields& f);

    // (Re)classes the cells when the solid mask changed since the last call.
    void prepare(const Fields& f) {
        const bool hasSolid = f.solid.size() == f.cellCount();
        if (built_ && (!hasSolid || solid_ == f.solid.values())) return;
        if (hasSolid) solid_ = f.solid.values();
        grid.build(n_, open_, hasSolid ? solid_.data() : nullptr);
        // A solid that moved changes a few cells: the old pressure is still
        // a good start elsewhere, but the kernels need 0 on every cell that
        // is not an unknown now.
        if (built_) keepUnknownsOnly();
        switch (method_) {
            case PressureMethod::SOR:
                sor.resize(grid);
                break;
            case PressureMethod::PCG:
                sgs = std::make_unique<SymmetricGaussSeidel>(grid);
                break;
            case PressureMethod::MGPCG:
                mg.build(grid);
                break;
        }
        built_ = true;
    }

    void keepUnknownsOnly() {
        for (size_t n = 0; n < p.size(); ++n)
            if (!grid.unknown(n)) p[n] = 0.0f;
        for (size_t n = 0; n < pcgPressure.size(); ++n)
            if (!grid.unknown(n)) pcgPressure[n] = 0.0;
    }

    void resetPressure() {
        std::fill(p.begin(), p.end(), 0.0f);
        std::fill(pcgPressure.begin(), pcgPressure.end(), 0.0);
        subtracted = false;
    }

    PressureMethod method_;
    PoissonGrid grid;
    // Pressure, kept as the next warm start: float for SOR, double for CG.
    PaddedField p;
    std::vector<double> pcgPressure;
    ScratchArena* arena;      // where each solve borrows b and CG's vectors
    bool subtracted = false;  // the last solve subtracted this pressure's gradient
    // The pressure of every gradient subtracted since startPressureSum (padded
    // like p), for the pressure view; empty while nobody asked.
    std::vector<double> pressureSum;
    bool summing = false;

    // Adds the pressure whose gradient was just subtracted.
    void addToSum() {
        if (!summing) return;
        if (method_ == PressureMethod::SOR)
            for (size_t n = 0; n < pressureSum.size(); ++n) pressureSum[n] += double(p[n]);
        else
            for (size_t n = 0; n < pressureSum.size(); ++n) pressureSum[n] += pcgPressure[n];
    }
    SorSolver sor;
    PcgSolver pcg;
    MultigridPreconditioner mg;
    std::unique_ptr<SymmetricGaussSeidel> sgs;
    // A split solve's: the other processes, the preconditioner of method
    // pcg, and the fields' slab of this process's first owned slab.
    std::unique_ptr<SlabComm> comm;
    std::unique_ptr<SplitSymmetricGaussSeidel> splitSgs;
    int fieldK0 = 0;

  private:
    Vec3i n_;
    std::array<bool, 6> open_{};
    std::vector<uint8_t> solid_;
    bool built_ = false;
    std::unique_ptr<ScratchArena> ownScratch_;
};

// b = -div on unknowns, 0 elsewhere, over the slabs of g, which are the
// fields' slabs from fieldK0 on; returns max |b| (NaN if any is NaN).

inline float computeRhs(const Fields& f, const PoissonGrid& g, float* b, int fieldK0 = 0) {
    const uint8_t* d = g.diag();
    auto slabRhs = [&](int k) {
        float m = 0.0f;
        const int fk = k + fieldK0;
        for (int j = 0; j < f.n.y; ++j) {
            const size_t row = g.index(0, j, k);
            const float* u = &f.u(0, j, fk);
            const float* v0 = &f.v(0, j, fk);
            const float* v1 = &f.v(0, j + 1, fk);
            const float* w0 = &f.w(0, j, fk);
            const float* w1 = &f.w(0, j, fk + 1);
            // Burning gas expands: its divergence is kept, not removed.
            const float* grow = f.expansion.size() ? &f.expansion(0, j, fk) : nullptr;
            for (int i = 0; i < f.n.x; ++i) {
                float div = (u[i + 1] - u[i]) + (v1[i] - v0[i]) + (w1[i] - w0[i]);
                if (grow) div -= grow[i] * f.dx;  // 1/s over a cell: m/s of face flux
                float bn = d[row + i] ? -div : 0.0f;
                b[row + i] = bn;
                m = std::max(m, std::fabs(bn));
            }
        }
        return m;
    };
    // A NaN anywhere is the answer (the caller refuses to solve it).
    auto maxOrNaN = [](float a, float b) { return std::isnan(b) ? b : std::max(a, b); };
    return deterministicReduce(g.nz(), 0.0f, slabRhs, maxOrNaN);
}

// Subtracts the pressure difference from every face whose two sides carry a
// pressure: two unknowns, or an unknown and the ghost beyond an open side.
template <typename T>
inline void subtractGradient(Fields& f, const PoissonGrid& g, const T* p, int fieldK0 = 0) {
    const uint8_t* d = g.diag();
    const size_t sy = g.strideY(), sz = g.strideZ();
    const int nx = f.n.x, ny = f.n.y, nz = g.nz();
    // Faces 0..count-1 of a row, face i between padded cells r - step and r
    // (r = row + i): four at a time for a double pressure (the same
    // operations lane by lane), then one at a time.
    auto faces = [&](float* vel, size_t row, size_t step, int count) {
        int i = 0;
        if constexpr (std::is_same_v<T, double>) {
            typedef double D4 __attribute__((vector_size(32)));
            auto loadD = [](const double* q) {
                D4 v;
                std::memcpy(&v, q, sizeof v);
                return v;
            };
            for (; i + 4 <= count; i += 4) {
                const size_t r = row + i, l = r - step;
                const simd::F4 old = simd::load(vel + i);
                const simd::F4 updated = __builtin_convertvector(
                    __builtin_convertvector(old, D4) - (loadD(p + r) - loadD(p + l)), simd::F4);
                const simd::I4 both =
                    (simd::diagonal(d + l) != simd::F4{}) & (simd::diagonal(d + r) != simd::F4{});
                simd::store(vel + i, simd::select<simd::F4>(both, updated, old));
            }
        }
        for (; i < count; ++i) {
            const size_t r = row + i, l = r - step;
            if (d[l] && d[r]) vel[i] = float(vel[i] - (p[r] - p[l]));
        }
    };
    parallelForSlabs(nz + 1, [&](int k) {
        for (int j = 0; j <= ny; ++j) {
            // x-faces and y-faces of slab k (y-faces need j == ny too).
            const int fk = k + fieldK0;
            if (k < nz) {
                const size_t row = g.index(0, j, k);
                if (j < ny) faces(&f.u(0, j, fk), row, 1, nx + 1);
                faces(&f.v(0, j, fk), row, sy, nx);
            }
            if (j < ny) faces(&f.w(0, j, fk), g.index(0, j, k), sz, nx);  // the cell above face k
        }
    });
}

}  // namespace plume
