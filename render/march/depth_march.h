// The depth pass's march (render.passes "depth"): how far along a camera ray
// its transmittance falls to one half, as Cycles' volume depth. It takes the
// samples RayMarcher::marchSteps takes (the same intervals, jitter, split of
// dense and flaming intervals), reads only density, and stops at the half:
// a march of its own, so the beauty's march carries nothing for it.
#pragma once

#include <algorithm>
#include <cmath>

#include "render/march/ray_marcher.h"

namespace plume {

// Marches `ray` over [t0, t1] (grid units) through what `m` marches, from
// transmittance `t`. Returns the distance (grid units along the ray) where the
// transmittance falls to 1/2, inside a part of constant density where the
// exponential crosses it; or -1, with `t` the transmittance left at t1.
template <typename Lookup>
float halfDepth(const RayMarcher<Lookup>& m, const Ray& ray, float t0, float t1, float jitter,
                float& t) {
    using Weights = typename Lookup::Weights;
    const float* data = m.shading.data();
    const float step = m.settings.step;
    // One part [start, start + ds] of density rho: where it crosses the half.
    auto part = [&](float start, float ds, float rho) {
        const float sigma = rho * m.sigmaPerVoxel;  // per grid unit
        const float after = t * std::exp(-sigma * ds);
        if (after > 0.5f) {
            t = after;
            return -1.0f;
        }
        const float into = std::log(t / 0.5f) / sigma;
        t = 0.5f;
        return start + std::clamp(into, 0.0f, ds);
    };
    for (int k = 0;;) {
        const float tk = t0 + float(k) * step;
        if (tk >= t1) break;
        const float at = std::min(tk + jitter * step, t1);
        const Vec3f p = ray.at(at);
        const Vec3i block = m.emptySpace.blockAt(p);
        if (m.emptySpace.empty(block)) {
            k = std::max(k + 1, int((m.emptySpace.exit(ray, block, t1) - t0) / step));
            continue;
        }
        const float ds = std::min(step, t1 - tk);
        ++k;
        // The interval's parts, as RayMarcher::integrateInterval splits it.
        Weights w0;
        if (!Lookup::at(m.shading, m.emptySpace, p, w0)) continue;
        const float rho0 = w0.density(data);
        if (rho0 <= kEmptyDensity) continue;
        const float depth = rho0 * m.sigmaPerVoxel * ds;
        int parts = depth > kMaxStepDepth
                        ? std::min(kMaxSubsamples, int(std::ceil(depth / kMaxStepDepth)))
                        : 1;
        if (m.flameChannel >= 0 && w0(data + m.flameChannel) > kFlameSplitAbove)
            parts = std::max(parts, kFlameSubsamples);
        if (parts == 1) {
            if (const float half = part(tk, ds, rho0); half >= 0.0f) return half;
            continue;
        }
        const float dsPart = ds / float(parts);
        for (int n = 0; n < parts; ++n) {
            const Vec3f pp = ray.at(tk + (float(n) + jitter) * dsPart);
            Weights w;
            if (!Lookup::at(m.shading, m.emptySpace, pp, w)) continue;
            const float rho = w.density(data);
            if (rho <= kEmptyDensity) continue;
            if (const float half = part(tk + float(n) * dsPart, dsPart, rho); half >= 0.0f)
                return half;
        }
    }
    return -1.0f;
}

}  // namespace plume
