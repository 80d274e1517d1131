// The Advector's traces: the velocity sampled at the cell centres, and each
// cell centre's RK2 backtrace through those samples, made once per velocity
// field and time step for every field advected through it.
#include <cmath>
#include <stdexcept>

#include "core/parallel.h"
#include "core/simd.h"
#include "sim/advection.h"
#include "sim/advection_centred.h"
#include "sim/advection_kernels.h"
#include "sim/advection_regions.h"

namespace plume {

using simd::F4;

void Advector::setVelocity(const MacVelocity& f, float dx, ScratchArena::Lease* lease, int partZ) {
    frameZ_ = float(partZ);
    if (!lease) {
        if (!ownArena_) ownArena_ = std::make_unique<ScratchArena>();
        ownLease_.reset();  // close the last one first: one lease at a time
        lease = &ownLease_.emplace(*ownArena_);
    }
    lease_ = lease;
    n_ = {f.u.nx() - 1, f.u.ny(), f.u.nz()};
    dx_ = dx;
    centred_ = lease->take<float>(centredBytes(n_) / sizeof(float));
    displacement_ = lease->take<float>(sampleBytes(n_) / sizeof(float));
    centredSpent_ = false;
    for (float*& h : hat_) h = nullptr;
    rangeLo_ = rangeHi_ = nullptr;
    hatSize_ = rangeSize_ = 0;
    // Each slab's centred samples, and the largest component among them.
    // (A lane's running max takes a value only when it is greater, as
    // std::max does: NaNs are passed over, and the max is the same in any
    // order.)
    auto centreSlab = [&](int k) {
        float m = 0.0f;
        for (int j = 0; j < n_.y; ++j) {
            float* out = &centred_[3 * (size_t(k) * n_.y + j) * n_.x];
            const float *u = &f.u(0, j, k), *v0 = &f.v(0, j, k), *v1 = &f.v(0, j + 1, k);
            const float *w0 = &f.w(0, j, k), *w1 = &f.w(0, j, k + 1);
            F4 m4{};
            int i = 0;
            for (; i + 4 <= n_.x; i += 4) {
                const F4 x = 0.5f * (simd::load(u + i) + simd::load(u + i + 1));
                const F4 y = 0.5f * (simd::load(v0 + i) + simd::load(v1 + i));
                const F4 z = 0.5f * (simd::load(w0 + i) + simd::load(w1 + i));
                for (const F4 a : {simd::abs(x), simd::abs(y), simd::abs(z)}) m4 = m4 < a ? a : m4;
                // x y z per cell: x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3.
                const F4 xy01 = __builtin_shufflevector(x, y, 0, 4, 1, 5);
                const F4 xy23 = __builtin_shufflevector(x, y, 2, 6, 3, 7);
                const F4 yz1 = __builtin_shufflevector(y, z, 1, 5, 1, 5);
                float* o = out + 3 * i;
                simd::store(o, __builtin_shufflevector(xy01, z, 0, 1, 4, 2));
                simd::store(o + 4, __builtin_shufflevector(yz1, xy23, 0, 1, 4, 5));
                simd::store(o + 8, __builtin_shufflevector(z, xy23, 2, 6, 7, 3));
            }
            m = std::max({m, m4[0], m4[1], m4[2], m4[3]});
            for (; i < n_.x; ++i) {
                Vec3f v = f.centredVelocity(i, j, k);
                store3(out + 3 * i, F4{v.x, v.y, v.z, 0.0f});
                m = std::max({m, std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
            }
        }
        return m;
    };
    maxComponent_ = deterministicReduce(n_.z, 0.0f, centreSlab, maxOf<float>);
    displacementBox_ = Box3i{};
}

void Advector::traceCells(float s, const Box3i& cells, const Region* rows) {
    if (!rows && s == displacementS_ && displacementBox_.contains(cells)) return;
    if (centredSpent_) throw std::logic_error("Advector: retrace after the forward steps");
    const Centred vel(centred_, n_, Vec3f(0.5f), frameZ_);
    forRows(cells, [&](int i0, int i1, int j, int k) {
        if (rows) {
            const Region::Span sp = rows->at(j, k);
            i0 = sp.lo, i1 = sp.hi;
        }
        traceRow(vel, s, i0, i1, j, k, &displacement_[3 * (size_t(k) * n_.y + j) * n_.x]);
    });
    displacementS_ = s;
    displacementBox_ = rows ? Box3i{} : cells;
}

}  // namespace plume
