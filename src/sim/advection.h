// Advection of cell-centred scalars and staggered velocity through the MAC
// velocity field. Positions are in grid units (cells from the domain's min
// corner); velocities in m/s, so a backtrace moves by u * dt / dx cells.
//
// Semi-Lagrangian: an RK2 (midpoint) backtrace, dst(x) = src(x - u dt).
// MacCormack (Selle et al. 2008): a forward and a backward semi-Lagrangian step
// estimate the error and half of it is removed (the reflection scheme's half
// steps are MacCormack's: the Advector takes it for MacCormack). Where the
// result leaves the range of the values the backtrace interpolated from, a
// limiter keeps it inside:
// Clamp (scalars: sharp, and loses the least mass) or Revert to the
// semi-Lagrangian value (velocity: clamped velocities leave voxel-scale noise
// in fast buoyant columns; Mantaflow reverts there too).
//
// The traces read the velocity from cell-centred samples of three floats
// each, so one stencil and one vector blend give all three components: a
// third of the work of blending the three staggered grids, for a trace that
// is smoother by a face-to-centre average. Each cell centre is traced once per
// velocity field and time step; a face departs by the mean displacement of
// the two cells it lies between, so the three velocity components (and the
// scalars, up to kMaxFields in one call) share those traces.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "core/box.h"
#include "core/grid3.h"
#include "core/scratch_arena.h"
#include "core/simd.h"
#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

struct AdvectionRegions;
struct Region;

// Advection passes. Their scratch (the centred velocity, the traces, the
// forward steps and the limiter's bounds) is borrowed from a scratch arena,
// one lease per velocity field: the solver's own arena, which vorticity and
// the pressure solve share, or else one the Advector keeps.
class Advector {
  public:
    enum class Limiter { Clamp, Revert };
    // The most fields one advect() call carries: density, temperature, fuel
    // and flame.
    static constexpr int kMaxFields = 4;

    Advector();
    ~Advector();

    // Samples `velocity` at the cell centres (cells dx metres wide); every
    // advect() until the next call traces through these samples: calls that
    // advect as many fields as the first, on grids no larger, over the
    // cells the first traced (MacCormack's forward steps then take the
    // samples' room; anything else throws std::logic_error). The scratch
    // comes from `lease`, which must stay open until the last advect() through
    // this velocity; without one, from the Advector's own arena.
    // `partZ`: the fields are a process's part of a split box (sim/fields.h),
    // and traces are formed where the whole box's would be.
    void setVelocity(const MacVelocity& velocity, float dx, ScratchArena::Lease* lease = nullptr,
                     int partZ = 0);

    // Advects `count` fields (1 to kMaxFields) sampled on the same points (same
    // shape and offset): dst[n] = advected src[n]. Either every dst is its
    // src (in place: the fields go one after another, each taking the scratch
    // of one field, and no copy of them is needed), or none is (the fields
    // share one stencil per point). Each field gets what advecting it alone
    // would give, bit for bit, and all share one trace per point.
    //
    // With `background` (one value per field, cell-centred fields, Clamp
    // limiter), each field is advected only where it differs from its
    // background, grown by the farthest a trace can reach (row by row: the
    // hull of each x row's span over the rows that near); every other cell
    // gets the background, which is exactly what advecting it would give.
    // `openSides` (bit s for Side s; with a background) are the sides beyond
    // which lies still air holding the background: a trace that departs
    // from beyond one brings it in, where the grid's edge would otherwise
    // repeat (advection_kernels.cpp says why).
    void advect(AdvectionScheme scheme, const ScalarGrid* const* src, ScalarGrid* const* dst,
                int count, float dt, Limiter limiter = Limiter::Clamp,
                const float* background = nullptr, unsigned openSides = 0);

    // Bytes of scratch one lease takes: advecting a velocity component (one
    // field a call, `fields` = 1), `fields` cell-centred scalars in one call,
    // or any fields in place. The centred velocity and the traces; for
    // MacCormack, or in place, a forward step per field at once and, for one,
    // the limiter's bounds, which reuse the centred velocity's bytes when they
    // fit there (see advect()).
    static std::uint64_t scratchBytesFor(Vec3i cells, int fields, AdvectionScheme scheme,
                                         bool inPlace = false) {
        const std::uint64_t traces = centredBytes(cells) + sampleBytes(cells);
        if (scheme == AdvectionScheme::SemiLagrangian && !inPlace) return traces;
        const std::uint64_t steps = stepBytes(cells, inPlace ? 1 : fields);
        return steps <= centredBytes(cells) ? traces : traces + steps;
    }

