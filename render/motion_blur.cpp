#include "render/motion_blur.h"

#include <algorithm>
#include <cmath>

#include "core/parallel.h"

namespace plume {

namespace {

Vec3f velocityAt(const VolumeView& volume, Vec3f pGrid) {
    return {volume.velocity[0]->sample(pGrid), volume.velocity[1]->sample(pGrid),
            volume.velocity[2]->sample(pGrid)};
}

}  // namespace

VolumeView blurAlongVelocity(const VolumeView& volume, float shutterSeconds, ScalarGrid& density,
                             ScalarGrid& temperature) {
    const ScalarGrid& src = *volume.density;
    const int nx = src.nx(), ny = src.ny(), nz = src.nz();
    const bool hot = volume.temperature != nullptr;
    if (density.nx() != nx || density.ny() != ny || density.nz() != nz)
        density = ScalarGrid(nx, ny, nz);
    if (hot && (temperature.nx() != nx || temperature.ny() != ny || temperature.nz() != nz))
        temperature = ScalarGrid(nx, ny, nz);

    // How far the fastest smoke moves over the shutter, in cells: it sets
    // the taps, the same for every cell so the result is one smooth blur.
    const float toCells = shutterSeconds / volume.dx;
    auto slabFastest = [&](int k) {
        float m = 0.0f;
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i)
                if (src(i, j, k) > 0.0f)
                    m = std::max(m, length(velocityAt(volume, Vec3f(i + 0.5f, j + 0.5f, k + 0.5f))));
        return m;
    };
    const float reach = deterministicReduce(nz, 0.0f, slabFastest, maxOf<float>) * toCells;
    const int taps = std::clamp(int(std::ceil(2.0f * reach)) + 1, 1, kMaxBlurTaps);

    parallelForSlabs(nz, [&](int k) {
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const Vec3f p(i + 0.5f, j + 0.5f, k + 0.5f);
                const Vec3f path = velocityAt(volume, p) * toCells;  // cells over the shutter
                float rho = 0.0f, heat = 0.0f;
                for (int t = 0; t < taps; ++t) {
                    const float s = (float(t) + 0.5f) / float(taps) - 0.5f;  // in [-1/2, 1/2]
                    const Vec3f q = p - path * s;
                    rho += src.sample(q);
                    if (hot) heat += volume.temperature->sample(q);
                }
                density(i, j, k) = rho / float(taps);
                if (hot) temperature(i, j, k) = heat / float(taps);
            }
    });
    VolumeView blurred = volume;
    blurred.density = &density;
    blurred.temperature = hot ? &temperature : nullptr;
    return blurred;
}

}  // namespace plume
