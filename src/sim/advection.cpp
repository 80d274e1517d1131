#include "sim/advection.h"

#include <algorithm>

#include "core/parallel.h"

namespace plume {

namespace {

// Trilinear lookup on one grid with its offset folded in and the strides
// precomputed: the inner loop of every advection, so it avoids the general
// Grid3::sample's repeated index arithmetic.
class Sampler {
public:
    Sampler(const float* data, int nx, int ny, int nz, Vec3f offset)
        : d_(data), nx_(nx), ny_(ny), nz_(nz), off_(offset),
          sy_(nx), sz_(ptrdiff_t(nx) * ny) {}
    explicit Sampler(const ScalarGrid& g) : Sampler(g.data(), g.nx(), g.ny(), g.nz(), g.offset()) {}

    // Base pointer and weights of the 2x2x2 stencil around pGrid.
    struct Stencil {
        const float* p;
        ptrdiff_t dx, dy, dz;
        float fx, fy, fz;
    };
    [[gnu::always_inline]] Stencil stencil(Vec3f pGrid) const {
        Stencil s;
        axis(pGrid.x - off_.x, nx_, 1, s.fx, s.dx, s.p, d_);
        axis(pGrid.y - off_.y, ny_, sy_, s.fy, s.dy, s.p, s.p);
        axis(pGrid.z - off_.z, nz_, sz_, s.fz, s.dz, s.p, s.p);
        return s;
    }
    [[gnu::always_inline]] static float blend(const Stencil& s) {
        const float* p = s.p;
        float c00 = p[0] + (p[s.dx] - p[0]) * s.fx;
        float c10 = p[s.dy] + (p[s.dy + s.dx] - p[s.dy]) * s.fx;
        float c01 = p[s.dz] + (p[s.dz + s.dx] - p[s.dz]) * s.fx;
        float c11 = p[s.dz + s.dy] + (p[s.dz + s.dy + s.dx] - p[s.dz + s.dy]) * s.fx;
        float c0 = c00 + (c10 - c00) * s.fy;
        float c1 = c01 + (c11 - c01) * s.fy;
        return c0 + (c1 - c0) * s.fz;
    }
    static void range(const Stencil& s, float& lo, float& hi) {
        const float* p = s.p;
        float v[8] = {p[0], p[s.dx], p[s.dy], p[s.dy + s.dx],
                      p[s.dz], p[s.dz + s.dx], p[s.dz + s.dy], p[s.dz + s.dy + s.dx]};
        lo = hi = v[0];
        for (int n = 1; n < 8; ++n) lo = std::min(lo, v[n]), hi = std::max(hi, v[n]);
    }
    float operator()(Vec3f pGrid) const { return blend(stencil(pGrid)); }
    // The same stencil position and weights apply to any grid of this shape.
    float at(const float* other, const Stencil& s) const {
        Stencil t = s;
        t.p = other + (s.p - d_);
        return blend(t);
    }

private:
    // Clamps one coordinate to the samples, splits it into cell and fraction.
    [[gnu::always_inline]] static void axis(float x, int n, ptrdiff_t stride, float& frac, ptrdiff_t& step,
                     const float*& out, const float* base) {
        if (n <= 1) {
            frac = 0, step = 0, out = base;
            return;
        }
        x = std::clamp(x, 0.0f, float(n - 1));
        int i = std::min(int(x), n - 2);
        frac = x - float(i);
        step = stride;
        out = base + ptrdiff_t(i) * stride;
    }