    // Bytes the Advector keeps for the scalars' regions (advect() with a
    // background): a span of each row per list, three lists a field and two
    // more.
    static std::uint64_t regionBytesFor(Vec3i cells, int fields) {
        return std::uint64_t(3 * fields + 2) * std::uint64_t(cells.y) * cells.z * 2 * sizeof(int);
    }

    // A split solve's exchange of the halo of a forward step laid out as
    // `field` (sim/solver_split.cpp), run between MacCormack's passes: the
    // backward pass reads the forward step a trace away, so the halo holds
    // one trace, not two. With it set, advect() works every cell of a call,
    // not only where the fields differ from their backgrounds: where they do
    // near a cut would need the neighbour's cells.
    using StepExchange = std::function<void(const ScalarGrid& field, float* step)>;
    void exchangeStepsBy(StepExchange exchange) { exchangeSteps_ = std::move(exchange); }

    // One field through `velocity`: a convenience for tests.
    void advect(AdvectionScheme scheme, const Fields& velocity, const ScalarGrid& src,
                ScalarGrid& dst, float dt, Limiter limiter = Limiter::Clamp) {
        setVelocity(velocity, velocity.dx);
        const ScalarGrid* s[] = {&src};
        ScalarGrid* d[] = {&dst};
        advect(scheme, s, d, 1, dt, limiter);
    }

  private:
    // Three floats a cell (the centred velocity, or the displacement), and
    // one more: a four-wide read of the last cell's sample.
    static std::uint64_t sampleBytes(Vec3i n) {
        return ScratchArena::rounded((3 * std::uint64_t(n.x) * n.y * n.z + 1) * sizeof(float));
    }
    // The centred velocity's room, which one field's forward step and bounds
    // take once the traces are made (a face grid's values are a little more
    // than the cells').
    static std::uint64_t centredBytes(Vec3i n) { return std::max(sampleBytes(n), stepBytes(n, 1)); }
    // Values per forward step: a face grid's for the velocity (the largest of
    // the three), a cell grid's for scalars.
    static std::uint64_t stepValues(Vec3i n, int fields) {
        const std::uint64_t c = std::uint64_t(n.x) * n.y * n.z;
        if (fields > 1) return c;
        return c + std::uint64_t(std::max({n.y * n.z, n.x * n.z, n.x * n.y}));
    }
    // Bytes of the forward steps and (one field) the limiter's bounds.
    static std::uint64_t stepBytes(Vec3i n, int fields) {
        const std::uint64_t v = stepValues(n, fields);
        return std::uint64_t(fields) * ScratchArena::rounded(v * sizeof(float)) +
               (fields == 1 ? ScratchArena::rounded(v * 2 * sizeof(float)) : 0);
    }
    // RK2 backtrace displacement of each cell centre in `displacementBox_`,
    // for s = dt / dx = displacementS_ (grid units; departure = x - d): the
    // cells of `cells`, or only its rows' spans in `rows` (then the cache
    // holds no box).
    void traceCells(float s, const Box3i& cells, const Region* rows = nullptr);
    // Points hat_ (and rangeLo_, rangeHi_ for one field) at room for `count` fields of
    // up to `values` samples, on the first call through a velocity.
    void takeSteps(int count, size_t values);

    Vec3i n_;  // cells per axis
    float dx_ = 1.0f;
    float frameZ_ = 0.0f;        // setVelocity's partZ
    float maxComponent_ = 0.0f;  // largest |component| of any centred sample, m/s
    // Borrowed from the lease of the last setVelocity():
    ScratchArena::Lease* lease_ = nullptr;
    float* centred_ = nullptr;       // (u, v, w) at each cell centre, x y z x y z ...
    bool centredSpent_ = false;      // its bytes now hold the forward steps
    float* displacement_ = nullptr;  // likewise
    Box3i displacementBox_;
    float displacementS_ = 0.0f;
    float* hat_[kMaxFields] = {};  // forward semi-Lagrangian steps, `hatSize_` values each
    size_t hatSize_ = 0;
    // What a one-field step blended from, the limiter's bounds: `rangeSize_`
    // lows, then as many highs, in one block.
    float* rangeLo_ = nullptr;
    float* rangeHi_ = nullptr;
    size_t rangeSize_ = 0;
    std::unique_ptr<AdvectionRegions> regions_;  // the scalars' span lists, kept
    StepExchange exchangeSteps_;
    // Without a lease from the caller: the Advector's own arena and lease.
    std::unique_ptr<ScratchArena> ownArena_;
    std::optional<ScratchArena::Lease> ownLease_;
};

}  // namespace plume
