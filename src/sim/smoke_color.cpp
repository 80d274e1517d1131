#include "sim/smoke_color.h"

#include <algorithm>
#include <optional>

#include "core/parallel.h"

namespace plume {

void advectColor(Advector& advector, const MacVelocity& velocity, ScratchArena* arena, Fields& f,
                 ScalarGrid& before, float dt, unsigned openSides) {
    std::optional<ScratchArena::Lease> lease;
    if (arena) lease.emplace(*arena);
    advector.setVelocity(velocity, f.dx, lease ? &*lease : nullptr, f.partZ);
    // Semi-Lagrangian, the density with the colour: each is then the same
    // blend of the same eight cells, so their quotient is a density-weighted
    // mean of the colours there.
    ScalarGrid* fields[] = {&before, &f.color[0], &f.color[1], &f.color[2]};
    const float background[] = {0.0f, 0.0f, 0.0f, 0.0f};
    advector.advect(AdvectionScheme::SemiLagrangian, fields, fields, 4, dt,
                    Advector::Limiter::Clamp, background, openSides);
    // That colour, on the density as its own advection left it (at most 1:
    // rounding may not lift a channel above its smoke).
    parallelForSlabs(f.density.nz(), [&](int k) {
        const float* d = &f.density(0, 0, k);
        const float* carried = &before(0, 0, k);
        float* c[3] = {&f.color[0](0, 0, k), &f.color[1](0, 0, k), &f.color[2](0, 0, k)};
        for (size_t n = 0; n < f.density.strideZ(); ++n) {
            const float w = carried[n];
            for (float* channel : c)
                channel[n] = w > 0.0f ? std::min(channel[n] / w, 1.0f) * d[n] : 0.0f;
        }
    });
}

}  // namespace plume