    const float* d_;
    int nx_, ny_, nz_;
    Vec3f off_;
    ptrdiff_t sy_, sz_;
};

// Velocity anywhere, from the three staggered components.
class VelocitySampler {
public:
    explicit VelocitySampler(const Fields& f) : u_(f.u), v_(f.v), w_(f.w) {}
    Vec3f operator()(Vec3f pGrid) const { return {u_(pGrid), v_(pGrid), w_(pGrid)}; }

private:
    Sampler u_, v_, w_;
};

// Velocity exactly at the sample points of one grid shape (cell centres or
// one kind of face): each component is the mean of the 1, 2 or 4 nearest
// samples, with no interpolation weights to compute. The first RK2 stage.
class PointVelocity {
public:
    PointVelocity(const Fields& f, Vec3f offset) : c_{&f.u, &f.v, &f.w} {
        for (int c = 0; c < 3; ++c)
            for (int a = 0; a < 3; ++a) {
                float d = offset[a] - c_[c]->offset()[a];  // 0, +0.5 or -0.5
                lo_[c][a] = d < 0 ? -1 : 0;
                hi_[c][a] = d > 0 ? 1 : 0;
            }
    }
    [[gnu::always_inline]] Vec3f at(int i, int j, int k) const {
        Vec3f v;
        for (int c = 0; c < 3; ++c) {
            const ScalarGrid& g = *c_[c];
            int i0 = std::clamp(i + lo_[c][0], 0, g.nx() - 1), i1 = std::min(i + hi_[c][0], g.nx() - 1);
            int j0 = std::clamp(j + lo_[c][1], 0, g.ny() - 1), j1 = std::min(j + hi_[c][1], g.ny() - 1);
            int k0 = std::clamp(k + lo_[c][2], 0, g.nz() - 1), k1 = std::min(k + hi_[c][2], g.nz() - 1);
            const ptrdiff_t sy = ptrdiff_t(g.strideY()), sz = ptrdiff_t(g.strideZ());
            const float* p = g.data() + k0 * sz + j0 * sy + i0;
            const ptrdiff_t di = i1 - i0, dj = (j1 - j0) * sy, dk = (k1 - k0) * sz;
            v[c] = 0.125f * (p[0] + p[di] + p[dj] + p[dj + di] + p[dk] + p[dk + di] + p[dk + dj] +
                             p[dk + dj + di]);
        }
        return v;
    }

private:
    const ScalarGrid* c_[3];
    int lo_[3][3], hi_[3][3];
};

// RK2 (midpoint) departure point of the fluid at pGrid whose velocity is v0;
// s = dt / dx (negative traces forward).
inline Vec3f trace(const VelocitySampler& vel, Vec3f pGrid, Vec3f v0, float s) {
    Vec3f mid = pGrid - v0 * (0.5f * s);
    return pGrid - vel(mid) * s;
}

}  // namespace

void Advector::advect(AdvectionScheme scheme, const Fields& velocity,
                      const ScalarGrid* const* src, ScalarGrid* const* dst, int count, float dt,
                      Limiter limiter) {
    const ScalarGrid& g = *src[0];
    const int nx = g.nx(), ny = g.ny(), nz = g.nz();
    const Vec3f off = g.offset();
    const float s = dt / velocity.dx;
    const bool mac = scheme == AdvectionScheme::MacCormack;
    const VelocitySampler vel(velocity);
    const Sampler shape(g);
    const PointVelocity pointVelocity(velocity, off);
    if (mac) {
        departure_.resize(g.size());
        for (int c = 0; c < count; ++c) hat_[c].resize(g.size());
    }

    // Backtrace once per sample point; every field reads the same stencil.
    parallelForSlabs(nz, [&](int k) {
        for (int j = 0; j < ny; ++j) {
            size_t row = g.index(0, j, k);
            for (int i = 0; i < nx; ++i) {
                Vec3f p = trace(vel, {i + off.x, j + off.y, k + off.z}, pointVelocity.at(i, j, k), s);
                Sampler::Stencil st = shape.stencil(p);
                for (int c = 0; c < count; ++c) {
                    float value = shape.at(src[c]->data(), st);
                    if (mac)
                        hat_[c][row + i] = value;
                    else
                        (*dst[c])[row + i] = value;
                }
                if (mac) departure_[row + i] = p;
            }
        }
    });
    if (!mac) return;

    // Trace forward from each point through the forward step to estimate the
    // error and remove half of it; where that leaves the range of the values the
    // backtrace blended, clamp to it or fall back to the semi-Lagrangian value.
    parallelForSlabs(nz, [&](int k) {
        for (int j = 0; j < ny; ++j) {
            size_t row = g.index(0, j, k);
            for (int i = 0; i < nx; ++i) {
                Vec3f p = trace(vel, {i + off.x, j + off.y, k + off.z}, pointVelocity.at(i, j, k), -s);
                Sampler::Stencil forward = shape.stencil(p);
                Sampler::Stencil from = shape.stencil(departure_[row + i]);
                for (int c = 0; c < count; ++c) {
                    float hat = hat_[c][row + i];
                    float back = shape.at(hat_[c].data(), forward);
                    float value = hat + 0.5f * ((*src[c])[row + i] - back);
                    float lo, hi;
                    Sampler::Stencil st = from;
                    st.p = src[c]->data() + (from.p - g.data());
                    Sampler::range(st, lo, hi);
                    (*dst[c])[row + i] = (limiter == Limiter::Revert && (value < lo || value > hi))
                                              ? hat
                                              : std::clamp(value, lo, hi);
                }
            }
        }
    });
}

}  // namespace plume
