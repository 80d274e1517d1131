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
#include <vector>

#include "sim/pressure/projection_impl.h"

namespace plume {

Projection::Projection(Vec3i cells, const std::array<Boundary, 6>& boundary, Vec3f inflowVelocity,
                       PressureMethod method, ScratchArena* scratch, SlabPart part)
    : n_(cells), boundary_(boundary), inflow_(inflowVelocity), method_(method) {
    if (!part.split()) {
        impl_ = std::make_unique<PressureSolverImpl>(cells, boundary, method, scratch);
        return;
    }
    if (method == PressureMethod::SOR)
        throw RunError(
            "solver.pressure = \"sor\" does not split across processes; use \"mgpcg\" or \"pcg\"");
    part_ = std::move(part);
    if (int(part_.owned.size()) != part_.processes->count() || part_.owned.front().begin != 0 ||
        part_.owned.back().end != part_.nz)
        throw RunError("projection: the owned slabs do not cover the grid, one range a process");
    const SlabRange mine = part_.owned[size_t(part_.processes->rank())];
    if (mine.size() > 0 && (mine.begin < part_.first || mine.end > part_.first + cells.z))
        throw RunError("projection: the fields do not hold the slabs this process owns");
    zMinHere_ = part_.first == 0;
    zMaxHere_ = part_.first + cells.z == part_.nz;
    // The pressure and the solve's vectors cover the owned slabs only.
    impl_ = std::make_unique<PressureSolverImpl>(Vec3i{cells.x, cells.y, mine.size()}, boundary,
                                                 method, scratch);
    impl_->comm = std::make_unique<SlabComm>(part_);
    impl_->fieldK0 = mine.begin - part_.first;
}

SplitCost Projection::splitCost() const { return impl_->comm ? impl_->comm->cost() : SplitCost{}; }

std::uint64_t Projection::bytesFor(Vec3i cells, PressureMethod method, bool solids) {
    const std::uint64_t padded = PoissonGrid::paddedCount(cells);
    const std::uint64_t cellCount = std::uint64_t(cells.x) * cells.y * cells.z;
    // PressureSolverImpl: the pressure (float for SOR, double for CG), the
    // solid mask it compares against, the Poisson grid.
    std::uint64_t bytes = padded * (method == PressureMethod::SOR ? sizeof(float) : sizeof(double));
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
        if ((k == 0 && zMinHere_) || (k == n.z && zMaxHere_))
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
    if (impl_->comm) return projectSplit(f, tolerance, maxIterations);
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
            stats = s.pcg.solve(g, *s.sgs, s.pcgPressure.data(), b, bMax, tolerance, maxIterations,
                                scratch);
            break;
        case PressureMethod::MGPCG:
            stats = s.pcg.solve(g, s.mg, s.pcgPressure.data(), b, bMax, tolerance, maxIterations,
                                scratch);
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
    else if (s.grid.nz() > 0)  // (a split process may own no slab)
        subtractGradient(f, s.grid, s.pcgPressure.data(), s.fieldK0);
    s.subtracted = false;
    s.addToSum();
}

void Projection::startPressureSum() {
    PressureSolverImpl& s = *impl_;
    s.summing = true;
    s.pressureSum.assign(s.method_ == PressureMethod::SOR ? s.p.size() : s.pcgPressure.size(), 0.0);
}

namespace {
// Calls body(i, j, k, n) for each cell of fields of `cells` that the solver
// keeps a pressure for, n its padded index there (the fields' slabs from
// fieldK0 on, `slabs` of them; with one process all of them).
template <typename F>
void forPressureCells(Vec3i cells, int fieldK0, int slabs, F&& body) {
    const size_t sy = size_t(cells.x + 2), sz = sy * size_t(cells.y + 2);
    for (int k = std::max(0, fieldK0); k < std::min(cells.z, fieldK0 + slabs); ++k)
        for (int j = 0; j < cells.y; ++j)
            for (int i = 0; i < cells.x; ++i)
                body(i, j, k, size_t(k - fieldK0 + 1) * sz + size_t(j + 1) * sy + size_t(i + 1));
}
}  // namespace

Grid3<double> Projection::pressureSum() const {
    const PressureSolverImpl& s = *impl_;
    Grid3<double> out(n_.x, n_.y, n_.z);
    if (s.pressureSum.empty()) return out;
    forPressureCells(n_, s.fieldK0, s.slabs(),
                     [&](int i, int j, int k, size_t n) { out(i, j, k) = s.pressureSum[n]; });
    return out;
}

void Projection::resetWarmStart() { impl_->resetPressure(); }

void Projection::returnScratchPages() { impl_->mg.returnPages(); }

Grid3<double> Projection::warmStart() const {
    const PressureSolverImpl& s = *impl_;
    Grid3<double> out(n_.x, n_.y, n_.z);
    forPressureCells(n_, s.fieldK0, s.slabs(), [&](int i, int j, int k, size_t n) {
        out(i, j, k) = method_ == PressureMethod::SOR ? double(s.p[n]) : s.pcgPressure[n];
    });
    return out;
}

void Projection::warmStartSlabs(int z0, int z1, double* out) const {
    const PressureSolverImpl& s = *impl_;
    std::fill(out, out + size_t(z1 - z0) * size_t(n_.x) * size_t(n_.y), 0.0);
    forPressureCells(n_, s.fieldK0, s.slabs(), [&](int i, int j, int k, size_t n) {
        if (k < z0 || k >= z1) return;
        out[(size_t(k - z0) * size_t(n_.y) + size_t(j)) * size_t(n_.x) + size_t(i)] =
            method_ == PressureMethod::SOR ? double(s.p[n]) : s.pcgPressure[n];
    });
}

void Projection::setWarmStart(const Grid3<double>& pressure) {
    if (pressure.nx() != n_.x || pressure.ny() != n_.y || pressure.nz() != n_.z)
        throw RunError("projection: warm-start pressure does not match the grid size");
    PressureSolverImpl& s = *impl_;
    s.subtracted = false;
    forPressureCells(n_, s.fieldK0, s.slabs(), [&](int i, int j, int k, size_t n) {
        if (method_ == PressureMethod::SOR)
            s.p[n] = float(pressure(i, j, k));
        else
            s.pcgPressure[n] = pressure(i, j, k);
    });
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
