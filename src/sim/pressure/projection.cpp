// Pressure projection.
//
// Scaling: with unit density the update is u -= dt/dx * (p_R - p_L). We solve
// for p' = p * dt / dx (metres per second), so A p' = -div and the update is
// u -= p'_R - p'_L, where div = sum of outgoing minus incoming face velocities
// of a cell (div u * dx, m/s) and A is the unscaled 7-point Laplacian of
// sim/pressure/poisson.h. dt and dx then never enter the solve; the physical pressure
// is p' * dx / dt (Pa for unit density).
//
// After projection a cell's divergence is -(b - A p'), the solver's residual,
// so stopping at max|r| <= tolerance * max|b| bounds
//   maxDivergence(after) <= tolerance * maxDivergence(before)
// up to float rounding of the face updates (on closed regions, b has its mean
// removed first, which also removes it from the divergence).
#include "sim/pressure/projection.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/parallel.h"
#include "sim/pressure/multigrid.h"
#include "sim/pressure/pcg.h"
#include "sim/pressure/poisson_kernels.h"
#include "sim/pressure/sor.h"

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

  private:
    Vec3i n_;
    std::array<bool, 6> open_{};
    std::vector<uint8_t> solid_;
    bool built_ = false;
    std::unique_ptr<ScratchArena> ownScratch_;
};

namespace {

// b = -div on unknowns, 0 elsewhere; returns max |b|.
float computeRhs(const Fields& f, const PoissonGrid& g, float* b) {
    const uint8_t* d = g.diag();
    auto slabRhs = [&](int k) {
        float m = 0.0f;
        for (int j = 0; j < f.n.y; ++j) {
            const size_t row = g.index(0, j, k);
            const float* u = &f.u(0, j, k);
            const float* v0 = &f.v(0, j, k);
            const float* v1 = &f.v(0, j + 1, k);
            const float* w0 = &f.w(0, j, k);
            const float* w1 = &f.w(0, j, k + 1);
            // Burning gas expands: its divergence is kept, not removed.
            const float* grow = f.expansion.size() ? &f.expansion(0, j, k) : nullptr;
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
    return deterministicReduce(f.n.z, 0.0f, slabRhs, maxOrNaN);
}

// Subtracts the pressure difference from every face whose two sides carry a
// pressure: two unknowns, or an unknown and the ghost beyond an open side.
template <typename T>
void subtractGradient(Fields& f, const PoissonGrid& g, const T* p) {
    const uint8_t* d = g.diag();
    const size_t sy = g.strideY(), sz = g.strideZ();
    const int nx = f.n.x, ny = f.n.y, nz = f.n.z;
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
                const simd::I4 both = (simd::diagonal(d + l) != simd::F4{}) &
                                      (simd::diagonal(d + r) != simd::F4{});
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
            if (k < nz) {
                const size_t row = g.index(0, j, k);
                if (j < ny) faces(&f.u(0, j, k), row, 1, nx + 1);
                faces(&f.v(0, j, k), row, sy, nx);
            }
            if (j < ny) faces(&f.w(0, j, k), g.index(0, j, k), sz, nx);  // the cell above face k
        }
    });
}

}  // namespace

Projection::Projection(Vec3i cells, const std::array<Boundary, 6>& boundary, Vec3f inflowVelocity,
                       PressureMethod method, ScratchArena* scratch)
    : n_(cells),
      boundary_(boundary),
      inflow_(inflowVelocity),
      method_(method),
      impl_(std::make_unique<PressureSolverImpl>(cells, boundary, method, scratch)) {}

std::uint64_t Projection::bytesFor(Vec3i cells, PressureMethod method, bool solids) {
    const std::uint64_t padded = PoissonGrid::paddedCount(cells);
    const std::uint64_t cellCount = std::uint64_t(cells.x) * cells.y * cells.z;
    // PressureSolverImpl: the pressure (float for SOR, double for CG), the
    // solid mask it compares against, the Poisson grid.
    std::uint64_t bytes =
        padded * (method == PressureMethod::SOR ? sizeof(float) : sizeof(double));
    if (solids) bytes += cellCount * sizeof(uint8_t);
    bytes += PoissonGrid::bytesFor(cells);
    switch (method) {
        case PressureMethod::SOR:
            return bytes + SorSolver::bytesFor(cells);
        case PressureMethod::PCG:
            return bytes;
        case PressureMethod::MGPCG:
            return bytes + MultigridPreconditioner::bytesFor(cells);
    }
    return bytes;
}

std::uint64_t Projection::scratchBytesFor(Vec3i cells, PressureMethod method) {
    const std::uint64_t b = ScratchArena::rounded(PoissonGrid::paddedCount(cells) * sizeof(float));
    return method == PressureMethod::SOR ? b : b + PcgSolver::bytesFor(cells);
}

