#include "sim/advection_kernels.h"

#include <algorithm>
#include <type_traits>

#include "core/simd_dispatch.h"

namespace plume {

namespace {

using simd::F4;
using simd::F8;

// ---- traces -----------------------------------------------------------------

// RK2 (midpoint) departure point of the fluid at pGrid whose velocity is v0;
// s = dt / dx.
[[gnu::always_inline]] inline Vec3f trace(const Centred& vel, Vec3f pGrid, Vec3f v0, float s) {
    Vec3f mid = pGrid - v0 * (0.5f * s);
    return pGrid - vel(mid) * s;
}

// Backtrace displacement of cell (i, j, k) into the row's sample i, out + 3 i.
[[gnu::always_inline]] inline void traceCell(const Centred& vel, float s, int i, int j, int k,
                                             float* out) {
    const Vec3f pGrid{i + 0.5f, j + 0.5f, (float(k) + vel.layout().frameZ) + 0.5f};
    const Vec3f d = pGrid - trace(vel, pGrid, vel.at(i, j, k), s);
    store3(out + 3 * i, F4{d.x, d.y, d.z, 0.0f});
}

// Lane l holds i + l + offset: the x of points i.. of a row. (Small integers,
// so exact.)
template <typename V>
[[gnu::always_inline]] inline V rowX(int i, float offset) {
    V lane;
    for (int l = 0; l < simd::kLanes<V>; ++l) lane[l] = float(l);
    return simd::broadcast<V>(float(i)) + lane + offset;
}

// The same for cells i.. of the row while a whole vector of them fits before
// i1, the midpoints' stencils four or eight at a time (then each cell's
// blend of the four-float samples); returns the first cell left.
template <typename V>
[[gnu::always_inline]] inline int traceCellsN(const Centred& vel, float s, int i, int i1, int j,
                                              int k, float* out) {
    constexpr int kN = simd::kLanes<V>;
    const float h = 0.5f * s;
    for (; i + kN <= i1; i += kN) {
        V vx, vy, vz;
        vel.atN(i, j, k, vx, vy, vz);
        const V px = rowX<V>(i, 0.5f);
        const float py = j + 0.5f, pz = (float(k) + vel.layout().frameZ) + 0.5f;
        const StencilN<V> st = stencilN(vel.layout(), px - vx * h, py - vy * h, pz - vz * h);
        for (int l = 0; l < kN; ++l) {
            const Stencil one{st.at[l], st.dx, st.dy, st.dz, st.fx[l], st.fy[l], st.fz[l]};
            const F4 p{px[l], py, pz, 0.0f};
            store3(out + 3 * (i + l), p - (p - blend3(vel.samples(), one) * s));
        }
    }
    return i;
}

struct TraceRow {
    template <typename V>
    [[gnu::always_inline]] static void run(const Centred& vel, float s, int i0, int i1, int j,
                                           int k, float* out) {
        int i = traceCellsN<V>(vel, s, i0, i1, j, k, out);
        if constexpr (simd::kLanes<V> == 8) i = traceCellsN<F4>(vel, s, i, i1, j, k, out);
        for (; i < i1; ++i) traceCell(vel, s, i, j, k, out);
    }
};

// ---- the passes, at one point or a vector of them -----------------------------
// T is float (one point) or a vector (one point a lane): one body each, in the
// order of the one-point arithmetic, so every lane gets the one-point bits.

template <typename T>
inline constexpr bool kOnePoint = std::is_same_v<T, float>;
template <typename T>
using StencilOf = std::conditional_t<kOnePoint<T>, Stencil, StencilN<T>>;

template <typename T>
[[gnu::always_inline]] inline T load(const float* p) {
    if constexpr (kOnePoint<T>)
        return *p;
    else
        return simd::loadN<T>(p);
}
template <typename T>
[[gnu::always_inline]] inline void store(float* p, T v) {
    if constexpr (kOnePoint<T>)
        *p = v;
    else
        simd::storeN(p, v);
}

// A blend of `base` at a stencil, and the range of the values it read when lo
// is given.
template <typename T>
[[gnu::always_inline]] inline T blendAt(const float* base, const StencilOf<T>& st, T* lo = nullptr,
                                        T* hi = nullptr) {
    if constexpr (kOnePoint<T>)
        return lo ? blendWithRange(base, st, *lo, *hi) : blend(base, st);
    else
        return blendN<T>(base, st, lo, hi);
}

// Points i.. of row (j, k) moved back (sign -1) or forward (+1) by their
// displacement, in grid units; the sign flip is exact, and so are the lane
// positions (small integers).
template <typename T>
struct Moved {
    T x, y, z;
};
template <typename T>
[[gnu::always_inline]] inline Moved<T> movedPoints(const PassFields& f, int i, int j, int k,
                                                   float sign) {
    const Vec3f off = f.shape.offset;
    if constexpr (kOnePoint<T>) {
        const Vec3f p = Vec3f{i + off.x, j + off.y, (float(k) + f.shape.frameZ) + off.z} +
                        f.displacement->at(i, j, k) * sign;
        return {p.x, p.y, p.z};
    } else {
        T dx, dy, dz;
        f.displacement->atN(i, j, k, dx, dy, dz);
        return {rowX<T>(i, off.x) + dx * sign, simd::broadcast<T>(j + off.y) + dy * sign,
                simd::broadcast<T>((float(k) + f.shape.frameZ) + off.z) + dz * sign};
    }
}

template <typename T>
[[gnu::always_inline]] inline StencilOf<T> stencilAt(const PassFields& f, const Moved<T>& p) {
    if constexpr (kOnePoint<T>)
        return f.shape.stencil(Vec3f{p.x, p.y, p.z});
    else
        return stencilN(f.shape, p.x, p.y, p.z);
}

template <typename T>
[[gnu::always_inline]] inline StencilOf<T> moved(const PassFields& f, int i, int j, int k,
                                                 float sign) {
    return stencilAt<T>(f, movedPoints<T>(f, i, j, k, sign));
}

// ---- still air beyond the open sides ----------------------------------------------
// A blend clamps its stencil to the grid: past the last sample it repeats the
// edge's values. Through an open side that is wrong where the air flows in:
// it brings the still air's background, not the edge's smoke back. Left to
// the clamp, smoke that reached an open ceiling came back in wherever the
// head's vortex ring drew air down through it, and its heat lifted it again:
// bench.toml at 128^3 held 14% of its smoke in a disc in the top five rows,
// five times the width of the column (Mantaflow, whose outflow cells it
// empties each step, 5%).

// How much of a point's blend is the grid's (1) rather than the still air
// beyond an open side (0): the trilinear weight of the samples inside, with
// a sample of background past the last one on each open side.
template <typename T>
[[gnu::always_inline]] inline T insideWeight(const PassFields& f, const Moved<T>& p) {
    const SampleLayout& g = f.shape;
    T weight = T{} + 1.0f;
    auto axis = [&](T q, int samples, int lowSide) {
        const T below = -q, above = q - float(samples - 1);
        if (f.openSides >> lowSide & 1) {
            const T over = below < 1.0f ? below : T{} + 1.0f;
            weight = below > 0.0f ? weight * (1.0f - over) : weight;
        }
        if (f.openSides >> (lowSide + 1) & 1) {
            const T over = above < 1.0f ? above : T{} + 1.0f;
            weight = above > 0.0f ? weight * (1.0f - over) : weight;
        }
    };
    axis(p.x - g.offset.x, g.nx, kXMin);
    axis(p.y - g.offset.y, g.ny, kYMin);
    axis((p.z - g.offset.z) - g.frameZ, g.nz, kZMin);
    return weight;
}

// A blend with the still air beyond the open sides mixed in by `inside`; the
// blend itself, to the bit, where the point reads the grid alone.
template <typename T>
[[gnu::always_inline]] inline T withStillAir(T blended, T inside, float background) {
    return inside < 1.0f ? background + (blended - background) * inside : blended;
}

// MacCormack's correction: the semi-Lagrangian `step` less half the error
// that stepping forward from it shows (it came back to `there`, not `src`).
template <typename T>
[[gnu::always_inline]] inline T corrected(T step, T src, T there) {
    return step + 0.5f * (src - there);
}

// The limiter: `value` kept inside the range [lo, hi] of the values the
// backtrace blended, by clamping it there (as std::clamp picks) or, with
// `revert`, falling back to the semi-Lagrangian step.
template <typename T>
[[gnu::always_inline]] inline T limited(T value, T step, T lo, T hi, bool revert) {
    const T clamped = value < lo ? lo : (hi < value ? hi : value);
    return revert ? ((value < lo) | (hi < value) ? step : clamped) : clamped;
}

// The passes at points i.. of row (j, k) (`row` its first value) for the
// fields in `fields` (bit c for field c). kBounds: one field, whose limiter
// bounds the first pass keeps for the second (PassFields::lo).

// The first pass: each field's source through the same backtrace stencils.
struct SemiLagrangian {
    template <typename T, bool kBounds>
    [[gnu::always_inline]] static void at(const PassFields& f, unsigned fields, int i, int j, int k,
                                          size_t row) {
        const Moved<T> from = movedPoints<T>(f, i, j, k, -1.0f);
        const StencilOf<T> st = stencilAt<T>(f, from);
        const T inside = f.openSides ? insideWeight<T>(f, from) : T{} + 1.0f;
        if constexpr (kBounds) {
            T lo, hi;
            const T value = blendAt<T>(f.src[0], st, &lo, &hi);
            store<T>(f.step[0] + row + i, withStillAir(value, inside, f.background[0]));
            store<T>(f.lo + row + i, lo);
            store<T>(f.hi + row + i, hi);
        } else {
            for (int c = 0; c < f.count; ++c)
                if (fields >> c & 1)
                    store<T>(f.step[c] + row + i,
                             withStillAir(blendAt<T>(f.src[c], st), inside, f.background[c]));
        }
    }
};

// The second pass: step forward from each point through the semi-Lagrangian
// step to estimate the error and remove half of it, then limit. The forward
// step mirrors the backtrace (x + displacement) instead of tracing again: the
// same reversal to first order in the velocity gradient, exact for a uniform
// flow, for a third of the pass's work.
//
// Where the backward or the forward point reads still air beyond an open side,
// the step stands, uncorrected: the correction would weigh the still air
// against the grid's edge (Mantaflow reverts where either point leaves its
// grid, for the same reason).
struct Correct {
    template <typename T, bool kBounds>
    [[gnu::always_inline]] static void at(const PassFields& f, unsigned fields, int i, int j, int k,
                                          size_t row) {
        const Moved<T> ahead = movedPoints<T>(f, i, j, k, 1.0f);
        const StencilOf<T> forward = stencilAt<T>(f, ahead);
        T air = T{};  // > 0 where a point reads still air
        if (f.openSides) {
            air = 1.0f - insideWeight<T>(f, ahead);
            air = air + (1.0f - insideWeight<T>(f, movedPoints<T>(f, i, j, k, -1.0f)));
        }
        if constexpr (kBounds) {
            field<T>(f, 0, row + i, forward, load<T>(f.lo + row + i), load<T>(f.hi + row + i), air);
        } else {
            const StencilOf<T> back = moved<T>(f, i, j, k, -1.0f);
            for (int c = 0; c < f.count; ++c) {
                if (!(fields >> c & 1)) continue;
                T lo, hi;
                blendAt<T>(f.src[c], back, &lo, &hi);
                field<T>(f, c, row + i, forward, lo, hi, air);
            }
        }
    }
    // A member, not a lambda: an attribute after a lambda's parameters
    // belongs to its type, so GCC may build the lambda out of line for the
    // default target and hand it eight-wide vectors under another ABI (the
    // ASan build did: garbage in every lane).
    template <typename T>
    [[gnu::always_inline]] static void field(const PassFields& f, int c, size_t at,
                                             const StencilOf<T>& forward, T lo, T hi, T air) {
        const T step = load<T>(f.step[c] + at);
        const T value = corrected(step, load<T>(f.src[c] + at), blendAt<T>(f.step[c], forward));
        const T kept = limited(value, step, lo, hi, f.revert);
        store<T>(f.dst[c] + at, air > 0.0f ? step : kept);
    }
};

// ---- a pass along a row ---------------------------------------------------------

// The end of the run of points from i that the same fields cover: the first
// end of a field's part past i (the row's span ends there at the latest).
[[gnu::always_inline]] inline int runEnd(const RowParts& part, int count, int i) {
    int end = part.spanHi;
    for (int c = 0; c < count; ++c) {
        if (part.lo[c] >= part.hi[c]) continue;
        if (part.lo[c] > i) end = std::min(end, part.lo[c]);
        if (part.hi[c] > i) end = std::min(end, part.hi[c]);
    }
    return end;
}

// The fields whose part holds point i (bit c for field c).
[[gnu::always_inline]] inline unsigned fieldsAt(const RowParts& part, int count, int i) {
    unsigned set = 0;
    for (int c = 0; c < count; ++c)
        if (part.lo[c] <= i && i < part.hi[c]) set |= 1u << c;
    return set;
}

// Pass::at over each field's part of row (j, k): run by run of points that
// the same fields cover, the widest blocks that fit (V's lanes, then four),
// then one point at a time.
template <typename Pass>
struct PassRow {
    template <typename V>
    [[gnu::always_inline]] static void run(const PassFields& f, const RowParts& part, int j,
                                           int k) {
        if (f.lo)
            runs<V, true>(f, part, j, k);
        else
            runs<V, false>(f, part, j, k);
    }
    template <typename V, bool kBounds>
    [[gnu::always_inline]] static void runs(const PassFields& f, const RowParts& part, int j,
                                            int k) {
        const size_t row = f.rowStart(j, k);
        for (int i = part.spanLo; i < part.spanHi;) {
            const int end = runEnd(part, f.count, i);
            const unsigned fields = fieldsAt(part, f.count, i);
            if (!fields) {  // a gap between the fields' parts: nothing to write
                i = end;
                continue;
            }
            if constexpr (simd::kLanes<V> == 8)
                for (; i + 8 <= end; i += 8)
                    Pass::template at<F8, kBounds>(f, fields, i, j, k, row);
            for (; i + 4 <= end; i += 4) Pass::template at<F4, kBounds>(f, fields, i, j, k, row);
            for (; i < end; ++i) Pass::template at<float, kBounds>(f, fields, i, j, k, row);
        }
    }
};

}  // namespace

void traceRow(const Centred& vel, float s, int i0, int i1, int j, int k, float* out) {
    simd::dispatch<TraceRow>(vel, s, i0, i1, j, k, out);
}

void semiLagrangianRow(const PassFields& f, const RowParts& part, int j, int k) {
    simd::dispatch<PassRow<SemiLagrangian>>(f, part, j, k);
}

void correctRow(const PassFields& f, const RowParts& part, int j, int k) {
    simd::dispatch<PassRow<Correct>>(f, part, j, k);
}

}  // namespace plume
