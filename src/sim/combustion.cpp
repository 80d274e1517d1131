#include "sim/combustion.h"

#include <algorithm>
#include <cmath>

#include "core/parallel.h"
#include "sim/smoke_color.h"

namespace plume {

double burn(Fields& f, const PhysicsSettings& p, float dt) {
    if (!f.burns()) return 0.0;
    const float burnt = 1.0f - std::exp(-p.burnRate * dt);  // fraction burnt this substep
    const float fade = std::exp(-p.flameCooling * dt);
    const bool colored = f.colored();
    auto slab = [&](int k) {
        double sum = 0.0;
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                float& fuel = f.fuel(i, j, k);
                float& flame = f.flame(i, j, k);
                float& expansion = f.expansion(i, j, k);
                expansion = 0.0f;
                const float cooled = flame * fade;
                if (fuel <= 0.0f || f.temperature(i, j, k) < p.ignitionTemperature) {
                    flame = cooled;
                    continue;
                }
                const float used = fuel * burnt;
                // The flame shows the fuel that is burning, not how much of it
                // went this substep: the same at any substep length.
                flame = std::max(cooled, std::min(fuel, 1.0f));
                fuel -= used;
                f.temperature(i, j, k) += p.flameHeat * used;
                f.density(i, j, k) += p.flameSmoke * used;
                // The soot is flame_smoke_color (sim/smoke_color.h).
                if (colored)
                    addColor(f, f.density.index(i, j, k), p.flameSmoke * used, p.flameSmokeColor);
                expansion = p.flameExpansion * used / dt;
                sum += double(used);
            }
        return sum;
    };
    return deterministicReduce(f.n.z, 0.0, slab, [](double a, double b) { return a + b; });
}

}  // namespace plume
