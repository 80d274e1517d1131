#include "render/march/motion_blur.h"

#include <algorithm>
#include <cmath>

#include "core/parallel.h"

namespace plume {

namespace {

Vec3f velocityAt(const VolumeView& volume, Vec3f pGrid) {
    return {volume.velocity[0]->sample(pGrid), volume.velocity[1]->sample(pGrid),
            volume.velocity[2]->sample(pGrid)};
}

// Trilinear sample of a cell-centred grid that is zero outside it: smoke
// blurred past the grid's edge fades out rather than repeating its edge.
// With `times`, of the product g * times at each cell (a colour and its
// density: premultiplied colour).
float sampleOrZero(const ScalarGrid& g, Vec3f p, const ScalarGrid* times = nullptr) {
    const float fx = p.x - 0.5f, fy = p.y - 0.5f, fz = p.z - 0.5f;
    const int i0 = int(std::floor(fx)), j0 = int(std::floor(fy)), k0 = int(std::floor(fz));
    const float tx = fx - float(i0), ty = fy - float(j0), tz = fz - float(k0);
    float sum = 0.0f;
    for (int c = 0; c < 8; ++c) {
        const int i = i0 + (c & 1), j = j0 + ((c >> 1) & 1), k = k0 + ((c >> 2) & 1);
        if (i < 0 || j < 0 || k < 0 || i >= g.nx() || j >= g.ny() || k >= g.nz()) continue;
        const float w = (c & 1 ? tx : 1.0f - tx) * ((c >> 1) & 1 ? ty : 1.0f - ty) *
                        ((c >> 2) & 1 ? tz : 1.0f - tz);
        sum += w * (times ? g(i, j, k) * (*times)(i, j, k) : g(i, j, k));
    }
    return sum;
}

}  // namespace

VolumeView blurAlongVelocity(const VolumeView& volume, float shutterSeconds, ScalarGrid& density,
                             ScalarGrid& temperature, ScalarGrid& flame, ScalarGrid* color) {
    const ScalarGrid& src = *volume.density;
    const bool hot = volume.temperature != nullptr;
    const bool burning = volume.flame != nullptr;
    const bool colored = color && volume.color[0] && volume.color[1] && volume.color[2];
    // A colour that is not premultiplied is blurred as its product with density.
    const ScalarGrid* colorTimes = volume.colorPremultiplied ? nullptr : volume.density;

    // How far the fastest smoke moves over the shutter, in cells: it sets
    // the taps, the same for every cell so the result is one smooth blur,
    // and the margin the blurred smoke may reach past the grid.
    const float toCells = shutterSeconds / volume.dx;
    auto slabFastest = [&](int k) {
        float m = 0.0f;
        for (int j = 0; j < src.ny(); ++j)
            for (int i = 0; i < src.nx(); ++i)
                if (src(i, j, k) > 0.0f)
                    m = std::max(m,
                                 length(velocityAt(volume, Vec3f(i + 0.5f, j + 0.5f, k + 0.5f))));
        return m;
    };
    const float reach = deterministicReduce(src.nz(), 0.0f, slabFastest, maxOf<float>) * toCells;
    const int taps = std::clamp(int(std::ceil(2.0f * reach)) + 1, 1, kMaxBlurTaps);
    const int pad = int(std::ceil(0.5f * reach)) + (reach > 0.0f ? 1 : 0);

    const int nx = src.nx() + 2 * pad, ny = src.ny() + 2 * pad, nz = src.nz() + 2 * pad;
    if (density.nx() != nx || density.ny() != ny || density.nz() != nz)
        density = ScalarGrid(nx, ny, nz);
    if (hot && (temperature.nx() != nx || temperature.ny() != ny || temperature.nz() != nz))
        temperature = ScalarGrid(nx, ny, nz);
    if (burning && (flame.nx() != nx || flame.ny() != ny || flame.nz() != nz))
        flame = ScalarGrid(nx, ny, nz);
    if (colored)
        for (int a = 0; a < 3; ++a)
            if (color[a].nx() != nx || color[a].ny() != ny || color[a].nz() != nz)
                color[a] = ScalarGrid(nx, ny, nz);

    parallelForSlabs(nz, [&](int k) {
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                // Where this cell's centre is in the source grid's cells.
                const Vec3f p(float(i - pad) + 0.5f, float(j - pad) + 0.5f, float(k - pad) + 0.5f);
                const Vec3f path = velocityAt(volume, p) * toCells;  // cells over the shutter
                float rho = 0.0f, heat = 0.0f, glow = 0.0f, tint[3] = {0.0f, 0.0f, 0.0f};
                for (int t = 0; t < taps; ++t) {
                    const float s = (float(t) + 0.5f) / float(taps) - 0.5f;  // in [-1/2, 1/2]
                    const Vec3f q = p - path * s;
                    rho += sampleOrZero(src, q);
                    if (hot) heat += sampleOrZero(*volume.temperature, q);
                    if (burning) glow += sampleOrZero(*volume.flame, q);
                    if (colored)
                        for (int a = 0; a < 3; ++a)
                            tint[a] += sampleOrZero(*volume.color[a], q, colorTimes);
                }
                density(i, j, k) = rho / float(taps);
                if (hot) temperature(i, j, k) = heat / float(taps);
                if (burning) flame(i, j, k) = glow / float(taps);
                if (colored)
                    for (int a = 0; a < 3; ++a) color[a](i, j, k) = tint[a] / float(taps);
            }
    });
    VolumeView blurred = volume;
    blurred.density = &density;
    blurred.temperature = hot ? &temperature : nullptr;
    blurred.flame = burning ? &flame : nullptr;
    blurred.color = {};
    if (colored) {
        blurred.color = {&color[0], &color[1], &color[2]};
        blurred.colorPremultiplied = true;
    }
    blurred.origin = volume.origin - Vec3f(float(pad)) * volume.dx;
    // The velocity stays on the source's cells: nothing reads it after this.
    blurred.velocity = {};
    return blurred;
}

}  // namespace plume
