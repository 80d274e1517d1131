#include "sim/pressure/multigrid.h"

#include <algorithm>

#include "core/scratch_arena.h"

namespace plume {

MultigridPreconditioner::AxisTransfer MultigridPreconditioner::makeAxis(int nFine, int nCoarse,
                                                                        bool openMin,
                                                                        bool openMax) {
    AxisTransfer a;
    a.parent.resize(size_t(nFine));
    a.neighbour.resize(size_t(nFine));
    a.weightP.resize(size_t(nFine));
    a.weightQ.resize(size_t(nFine));
    for (int f = 0; f < nFine; ++f) {
        // Cell-centred linear interpolation: 3/4 from the parent, 1/4 from the
        // coarse cell on the side of f's centre.
        int p = f / 2, q = p + ((f & 1) ? 1 : -1);
        float wp = 0.75f, wq = 0.25f;
        if (q < 0 || q >= nCoarse) {
            bool open = q < 0 ? openMin : openMax;
            q = p;
            wq = open ? 0.0f : 0.25f;  // Dirichlet ghost reads 0; Neumann copies
        }
        a.parent[f] = p, a.neighbour[f] = q, a.weightP[f] = wp, a.weightQ[f] = wq;
    }
    // The transpose, gathered per coarse index from fine 2I-1 .. 2I+2.
    a.fine.assign(size_t(nCoarse), {});
    a.weight.assign(size_t(nCoarse), {});
    a.count.assign(size_t(nCoarse), 0);
    for (int c = 0; c < nCoarse; ++c)
        for (int f = std::max(0, 2 * c - 1); f <= std::min(nFine - 1, 2 * c + 2); ++f) {
            float w = (a.parent[f] == c ? a.weightP[f] : 0.0f) +
                      (a.neighbour[f] == c ? a.weightQ[f] : 0.0f);
            if (w == 0.0f) continue;
            int& n = a.count[c];
            a.fine[c][n] = f, a.weight[c][n] = w;
            ++n;
        }
    return a;
}

std::uint64_t MultigridPreconditioner::bytesFor(Vec3i cells) {
    std::uint64_t bytes = 0;
    Vec3i g = cells;
    for (int level = 1; level < 16; ++level) {
        if (std::uint64_t(g.x) * g.y * g.z <= kCoarsestCells || (g.x == 1 && g.y == 1 && g.z == 1))
            break;
        const Vec3i c{(g.x + 1) / 2, (g.y + 1) / 2, (g.z + 1) / 2};
        bytes += PoissonGrid::bytesFor(c) + 2 * PoissonGrid::paddedCount(c) * sizeof(float);
        bytes += (std::uint64_t(c.x) * c.y * g.z + std::uint64_t(g.x + c.x) * g.z) * sizeof(float);
        g = c;
    }
    return bytes;
}

void MultigridPreconditioner::build(const PoissonGrid& fine) {
    comm_ = nullptr;
    firstSlab_ = stageFirst_ = 0;
    buildLevels(fine);
}

void MultigridPreconditioner::buildLevels(const PoissonGrid& fine, bool finestScratch) {
    fine_ = &fine;
    levels_.clear();
    levels_.emplace_back();
    // Coarsen until the level is small enough for a direct sweep solve.
    while (levels_.size() < 16) {
        const PoissonGrid& g = grid(int(levels_.size()) - 1);
        if (g.cellCount() <= kCoarsestCells) break;
        if (g.nx() == 1 && g.ny() == 1 && g.nz() == 1) break;
        Level coarse;
        coarse.grid.buildCoarse(g);
        Level& f = levels_.back();
        const PoissonGrid& c = coarse.grid;
        const auto& open = g.openSide();
        f.toCoarse[0] = makeAxis(g.nx(), c.nx(), open[kXMin], open[kXMax]);
        f.toCoarse[1] = makeAxis(g.ny(), c.ny(), open[kYMin], open[kYMax]);
        f.toCoarse[2] = makeAxis(g.nz(), c.nz(), open[kZMin], open[kZMax]);
        f.rowStride = size_t(g.nx() + c.nx());
        if (levels_.size() > 1 || finestScratch) {
            f.stage.assign(size_t(c.nx()) * c.ny() * g.nz(), 0.0f);
            f.rows.assign(f.rowStride * g.nz(), 0.0f);
        }
        levels_.push_back(std::move(coarse));
    }
    if (finestScratch) takeCoarseUnknowns();
    partial_.assign(size_t(fine.nz()), 0.0);
    const PoissonGrid& coarsest = grid(levelCount() - 1);
    // Enough sweeps for information to cross the coarsest grid a few times.
    coarseSweeps_ = std::max({8, coarsest.nx(), coarsest.ny(), coarsest.nz()});
}

void MultigridPreconditioner::returnPages() {
    auto give = [](std::vector<float>& v) { returnPagesOf(v.data(), v.size() * sizeof(float)); };
    for (Level& level : levels_) {
        give(level.x);
        give(level.b);
        give(level.stage);
        give(level.rows);
    }
}

void MultigridPreconditioner::takeCoarseUnknowns() {
    for (size_t l = 1; l < levels_.size(); ++l) {
        Level& c = levels_[l];
        c.x.assign(c.grid.paddedSize(), 0.0f);
        c.b.assign(c.grid.paddedSize(), 0.0f);
    }
}

double MultigridPreconditioner::apply(const float* r, float* z) {
    if (comm_) return applySplit(r, z);
    cycle(0, r, z);
    if (levelCount() == 1) {
        const PoissonGrid& g = grid(0);
        g.forSlabs([&](int k) { partial_[k] = dotSlab(g, r, z, k); });
    }
    double sum = 0.0;
    for (double p : partial_) sum += p;
    return sum;
}

void MultigridPreconditioner::cycle(int top, const float* r, float* z) {
    const int last = levelCount() - 1;
    auto xOf = [&](int l) { return l == 0 ? z : levels_[l].x.data(); };
    auto bOf = [&](int l) { return l == 0 ? r : levels_[l].b.data(); };
    constexpr int kMaxStages = 2 * kSweeps + 2;
    // Down: smooth from zero (red, black first), restrict the residual.
    for (int l = top; l < last; ++l) {
        const PoissonGrid& g = grid(l);
        float* x = xOf(l);
        const float* b = bOf(l);
        auto fromZero = [&](int k) { divideByDiagonalSlab(g, x, b, k); };
        auto red = [&](int k) { smoothColourSlab(g, x, b, 0, 1.0f, k); };
        auto black = [&](int k) { smoothColourSlab(g, x, b, 1, 1.0f, k); };
        auto restrictRows = [&](int k) { restrictSlab(l, x, b, k); };
        FunctionRef<void(int)> stages[kMaxStages] = {fromZero, black,    fromZero,
                                                     fromZero, fromZero, fromZero};
        int count = 2;
        for (int s = 1; s < kSweeps; ++s) stages[count++] = red, stages[count++] = black;
        stages[count++] = restrictRows;
        pipelineSlabs(g, stages, count);
        restrictZ(l, levels_[l + 1].b.data());
    }
    coarseSolve(last, xOf(last), bOf(last));
    // Up: add the interpolated correction, smooth black then red; on the
    // finest level also form r . z as each slab of z is final.
    for (int l = last - 1; l >= top; --l) {
        const PoissonGrid& g = grid(l);
        float* x = xOf(l);
        const float* b = bOf(l);
        const float* coarseX = levels_[l + 1].x.data();
        auto prolong = [&](int k) { prolongSlab(l, coarseX, x, k); };
        auto red = [&](int k) { smoothColourSlab(g, x, b, 0, 1.0f, k); };
        auto black = [&](int k) { smoothColourSlab(g, x, b, 1, 1.0f, k); };
        auto product = [&](int k) { partial_[k] = dotSlab(g, b, x, k); };
        FunctionRef<void(int)> stages[kMaxStages] = {prolong, prolong, prolong,
                                                     prolong, prolong, prolong};
        int count = 1;
        for (int s = 0; s < kSweeps; ++s) stages[count++] = black, stages[count++] = red;
        if (l == 0) stages[count++] = product;
        pipelineSlabs(g, stages, count);
    }
}

void MultigridPreconditioner::coarseSolve(int level, float* x, const float* b) {
    // Forward sweeps then as many backward ones: a symmetric linear operator.
    const PoissonGrid& g = grid(level);
    smoothFromZero(g, x, b);
    for (int s = 1; s < coarseSweeps_; ++s) {
        smoothColour(g, x, b, 0);
        smoothColour(g, x, b, 1);
    }
    for (int s = 0; s < coarseSweeps_; ++s) {
        smoothColour(g, x, b, 1);
        smoothColour(g, x, b, 0);
    }
}

void MultigridPreconditioner::restrictSlab(int level, const float* x, const float* b, int k) {
    using namespace simd;
    Level& L = levels_[level];
    const PoissonGrid& g = grid(level);
    const PoissonGrid& c = grid(level + 1);
    const AxisTransfer &ax = L.toCoarse[0], &ay = L.toCoarse[1];
    const int ny = g.ny(), cnx = c.nx(), cny = c.ny();
    const size_t planeSize = size_t(cnx) * cny;
    // Residual row by row, restricted in x, then added into the two coarse
    // rows it feeds (restriction in y).
    {
        float* plane =
            L.stage.data() + planeSize * size_t(level == 0 ? k + firstSlab_ - stageFirst_ : k);
        std::fill(plane, plane + planeSize, 0.0f);
        float* res = L.rows.data() + L.rowStride * k;
        float* rx = res + g.nx();
        for (int j = 0; j < ny; ++j) {
            residualRow(g, x, b, g.index(0, j, k), res);
            for (int I = 0; I < cnx; ++I) {
                const auto& f = ax.fine[I];
                const auto& w = ax.weight[I];
                float s = 0.0f;
                for (int e = 0; e < ax.count[I]; ++e) s += w[e] * res[f[e]];
                rx[I] = s;
            }
            float* rowP = plane + size_t(ay.parent[j]) * cnx;
            float* rowQ = plane + size_t(ay.neighbour[j]) * cnx;
            const float wp = ay.weightP[j], wq = ay.weightQ[j];
            const F4 wp4 = splat(wp), wq4 = splat(wq);
            int I = 0;
            for (; I + 4 <= cnx; I += 4) store(rowP + I, load(rowP + I) + wp4 * load(rx + I));
            for (; I < cnx; ++I) rowP[I] += wp * rx[I];
            for (I = 0; I + 4 <= cnx; I += 4) store(rowQ + I, load(rowQ + I) + wq4 * load(rx + I));
            for (; I < cnx; ++I) rowQ[I] += wq * rx[I];
        }
    }
}

void MultigridPreconditioner::restrictZ(int level, float* coarseB, int first, int end) {
    Level& L = levels_[level];
    const PoissonGrid& c = grid(level + 1);
    const AxisTransfer& az = L.toCoarse[2];
    const int cnx = c.nx(), cny = c.ny();
    const size_t planeSize = size_t(cnx) * cny;
    // Restriction in z, times 1/2 (see the header).
    const uint8_t* cd = c.diag();
    const int plane0 = level == 0 ? stageFirst_ : 0;
    auto slab = [&](int K) {
        const int count = az.count[K];
        const float* src[4];
        float wz[4];
        for (int e = 0; e < count; ++e) {
            src[e] = L.stage.data() + planeSize * size_t(az.fine[K][e] - plane0);
            wz[e] = 0.5f * az.weight[K][e];
        }
        for (int J = 0; J < cny; ++J) {
            const size_t out = c.index(0, J, K), in = size_t(J) * cnx;
            for (int I = 0; I < cnx; ++I) {
                float s = 0.0f;
                for (int e = 0; e < count; ++e) s += wz[e] * src[e][in + I];
                coarseB[out + I] = cd[out + I] ? s : 0.0f;
            }
        }
    };
    if (end < 0)
        c.forSlabs(slab);
    else
        parallelForSlabs(end - first, [&](int K) { slab(first + K); });
}

void MultigridPreconditioner::prolongSlab(int level, const float* coarseX, float* x, int k) {
    using namespace simd;
    Level& L = levels_[level];
    const PoissonGrid& g = grid(level);
    const PoissonGrid& c = grid(level + 1);
    const AxisTransfer &ax = L.toCoarse[0], &ay = L.toCoarse[1], &az = L.toCoarse[2];
    const uint8_t* d = g.diag();
    const int nx = g.nx(), ny = g.ny(), cnx = c.nx();
    {
        float* crow = L.rows.data() + L.rowStride * k;
        const int kz = level == 0 ? k + firstSlab_ : k;  // its place in a split grid
        const int kp = az.parent[kz], kq = az.neighbour[kz];
        const float wzp = az.weightP[kz], wzq = az.weightQ[kz];
        for (int j = 0; j < ny; ++j) {
            // Interpolate in y and z into one coarse row, then in x per fine cell.
            const int jp = ay.parent[j], jq = ay.neighbour[j];
            const float wyp = ay.weightP[j], wyq = ay.weightQ[j];
            const float w00 = wyp * wzp, w10 = wyq * wzp, w01 = wyp * wzq, w11 = wyq * wzq;
            const float* c00 = coarseX + c.index(0, jp, kp);
            const float* c10 = coarseX + c.index(0, jq, kp);
            const float* c01 = coarseX + c.index(0, jp, kq);
            const float* c11 = coarseX + c.index(0, jq, kq);
            const F4 v00 = splat(w00), v10 = splat(w10), v01 = splat(w01), v11 = splat(w11);
            int I = 0;
            for (; I + 4 <= cnx; I += 4)
                store(crow + I, v00 * load(c00 + I) + v10 * load(c10 + I) + v01 * load(c01 + I) +
                                    v11 * load(c11 + I));
            for (; I < cnx; ++I)
                crow[I] = w00 * c00[I] + w10 * c10[I] + w01 * c01[I] + w11 * c11[I];
            const size_t row = g.index(0, j, k);
            // Away from the ends, fine cells 2p .. 2p + 3 read coarse cells
            // p - 1 .. p + 2 in a fixed pattern: four at a time.
            auto one = [&](int i) {
                float e =
                    ax.weightP[i] * crow[ax.parent[i]] + ax.weightQ[i] * crow[ax.neighbour[i]];
                if (d[row + i]) x[row + i] += e;
            };
            int i = 0;
            for (; i < std::min(2, nx); ++i) one(i);
            for (; i + 4 <= std::min(nx, 2 * cnx - 1); i += 4) {
                const float* c = crow + i / 2 - 1;  // coarse p - 1 .. p + 2
                const F4 near = load(c), far = load(c + 1);
                const F4 parent = __builtin_shufflevector(far, far, 0, 0, 1, 1);
                const F4 neighbour = __builtin_shufflevector(near, far, 0, 5, 1, 6);
                const F4 e = load(&ax.weightP[i]) * parent + load(&ax.weightQ[i]) * neighbour;
                const F4 xs = load(x + row + i);
                store(x + row + i, select<F4>(diagonal(d + row + i) != F4{}, xs + e, xs));
            }
            for (; i < nx; ++i) one(i);
        }
    }
}

}  // namespace plume