Projection::~Projection() = default;
Projection::Projection(Projection&&) noexcept = default;
Projection& Projection::operator=(Projection&&) noexcept = default;

void Projection::enforceBoundaries(Fields& f) const {
    const Vec3i n = f.n;
    const bool hasSolid = f.solid.size() == f.cellCount();
    // Value a domain-side face must hold: 0 on a wall, the inflow component
    // on an inflow side; open sides are left to the solve.
    auto sideFace = [&](int side, float& face) {
        if (boundary_[side] == Boundary::Wall) face = 0.0f;
        if (boundary_[side] == Boundary::Inflow) face = inflow_[side / 2];
    };
    parallelForSlabs(n.z + 1, [&](int k) {
        // Domain sides first, then every face touching a solid (solids win).
        for (int j = 0; j < n.y && k < n.z; ++j) {
            sideFace(kXMin, f.u(0, j, k));
            sideFace(kXMax, f.u(n.x, j, k));
        }
        for (int i = 0; i < n.x && k < n.z; ++i) {
            sideFace(kYMin, f.v(i, 0, k));
            sideFace(kYMax, f.v(i, n.y, k));
        }
        if (k == 0 || k == n.z)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) sideFace(k == 0 ? kZMin : kZMax, f.w(i, j, k));
        // Most slabs hold no solid (the mask is always there, mostly 0): a
        // slab whose bytes all equal its first, 0, and the slab below it
        // give no face to hold.
        auto noSolid = [&](int kk) {
            if (kk < 0 || kk >= n.z) return true;
            const uint8_t* s = &f.solid(0, 0, kk);
            return s[0] == 0 && std::memcmp(s, s + 1, f.solid.strideZ() - 1) == 0;
        };
        if (!hasSolid || (noSolid(k) && noSolid(k - 1))) return;
        // A face touching a solid moves with it: the fluid's normal velocity
        // there is the solid's (0 for a solid at rest).
        const bool moving = f.solidsMove();
        auto solidFace = [&](int axis, int i, int j, int kk) {
            return moving ? f.solidVelocity.component(axis)(i, j, kk) : 0.0f;
        };
        for (int j = 0; j < n.y; ++j) {
            const uint8_t* s = k < n.z ? &f.solid(0, j, k) : nullptr;        // cells above face k
            const uint8_t* below = k > 0 ? &f.solid(0, j, k - 1) : nullptr;  // and below
            const uint8_t* front = s && j > 0 ? &f.solid(0, j - 1, k) : nullptr;
            if (s) {
                float* u = &f.u(0, j, k);
                for (int i = 0; i <= n.x; ++i)
                    if ((i > 0 && s[i - 1]) || (i < n.x && s[i])) u[i] = solidFace(0, i, j, k);
                float* v = &f.v(0, j, k);
                for (int i = 0; i < n.x; ++i)
                    if (s[i] || (front && front[i])) v[i] = solidFace(1, i, j, k);
            }
            float* w = &f.w(0, j, k);
            for (int i = 0; i < n.x; ++i)
                if ((s && s[i]) || (below && below[i])) w[i] = solidFace(2, i, j, k);
        }
        if (k < n.z) {  // y-faces on the far side of the last row
            const uint8_t* last = &f.solid(0, n.y - 1, k);
            float* v = &f.v(0, n.y, k);
            for (int i = 0; i < n.x; ++i)
                if (last[i]) v[i] = solidFace(1, i, n.y, k);
        }
    });
}

SolveStats Projection::project(Fields& f, float /*dt: absorbed into p, see top*/, float tolerance,
                               int maxIterations) {
    if (!(f.n == n_)) throw RunError("projection: fields do not match the pressure grid size");
    if (n_.x <= 0 || n_.y <= 0 || n_.z <= 0) return {};
    enforceBoundaries(f);
    PressureSolverImpl& s = *impl_;
    s.prepare(f);
    const PoissonGrid& g = s.grid;

    // The right-hand side and the solver's vectors, for this solve only.
    ScratchArena::Lease scratch(*s.arena);
    float* b = scratch.take<float>(g.paddedSize());
    clear(g, b);  // computeRhs writes the cells; the ghost layer stays 0
    float bMax = computeRhs(f, g, b);
    if (g.singular()) {  // closed regions: solve in the least-squares sense
        g.removeSingularMean(b);
        bMax = maxAbs(g, b);
    }
    s.subtracted = false;
    if (bMax == 0.0f || !std::isfinite(bMax)) return {};

    SolveStats stats;
    switch (method_) {
        case PressureMethod::SOR:
            stats = s.sor.solve(g, s.p.data(), b, bMax, tolerance, maxIterations);
            break;
        case PressureMethod::PCG:
            stats = s.pcg.solve(g, *s.sgs, s.pcgPressure.data(), b, bMax, tolerance,
                                maxIterations, scratch);
            break;
        case PressureMethod::MGPCG:
            stats = s.pcg.solve(g, s.mg, s.pcgPressure.data(), b, bMax, tolerance,
                                maxIterations, scratch);
            break;
    }
    if (!std::isfinite(stats.residual)) {  // never keep a poisoned warm start
        s.resetPressure();
        return stats;
    }
    if (method_ == PressureMethod::SOR)
        subtractGradient(f, g, s.p.data());
    else
        subtractGradient(f, g, s.pcgPressure.data());
    s.subtracted = true;
    s.addToSum();
    return stats;
}

