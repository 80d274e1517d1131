#include "sim/active_box.h"

#include <algorithm>
#include <cmath>

#include "core/parallel.h"

namespace plume {

Box3i scalarActivity(const Fields& f, float ambient) {
    const ScalarGrid* grids[] = {&f.density, &f.temperature, &f.fuel, &f.flame};
    const float background[] = {0.0f, ambient, 0.0f, 0.0f};
    auto slabBox = [&](int k) {
        Box3i box;
        for (int g = 0; g < 4; ++g) {
            if (grids[g]->size() != f.cellCount()) continue;
            for (int j = 0; j < f.n.y; ++j) {
                const float* row = &(*grids[g])(0, j, k);
                int first = 0, last = f.n.x - 1;
                while (first < f.n.x && row[first] == background[g]) ++first;
                if (first == f.n.x) continue;
                while (row[last] == background[g]) --last;
                box = unite(box, Box3i{{first, j, k}, {last + 1, j + 1, k + 1}});
            }
        }
        return box;
    };
    return deterministicReduce(f.n.z, Box3i{}, slabBox,
                               [](const Box3i& a, const Box3i& b) { return unite(a, b); });
}

Box3i cellsOfWorldBox(Vec3f lo, Vec3f hi, float dx, Vec3i cells) {
    Box3i b;
    for (int a = 0; a < 3; ++a) {
        const int l = std::clamp(int(std::floor(lo[a] / dx)) - 1, 0, cells[a]);
        const int h = std::clamp(int(std::ceil(hi[a] / dx)) + 1, 0, cells[a]);
        (a == 0 ? b.lo.x : a == 1 ? b.lo.y : b.lo.z) = l;
        (a == 0 ? b.hi.x : a == 1 ? b.hi.y : b.hi.z) = h;
    }
    return b;
}

Box3i tileAligned(const Box3i& b, int margin, Vec3i cells) {
    if (b.empty()) return b;
    Box3i out;
    for (int a = 0; a < 3; ++a) {
        const int l = std::max((b.lo[a] - margin) / kTileCells * kTileCells, 0);
        const int h = std::min((b.hi[a] + margin + kTileCells - 1) / kTileCells * kTileCells,
                               cells[a]);
        (a == 0 ? out.lo.x : a == 1 ? out.lo.y : out.lo.z) = std::max(l, 0);
        (a == 0 ? out.hi.x : a == 1 ? out.hi.y : out.hi.z) = h;
    }
    return out;
}

std::array<Boundary, 6> boxBoundary(const Box3i& box, Vec3i cells,
                                    const std::array<Boundary, 6>& domain) {
    std::array<Boundary, 6> sides = domain;
    for (int a = 0; a < 3; ++a) {
        if (box.lo[a] > 0) sides[2 * a] = Boundary::Open;
        if (box.hi[a] < cells[a]) sides[2 * a + 1] = Boundary::Open;
    }
    return sides;
}

}  // namespace plume
