#include "sim/advection_regions.h"

namespace plume {

namespace {

// For each of `count` fields, the cells where it differs from its background,
// into `regions`.
void activeRegions(const ScalarGrid* const* src, int count, const float* background,
                   Region* regions) {
    for (int c = 0; c < count; ++c) {
        const ScalarGrid& g = *src[c];
        regions[c].ny = g.ny();
        regions[c].spans.resize(size_t(g.ny()) * g.nz());
        regions[c].bounds = cellsOtherThan(g, background[c], regions[c].spans.data());
    }
}

}  // namespace

void grow(const Region& r, int by, Vec3i n, Region& out, Region& alongY) {
    out = r;
    out.bounds = grow(r.bounds, by, n);
    if (r.bounds.empty()) return;
    // Along y, then along z, then widen in x; only the rows of the bounds
    // can be non-empty.
    const Box3i& b = out.bounds;
    alongY = r;
    parallelForSlabs(b.hi.z - b.lo.z, [&](int kk) {
        const int k = b.lo.z + kk;
        for (int j = b.lo.y; j < b.hi.y; ++j) {
            Region::Span s;
            for (int jj = std::max(j - by, 0); jj <= std::min(j + by, n.y - 1); ++jj)
                hull(s, r.at(jj, k));
            alongY.spans[size_t(k) * n.y + j] = s;
        }
    });
    parallelForSlabs(b.hi.z - b.lo.z, [&](int kk) {
        const int k = b.lo.z + kk;
        for (int j = b.lo.y; j < b.hi.y; ++j) {
            Region::Span s;
            for (int z = std::max(k - by, 0); z <= std::min(k + by, n.z - 1); ++z)
                hull(s, alongY.at(j, z));
            if (s.lo < s.hi) s = {std::max(s.lo - by, 0), std::min(s.hi + by, n.x)};
            out.spans[size_t(k) * n.y + j] = s;
        }
    });
}

void fillOutside(ScalarGrid& g, const Region& region, float value) {
    const int nx = g.nx(), ny = g.ny();
    parallelForSlabs(g.nz(), [&](int k) {
        for (int j = 0; j < ny; ++j) {
            float* row = &g(0, j, k);
            const Region::Span s = region.at(j, k);
            if (s.lo >= s.hi) {
                std::fill(row, row + nx, value);
                continue;
            }
            std::fill(row, row + s.lo, value);
            std::fill(row + s.hi, row + nx, value);
        }
    });
}

void AdvectionRegions::find(const ScalarGrid* const* src, int count, const float* background,
                            int reach, bool twoPasses) {
    const Vec3i dims{src[0]->nx(), src[0]->ny(), src[0]->nz()};
    activeRegions(src, count, background, active.data());
    result = first = Box3i{};
    for (int c = 0; c < count; ++c) {
        grow(active[c], reach, dims, results[c], alongY);
        if (twoPasses)
            grow(results[c], reach, dims, firsts[c], alongY);
        else
            firsts[c] = results[c];
        result = unite(result, results[c].bounds);
        first = unite(first, firsts[c].bounds);
    }
}

const Region& AdvectionRegions::tracedCells(int count, Vec3i n) {
    Region& firstOfAll = active[0];  // spent: the regions are grown
    firstOfAll = firsts[0];
    for (int c = 1; c < count; ++c)
        for (size_t r = 0; r < firstOfAll.spans.size(); ++r)
            hull(firstOfAll.spans[r], firsts[c].spans[r]);
    firstOfAll.bounds = first;
    grow(firstOfAll, 1, n, traced, alongY);
    return traced;
}

}  // namespace plume
