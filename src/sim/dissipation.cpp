#include "sim/dissipation.h"

#include <cmath>

#include "core/parallel.h"
#include "sim/smoke_color.h"

namespace plume {

void dissipate(Fields& f, const PhysicsSettings& p, float dt) {
    const float keepDensity = std::exp(-p.densityDissipation * dt);
    const float keepHeat = std::exp(-p.temperatureDissipation * dt);
    const float ambient = p.ambientTemperature;
    // Interpolation spreads every puff by a cell or so a step, so without a
    // floor the faint edge of the smoke would reach the whole domain in
    // values far below anything visible (and slow as denormals): the
    // scalar advection, which skips empty space, would skip none.
    constexpr float kNegligible = 1e-6f;
    parallelForSlabs(f.density.nz(), [&](int k) {
        float* d = &f.density(0, 0, k);
        float* T = &f.temperature(0, 0, k);
        for (size_t n = 0; n < f.density.strideZ(); ++n) {
            const float density = d[n] * keepDensity, heat = (T[n] - ambient) * keepHeat;
            d[n] = std::fabs(density) < kNegligible ? 0.0f : density;
            T[n] = std::fabs(heat) < kNegligible ? ambient : ambient + heat;
        }
        // The colour fades with its smoke, and goes where it does
        // (sim/smoke_color.h).
        if (!f.colored()) return;
        for (ScalarGrid& grid : f.color) {
            float* c = &grid(0, 0, k);
            for (size_t n = 0; n < f.density.strideZ(); ++n) {
                const float color = c[n] * keepDensity;
                c[n] = d[n] == 0.0f || std::fabs(color) < kNegligibleColor ? 0.0f : color;
            }
        }
    });
}

}  // namespace plume
