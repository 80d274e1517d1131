#include "sim/field_totals.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/parallel.h"

namespace plume {

namespace {

// Each slab's term of a run of `slabs` slabs of `values` floats each (slabs
// in parallel), added to `total` in slab order with `combine`.
template <typename T, typename Term, typename Combine>
void addSlabs(const float* p, int slabs, size_t values, T& total, Term term, Combine combine) {
    std::vector<T> partial(size_t(std::max(slabs, 0)));
    parallelForSlabs(slabs, [&](int k) { partial[size_t(k)] = term(p + size_t(k) * values, values); });
    for (const T& t : partial) total = combine(total, t);
}

double slabSum(const float* p, size_t values) {
    double s = 0.0;
    for (size_t n = 0; n < values; ++n) s += p[n];
    return s;
}

float slabMaxAbs(const float* p, size_t values) {
    float m = 0.0f;
    for (size_t n = 0; n < values; ++n) m = std::max(m, std::fabs(p[n]));
    return m;
}

}  // namespace

FieldTotals fieldTotals(const FrameFeed& feed) {
    FieldTotals t;
    const Fields& f = feed.frame();
    const double cellVolume = double(f.dx) * f.dx * f.dx;
    const std::vector<Box3i> boxes = feed.boxes();
    for (size_t island = 0; island < boxes.size(); ++island) {
        const Vec3i n = boxes[island].size();
        auto reduce = [&](FeedGrid g, auto total, auto term, auto combine) {
            const size_t values = feedSlabValues(g, n);
            feed.read(island, g, [&](int z0, int z1, const void* run) {
                addSlabs(static_cast<const float*>(run), z1 - z0, values, total, term, combine);
            });
            return total;
        };
        auto sum = [&](FeedGrid g) { return reduce(g, 0.0, slabSum, std::plus<double>()); };
        auto maxAbs = [&](FeedGrid g) { return reduce(g, 0.0f, slabMaxAbs, maxOf<float>); };
        t.smoke += sum(FeedGrid::Density) * cellVolume;
        if (f.burns()) t.fuel += sum(FeedGrid::Fuel) * cellVolume;
        t.peakSpeed = std::max(
            {t.peakSpeed, maxAbs(FeedGrid::U), maxAbs(FeedGrid::V), maxAbs(FeedGrid::W)});
    }
    return t;
}

FieldTotals fieldTotals(const std::vector<const Fields*>& islands) {
    // Grid by grid, as the feed's slabs (a part may lack grids: upres's
    // fine fields hold no velocity).
    FieldTotals t;
    auto sum = [](const ScalarGrid& g) {
        double total = 0.0;
        if (g.size()) addSlabs(g.data(), g.nz(), g.strideZ(), total, slabSum, std::plus<double>());
        return total;
    };
    auto maxAbs = [](const ScalarGrid& g) {
        float most = 0.0f;
        if (g.size()) addSlabs(g.data(), g.nz(), g.strideZ(), most, slabMaxAbs, maxOf<float>);
        return most;
    };
    for (const Fields* f : islands) {
        const double cellVolume = double(f->dx) * f->dx * f->dx;
        t.smoke += sum(f->density) * cellVolume;
        if (f->burns()) t.fuel += sum(f->fuel) * cellVolume;
        t.peakSpeed = std::max({t.peakSpeed, maxAbs(f->u), maxAbs(f->v), maxAbs(f->w)});
    }
    return t;
}

}  // namespace plume