void Projection::reflect(Fields& f) {
    PressureSolverImpl& s = *impl_;
    if (!s.subtracted) return;
    if (method_ == PressureMethod::SOR)
        subtractGradient(f, s.grid, s.p.data());
    else
        subtractGradient(f, s.grid, s.pcgPressure.data());
    s.subtracted = false;
    s.addToSum();
}

void Projection::startPressureSum() {
    PressureSolverImpl& s = *impl_;
    s.summing = true;
    s.pressureSum.assign(size_t(n_.x + 2) * size_t(n_.y + 2) * size_t(n_.z + 2), 0.0);
}

Grid3<double> Projection::pressureSum() const {
    const PressureSolverImpl& s = *impl_;
    Grid3<double> out(n_.x, n_.y, n_.z);
    if (s.pressureSum.empty()) return out;
    const size_t sy = size_t(n_.x + 2), sz = sy * size_t(n_.y + 2);
    for (int k = 0; k < n_.z; ++k)
        for (int j = 0; j < n_.y; ++j)
            for (int i = 0; i < n_.x; ++i)
                out(i, j, k) = s.pressureSum[size_t(k + 1) * sz + size_t(j + 1) * sy + size_t(i + 1)];
    return out;
}

void Projection::resetWarmStart() { impl_->resetPressure(); }

Grid3<double> Projection::warmStart() const {
    const PressureSolverImpl& s = *impl_;
    Grid3<double> out(n_.x, n_.y, n_.z);
    const size_t sy = size_t(n_.x + 2), sz = sy * size_t(n_.y + 2);
    for (int k = 0; k < n_.z; ++k)
        for (int j = 0; j < n_.y; ++j)
            for (int i = 0; i < n_.x; ++i) {
                const size_t n = size_t(k + 1) * sz + size_t(j + 1) * sy + size_t(i + 1);
                out(i, j, k) = method_ == PressureMethod::SOR ? double(s.p[n]) : s.pcgPressure[n];
            }
    return out;
}

void Projection::setWarmStart(const Grid3<double>& pressure) {
    if (pressure.nx() != n_.x || pressure.ny() != n_.y || pressure.nz() != n_.z)
        throw RunError("projection: warm-start pressure does not match the grid size");
    PressureSolverImpl& s = *impl_;
    s.subtracted = false;
    const size_t sy = size_t(n_.x + 2), sz = sy * size_t(n_.y + 2);
    for (int k = 0; k < n_.z; ++k)
        for (int j = 0; j < n_.y; ++j)
            for (int i = 0; i < n_.x; ++i) {
                const size_t n = size_t(k + 1) * sz + size_t(j + 1) * sy + size_t(i + 1);
                if (method_ == PressureMethod::SOR)
                    s.p[n] = float(pressure(i, j, k));
                else
                    s.pcgPressure[n] = pressure(i, j, k);
            }
}

float Projection::maxDivergence(const Fields& f) {
    const bool hasSolid = f.solid.size() == f.cellCount();
    auto slabMaxDivergence = [&](int k) {
        float m = 0.0f;
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                if (hasSolid && f.solid(i, j, k)) continue;
                float div = (f.u(i + 1, j, k) - f.u(i, j, k)) + (f.v(i, j + 1, k) - f.v(i, j, k)) +
                            (f.w(i, j, k + 1) - f.w(i, j, k));
                m = std::max(m, std::fabs(div));
            }
        return m;
    };
    return deterministicReduce(f.n.z, 0.0f, slabMaxDivergence, maxOf<float>);
}

void Projection::divergence(const Fields& f, ScalarGrid& out) {
    const bool hasSolid = f.solid.size() == f.cellCount();
    out = ScalarGrid(f.n.x, f.n.y, f.n.z);
    const float perMetre = 1.0f / f.dx;
    parallelForSlabs(f.n.z, [&](int k) {
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                if (hasSolid && f.solid(i, j, k)) continue;
                // The sum maxDivergence takes, in the same order.
                const float div = (f.u(i + 1, j, k) - f.u(i, j, k)) +
                                  (f.v(i, j + 1, k) - f.v(i, j, k)) +
                                  (f.w(i, j, k + 1) - f.w(i, j, k));
                out(i, j, k) = div * perMetre;
            }
    });
}

}  // namespace plume
