// The Advector's outline: where a call's fields can change, their traces, the
// scratch the passes take, and the passes themselves (advection_passes.h).
#include "sim/advection.h"

#include <cmath>
#include <stdexcept>

#include "sim/advection_centred.h"
#include "sim/advection_passes.h"
#include "sim/advection_regions.h"

namespace plume {

Advector::Advector() : regions_(std::make_unique<AdvectionRegions>()) {}
Advector::~Advector() = default;

void Advector::advect(AdvectionScheme scheme, const ScalarGrid* const* src, ScalarGrid* const* dst,
                      int count, float dt, Limiter limiter, const float* background,
                      unsigned openSides) {
    const ScalarGrid& g = *src[0];
    const Vec3i dims{g.nx(), g.ny(), g.nz()};
    const float s = dt / dx_;
    const bool mac = scheme != AdvectionScheme::SemiLagrangian;  // reflection's is MacCormack
    if (count < 1 || count > kMaxFields)
        throw std::invalid_argument("Advector::advect: 1 to 4 fields per call");
    // In place, the fields go one after another, each keeping its bounds:
    // past the first pass a field is read only at the point being written.
    const bool inPlace = src[0] == dst[0];
    for (int c = 0; c < count; ++c)
        if ((src[c] == dst[c]) != inPlace)
            throw std::invalid_argument("Advector::advect: all fields in place, or none");
    if (!lease_) throw std::logic_error("Advector::advect before setVelocity");

    // Where the fields can change (`result`) and what the first pass must
    // cover for the second to read only what it wrote (`first`): the whole
    // grid, or with a background each field's own regions, row by row, and a
    // point is traced once for every field whose region holds it.
    AdvectionRegions& regions = *regions_;
    Box3i result{{0, 0, 0}, dims};
    Box3i first = result;
    const bool byRegions = background && !exchangeSteps_;
    if (byRegions) {
        // A trace moves at most maxComponent * |s| cells per axis, and a blend
        // reads one cell beyond; one more absorbs rounding.
        const int reach = int(std::ceil(maxComponent_ * std::fabs(s))) + 2;
        regions.find(src, count, background, reach, mac);
        result = regions.result, first = regions.first;
    }

    // The sample points' displacements: traced once per cell, a face taking
    // the mean of the two cells it lies between (so the three velocity
    // components share one trace per cell instead of one each). Cell-centred
    // fields with a background trace only the rows' spans that some field's
    // first pass covers (and a cell beyond).
    if (byRegions && dims == n_) {
        const Region& traced = regions.tracedCells(count, n_);
        traceCells(s, traced.bounds, &traced);
    } else {
        traceCells(s, grow(first, 1, n_));
    }
    const Centred displacement(displacement_, n_, g.offset());
    if (mac || inPlace) takeSteps(inPlace ? 1 : count, g.size());

    SampleLayout layout = g.layout();
    layout.frameZ = frameZ_;
    AdvectionPasses passes(displacement, layout, mac, inPlace, limiter == Limiter::Revert, hat_,
                           rangeLo_, rangeHi_);
    if (background) passes.letStillAirIn(openSides);
    if (exchangeSteps_) passes.exchangeStepsBy(&exchangeSteps_);
    const Region* firsts = byRegions ? regions.firsts.data() : nullptr;
    const Region* results = byRegions ? regions.results.data() : nullptr;
    if (inPlace) {
        for (int c = 0; c < count; ++c)
            passes.run({src + c, dst + c, 1, firsts ? firsts + c : nullptr,
                        results ? results + c : nullptr, firsts ? firsts[c].bounds : first,
                        results ? results[c].bounds : result,
                        background ? background + c : nullptr});
    } else {
        passes.run({src, dst, count, firsts, results, first, result, background});
    }

    // In place, a cell outside a field's result region already holds its
    // background (the region holds every cell that differs, and every cell a
    // trace from one can reach), so only separate outputs need the fill.
    if (byRegions && !inPlace)
        for (int c = 0; c < count; ++c) fillOutside(*dst[c], regions.results[c], background[c]);
}

void Advector::takeSteps(int count, size_t values) {
    if (hatSize_ == 0) {
        // The first MacCormack call through this velocity: every forward step
        // it and the calls after it need (the other two components, which
        // trace nothing new). The traces now hold all the centred velocity
        // gave, so the steps take its bytes when they fit, else the lease's.
        hatSize_ = size_t(stepValues(n_, count));
        rangeSize_ = count == 1 ? hatSize_ : 0;
        const bool reuse = stepBytes(n_, count) <= centredBytes(n_);
        auto* bytes = reinterpret_cast<std::byte*>(centred_);
        auto take = [&](size_t size) -> std::byte* {
            if (!reuse) return lease_->take<std::byte>(size);
            std::byte* p = bytes;
            bytes += ScratchArena::rounded(size);
            return p;
        };
        for (int c = 0; c < count; ++c)
            hat_[c] = reinterpret_cast<float*>(take(hatSize_ * sizeof(float)));
        if (rangeSize_) {
            rangeLo_ = reinterpret_cast<float*>(take(rangeSize_ * 2 * sizeof(float)));
            rangeHi_ = rangeLo_ + rangeSize_;
        }
        centredSpent_ = reuse;
    }
    if (values > hatSize_ || (count == 1 && !rangeLo_) || !hat_[count - 1])
        throw std::logic_error("Advector: a call through this velocity needs other forward steps");
}

}  // namespace plume
