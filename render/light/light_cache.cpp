#include "render/light/light_cache.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/parallel.h"
#include "render/light/in_scattering.h"
#include "render/march/hash.h"
#include "render/path/path_random.h"
#include "render/path/scattering.h"

namespace plume {

namespace {

// Bounces before Russian roulette may end a cache path, and the most it takes.
constexpr int kCacheRouletteFrom = 3;
constexpr int kCacheMaxBounces = 256;

float cacheLuminance(Vec3f c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }

}  // namespace

void LightCache::fill(const ShadingGrid& grid, const Box3i& box, const Medium& medium,
                      const Lights& lights, float resolution, int pathsPerCell) {
    const Vec3i fine = grid.n();
    n_ = {std::max(1, int(std::ceil(float(fine.x) * resolution))),
          std::max(1, int(std::ceil(float(fine.y) * resolution))),
          std::max(1, int(std::ceil(float(fine.z) * resolution)))};
    scale_ = Vec3f(float(fine.x) / float(n_.x), float(fine.y) / float(n_.y),
                   float(fine.z) / float(n_.z));
    layers_ = 1 + int(lights.directional.size() + lights.pointGrid.size());
    g_ = lights.phase;
    data_.assign(size_t(n_.x) * n_.y * n_.z * size_t(layers_) * kFloats, 0.0f);
    if (box.empty() || medium.empty()) return;

    // The cache cells over the box, one more around: a read at a density
    // cell blends the cache cells on either side.
    auto toCache = [&](int v, int a) { return int(std::floor(float(v) / scale_[a])); };
    const Box3i cells{{std::max(0, toCache(box.lo.x, 0) - 1), std::max(0, toCache(box.lo.y, 1) - 1),
                       std::max(0, toCache(box.lo.z, 2) - 1)},
                      {std::min(n_.x, toCache(box.hi.x - 1, 0) + 2),
                       std::min(n_.y, toCache(box.hi.y - 1, 1) + 2),
                       std::min(n_.z, toCache(box.hi.z - 1, 2) + 2)}};
    const int suns = int(lights.directional.size());
    const int sky = kSkyChannel, firstLight = kFirstLightChannel;
    const float* data = grid.data();
    const float g = lights.phase;

    const int strataSide = std::max(1, int(std::sqrt(float(pathsPerCell))));
    parallelForRange(cells.hi.z - cells.lo.z, [&](int k0, int k1) {
        std::vector<float> sum(size_t(layers_) * kFloats);
        std::vector<float> shape(static_cast<size_t>(layers_));
        for (int k = cells.lo.z + k0; k < cells.lo.z + k1; ++k)
            for (int j = cells.lo.y; j < cells.hi.y; ++j)
                for (int i = cells.lo.x; i < cells.hi.x; ++i) {
                    // Nothing to scatter near a cell in clear air.
                    const Vec3f centre((float(i) + 0.5f) * scale_.x, (float(j) + 0.5f) * scale_.y,
                                       (float(k) + 0.5f) * scale_.z);
                    if (!medium.near(centre, 1.5f * std::max({scale_.x, scale_.y, scale_.z})))
                        continue;
                    std::fill(sum.begin(), sum.end(), 0.0f);
                    std::fill(shape.begin(), shape.end(), 0.0f);
                    const uint32_t cellId = uint32_t((size_t(k) * n_.y + j) * n_.x + i);
                    for (int path = 0; path < pathsPerCell; ++path) {
                        PathRandom random(cellId, uint32_t(path), 0x6c696768u, 0u);
                        // Stratified: the starts over the cell's octants,
                        // the first directions over a grid of the sphere's
                        // (z, phi), each stratum jittered.
                        const int octant = path & 7;
                        const Vec3f start(
                            (float(i) + 0.5f * (float(octant & 1) + random.uniform())) * scale_.x,
                            (float(j) + 0.5f * (float((octant >> 1) & 1) + random.uniform())) *
                                scale_.y,
                            (float(k) + 0.5f * (float(octant >> 2) + random.uniform())) * scale_.z);
                        const int strata = strataSide * strataSide;
                        const int stratum = (path * 7) % strata;  // not in step with the octant
                        const Vec3f from = sampleSphere(
                            (float(stratum / strataSide) + random.uniform()) / float(strataSide),
                            (float(stratum % strataSide) + random.uniform()) / float(strataSide));
                        {
                            const Trilinear w = grid.weights(start);
                            shape[0] += shapeOfOpenness(w(data + sky));
                            for (int l = 1; l < layers_; ++l)
                                shape[size_t(l)] += shapeOfDepth(w(data + firstLight + l - 1));
                        }
                        Vec3f o = start, d = from, beta(1.0f);
                        for (int bounce = 0; bounce < kCacheMaxBounces; ++bounce) {
                            Vec3f p;
                            const Ray ray(o, d);
                            const bool hit = medium.track(ray, 0.0f, INFINITY, random,
                                                          [&](float t, float majorant) {
                                                              p = ray.at(t);
                                                              return !(random.uniform() * majorant <
                                                                       medium.sigma(p));
                                                          });
                            if (!hit) break;
                            beta = beta * medium.albedo(p);
                            // The light that reaches p directly, scattered back along -d.
                            const Trilinear w = grid.weights(p);
                            const float* at = data;
                            auto add = [&](int layer, Vec3f value) {
                                float* s = &sum[size_t(layer) * kFloats];
                                s[0] += value.x, s[1] += value.y, s[2] += value.z;
                                const float l = cacheLuminance(value);
                                s[3] += l * from.x, s[4] += l * from.y, s[5] += l * from.z;
                            };
                            add(0, beta * w(at + sky));
                            for (int l = 0; l < suns; ++l) {
                                const Vec3f wi = -lights.directional[l].direction;
                                const float t = std::exp(-w(at + firstLight + l));
                                add(1 + l, beta * (henyeyGreenstein(dot(d, wi), g) * t));
                            }
                            for (size_t l = 0; l < lights.pointGrid.size(); ++l) {
                                const Vec3f toLamp = lights.pointGrid[l] - p;
                                const float dist2 = std::max(dot(toLamp, toLamp), 0.25f);
                                const Vec3f wi = toLamp / std::sqrt(dist2);
                                const float t = std::exp(-w(at + firstLight + suns + int(l)));
                                add(1 + suns + int(l),
                                    beta * (henyeyGreenstein(dot(d, wi), g) * t /
                                            (dist2 * lights.dx * lights.dx)));
                            }
                            if (bounce + 1 >= kCacheRouletteFrom) {
                                const float keep = std::min(0.95f, std::max({beta.x, beta.y, beta.z}));
                                if (random.uniform() >= keep) break;
                                beta = beta / keep;
                            }
                            d = sampleHenyeyGreenstein(d, g, random.uniform(), random.uniform());
                            o = p;
                        }
                    }
                    float* out = data_.data() + ((size_t(k) * n_.y + j) * n_.x + i) *
                                                    size_t(layers_) * kFloats;
                    for (int l = 0; l < layers_; ++l)
                        for (int v = 0; v < kFloats; ++v)
                            out[l * kFloats + v] = sum[size_t(l) * kFloats + v] / shape[size_t(l)];
                }
    });
    blurCells(cells);
}

// The ratios blurred by [1 2 1] / 4 along each axis over the cells filled:
// the shape holds the light's detail, what is left is smooth, and the
// paths' noise falls by about 4.4x. Each frame's paths see other density,
// so their noise is drawn again every frame: on the default frames 66-69
// the frame-to-frame flicker (tests/bench/README.md) was 6.6% without the
// blur, 4.3% with it (the path tracer's at 256 samples 2.9%); twice, 3.6%,
// but the rims of the smoke 7% bright against Cycles.
void LightCache::blurCells(const Box3i& cells) {
    const size_t stride = size_t(layers_) * kFloats;
    std::vector<float> copy(data_.size());
    const size_t step[3] = {stride, stride * size_t(n_.x), stride * size_t(n_.x) * size_t(n_.y)};
    for (int axis = 0; axis < 3; ++axis) {
        std::copy(data_.begin(), data_.end(), copy.begin());
        parallelForRange(cells.hi.z - cells.lo.z, [&](int k0, int k1) {
            for (int k = cells.lo.z + k0; k < cells.lo.z + k1; ++k)
                for (int j = cells.lo.y; j < cells.hi.y; ++j)
                    for (int i = cells.lo.x; i < cells.hi.x; ++i) {
                        const int c[3] = {i, j, k};
                        const size_t at = ((size_t(k) * n_.y + j) * n_.x + i) * stride;
                        const bool lo = c[axis] > cells.lo[axis], hi = c[axis] + 1 < cells.hi[axis];
                        for (size_t v = 0; v < stride; ++v) {
                            const float mid = copy[at + v];
                            const float a = lo ? copy[at + v - step[axis]] : mid;
                            const float b = hi ? copy[at + v + step[axis]] : mid;
                            data_[at + v] = 0.5f * mid + 0.25f * (a + b);
                        }
                    }
        });
    }
}

Vec3f LightCache::at(int layer, Vec3f pGrid, Vec3f d, float shape) const {
    // Trilinear between cache cell centres, clamped at the edges.
    float f[3];
    int c0[3], c1[3];
    const int n[3] = {n_.x, n_.y, n_.z};
    for (int a = 0; a < 3; ++a) {
        const float x = std::clamp(pGrid[a] / scale_[a] - 0.5f, 0.0f, float(n[a] - 1));
        c0[a] = std::min(int(x), n[a] - 1);
        c1[a] = std::min(c0[a] + 1, n[a] - 1);
        f[a] = x - float(c0[a]);
    }
    float v[kFloats] = {0, 0, 0, 0, 0, 0};
    for (int corner = 0; corner < 8; ++corner) {
        const int i = corner & 1 ? c1[0] : c0[0], j = corner & 2 ? c1[1] : c0[1],
                  k = corner & 4 ? c1[2] : c0[2];
        const float w = (corner & 1 ? f[0] : 1.0f - f[0]) * (corner & 2 ? f[1] : 1.0f - f[1]) *
                        (corner & 4 ? f[2] : 1.0f - f[2]);
        const float* c = cell(i, j, k) + size_t(layer) * kFloats;
        for (int e = 0; e < kFloats; ++e) v[e] += w * c[e];
    }
    const Vec3f mean = Vec3f(v[0], v[1], v[2]) * shape;
    const float l = cacheLuminance(mean);
    if (!(l > 0.0f)) return Vec3f(0.0f);
    // Henyey-Greenstein to first order: 1 + 3 g cos, over the light's directions.
    const float lobe = 1.0f + 3.0f * g_ * (v[3] * d.x + v[4] * d.y + v[5] * d.z) * shape / l;
    return mean * std::max(0.0f, lobe);
}

}  // namespace plume
