#include "sim/field_totals.h"

#include <algorithm>
#include <cmath>

#include "core/parallel.h"

namespace plume {

namespace {

// Sum of a cell-centred grid, slab by slab in a fixed order.
double gridSum(const ScalarGrid& g) {
    if (g.size() == 0) return 0.0;
    return deterministicSum(g.nz(), [&](int k) {
        const float* p = &g(0, 0, k);
        double s = 0.0;
        for (size_t n = 0; n < g.strideZ(); ++n) s += p[n];
        return s;
    });
}

float gridMaxAbs(const ScalarGrid& g) {
    if (g.size() == 0) return 0.0f;
    return deterministicReduce(
        g.nz(), 0.0f,
        [&](int k) {
            const float* p = &g(0, 0, k);
            float m = 0.0f;
            for (size_t n = 0; n < g.strideZ(); ++n) m = std::max(m, std::fabs(p[n]));
            return m;
        },
        maxOf<float>);
}

}  // namespace

FieldTotals fieldTotals(const std::vector<const Fields*>& islands) {
    FieldTotals t;
    for (const Fields* f : islands) {
        const double cellVolume = double(f->dx) * f->dx * f->dx;
        t.smoke += gridSum(f->density) * cellVolume;
        if (f->burns()) t.fuel += gridSum(f->fuel) * cellVolume;
        t.peakSpeed = std::max({t.peakSpeed, gridMaxAbs(f->u), gridMaxAbs(f->v), gridMaxAbs(f->w)});
    }
    return t;
}

}  // namespace plume
