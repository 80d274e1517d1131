#include "io/upres_cache.h"

#include <algorithm>

#include "core/parallel.h"

namespace plume {

namespace {

// The cells of `box` (of the domain) of the domain-wide grid `from`.
void copyBox(const ScalarGrid& from, const Box3i& box, ScalarGrid& to) {
    const Vec3i n = box.size();
    to.reshape(n.x, n.y, n.z, Vec3f(0.5f));
    parallelForSlabs(n.z, [&](int k) {
        for (int j = 0; j < n.y; ++j) {
            const float* src = &from(box.lo.x, box.lo.y + j, box.lo.z + k);
            std::copy(src, src + n.x, &to(0, j, k));
        }
    });
}

}  // namespace

void assignFromCache(UpresInput& in, const CacheFrame& c, Vec3f sceneOrigin) {
    // The solver's placement, as its writer recorded it: the velocity's
    // transform is the first island's, the one the inline upres reads.
    in.dx = c.dx;
    in.domainOrigin = c.origin - sceneOrigin;
    in.domainCells = c.n;
    in.box = c.held;
    copyBox(c.density, in.box, in.density);
    copyBox(c.temperature, in.box, in.temperature);
    if (c.burns()) {
        copyBox(c.fuel, in.box, in.fuel);
        copyBox(c.flame, in.box, in.flame);
    } else {
        in.fuel = ScalarGrid();
        in.flame = ScalarGrid();
    }
    for (int a = 0; a < 3; ++a) {
        if (c.colored())
            copyBox(c.color[a], in.box, in.color[a]);
        else
            in.color[a] = ScalarGrid();
    }
    const Vec3i n = in.box.size();
    for (ScalarGrid& g : in.velocity) g.reshape(n.x, n.y, n.z, Vec3f(0.5f));
    parallelForSlabs(n.z, [&](int k) {
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const Vec3f v = c.velocity(in.box.lo.x + i, in.box.lo.y + j, in.box.lo.z + k);
                in.velocity[0](i, j, k) = v.x;
                in.velocity[1](i, j, k) = v.y;
                in.velocity[2](i, j, k) = v.z;
            }
    });
}

}  // namespace plume
