// UpresInput (sim/upres/upres.h): a frame's base scalars and cell-centred
// velocity gathered from the solver's parts.
#include "core/parallel.h"
#include "sim/upres/upres.h"

namespace plume {

UpresInput UpresInput::fromParts(const std::vector<const Fields*>& parts) {
    UpresInput in;
    in.assign(parts);
    return in;
}

void UpresInput::assign(const std::vector<const Fields*>& parts) {
    UpresInput& in = *this;
    const Fields& first = *parts.front();
    in.dx = first.dx;
    in.domainOrigin = first.domainOrigin();
    in.domainCells = first.domainSize();
    in.box = Box3i{};
    for (const Fields* p : parts) in.box = unite(in.box, p->box());
    const Vec3i n = in.box.size();
    // In the room the grids have (no new pages frame after frame); 0 between parts.
    auto grid = [&](ScalarGrid& g) {
        g.reshape(n.x, n.y, n.z, Vec3f(0.5f));
        if (parts.size() > 1) g.fill(0.0f);
    };
    grid(in.density);
    grid(in.temperature);
    if (first.burns()) {
        grid(in.fuel);
        grid(in.flame);
    }
    if (first.colored())
        for (ScalarGrid& c : in.color) grid(c);
    for (ScalarGrid& c : in.velocity) grid(c);
    for (const Fields* p : parts) {
        const Fields& f = *p;
        const Vec3i o{f.offset.x - in.box.lo.x, f.offset.y - in.box.lo.y, f.offset.z - in.box.lo.z};
        parallelForSlabs(f.n.z, [&](int k) {
            for (int j = 0; j < f.n.y; ++j)
                for (int i = 0; i < f.n.x; ++i) {
                    const int I = o.x + i, J = o.y + j, K = o.z + k;
                    in.density(I, J, K) = f.density(i, j, k);
                    in.temperature(I, J, K) = f.temperature(i, j, k);
                    if (in.burns()) {
                        in.fuel(I, J, K) = f.fuel(i, j, k);
                        in.flame(I, J, K) = f.flame(i, j, k);
                    }
                    if (in.colored() && f.colored())
                        for (int c = 0; c < 3; ++c) in.color[c](I, J, K) = f.color[c](i, j, k);
                    const Vec3f v = f.centredVelocity(i, j, k);
                    in.velocity[0](I, J, K) = v.x;
                    in.velocity[1](I, J, K) = v.y;
                    in.velocity[2](I, J, K) = v.z;
                }
        });
    }
}

}  // namespace plume
