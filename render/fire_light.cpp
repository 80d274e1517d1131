#include "render/fire_light.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/parallel.h"
#include "render/in_scattering.h"
#include "render/planck.h"
#include "render/ray.h"

namespace plume {

namespace {

constexpr float kFourPi = 4.0f * std::numbers::pi_v<float>;

// render.albedo's default, at which the octaves were fitted.
constexpr float kDefaultAlbedo = 0.9f;

// The coarse grid has at most this many cells per axis: every cell sees every
// lamp, so its cost is cells x lamps x the march between them.
constexpr int kMaxCoarseCells = 32;

// Lamps fainter than this share of the fire's whole light are left out.
constexpr float kFaintLamp = 1e-5f;

// The deepest octave sees an eighth of the optical depth: beyond this it is
// dark too, and the march toward a lamp stops.
constexpr float kOpaqueDepth = 8.0f * 6.9f;

float luminance(Vec3f c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }

// One block's glow: its light, the luminance-weighted sum of the positions
// of the cells giving it, and the density of all its cells.
struct Glow {
    Vec3f light{0.0f};
    float luminance = 0.0f;
    Vec3f weighted{0.0f};
    float mass = 0.0f;
    void add(const Glow& g) {
        light += g.light;
        luminance += g.luminance;
        weighted += g.weighted;
        mass += g.mass;
    }
};

// The share of a block's light that leaves it: what its cells give off, less
// what the block's own smoke takes back on the way out. A thin flame gives
// off all of it; a flame thick with soot only what its surface layer does,
// as the camera sees it.
float escaping(const Glow& g, int size, float sigmaPerVoxel) {
    const float depth = g.mass * sigmaPerVoxel / float(size * size);  // across the block
    return depth > 1e-4f ? (1.0f - std::exp(-depth)) / depth : 1.0f;
}

// Blocks of `size` cells per axis over a box, x fastest.
struct Blocks {
    Vec3i count;
    int size = 1;
    std::vector<Glow> glow;
    Glow& at(int i, int j, int k) { return glow[(size_t(k) * count.y + j) * count.x + i]; }
};

// The glow of every cell of `box`, summed in blocks of two cells per axis.
Blocks glowingBlocks(const ShadingGrid& grid, const float* density, const Box3i& box,
                     int temperatureChannel, int flameChannel, const RenderSettings& settings,
                     float voxelMetres) {
    Blocks blocks;
    blocks.size = 2;
    blocks.count = Vec3i{(box.hi.x - box.lo.x + 1) / 2, (box.hi.y - box.lo.y + 1) / 2,
                         (box.hi.z - box.lo.z + 1) / 2};
    blocks.glow.assign(size_t(blocks.count.x) * blocks.count.y * blocks.count.z, Glow{});
    const Vec3i n = grid.n();
    const float* data = grid.data();
    const int channels = grid.channels();
    // Each block is summed by one task, cell by cell in a fixed order.
    parallelForSlabs(blocks.count.z, [&](int bk) {
        for (int bj = 0; bj < blocks.count.y; ++bj)
            for (int bi = 0; bi < blocks.count.x; ++bi) {
                Glow g;
                for (int k = box.lo.z + 2 * bk; k < std::min(box.hi.z, box.lo.z + 2 * bk + 2); ++k)
                    for (int j = box.lo.y + 2 * bj; j < std::min(box.hi.y, box.lo.y + 2 * bj + 2); ++j)
                        for (int i = box.lo.x + 2 * bi; i < std::min(box.hi.x, box.lo.x + 2 * bi + 2);
                             ++i) {
                            const size_t c = (size_t(k) * n.y + j) * n.x + i;
                            const float* cell = data + c * channels;
                            const float glow = flameChannel >= 0 ? cell[flameChannel] : 1.0f;
                            const float rho = density[c];
                            if (rho > 0.0f) g.mass += rho;
                            if (!(glow > 0.0f) || !(rho > 0.0f)) continue;
                            // What the ray marcher's flame gives off per voxel
                            // (per grid unit of path, through a voxel's cross-section).
                            const Vec3f light =
                                flameRadiance(cell[temperatureChannel] * settings.fireTemperature) *
                                (settings.emission * settings.fireLight * glow * voxelMetres);
                            const float lum = luminance(light);
                            if (!(lum > 0.0f)) continue;
                            g.light += light;
                            g.luminance += lum;
                            g.weighted += Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * lum;
                        }
                blocks.at(bi, bj, bk) = g;
            }
    });
    return blocks;
}

// Blocks twice as large.
Blocks merged(Blocks& fine) {
    Blocks coarse;
    coarse.size = fine.size * 2;
    coarse.count = Vec3i{(fine.count.x + 1) / 2, (fine.count.y + 1) / 2, (fine.count.z + 1) / 2};
    coarse.glow.assign(size_t(coarse.count.x) * coarse.count.y * coarse.count.z, Glow{});
    for (int k = 0; k < fine.count.z; ++k)
        for (int j = 0; j < fine.count.y; ++j)
            for (int i = 0; i < fine.count.x; ++i) coarse.at(i / 2, j / 2, k / 2).add(fine.at(i, j, k));
    return coarse;
}

int bright(const Blocks& blocks, float total) {
    int count = 0;
    for (const Glow& g : blocks.glow) count += g.luminance > kFaintLamp * total;
    return count;
}

}  // namespace

std::uint64_t FireLight::bytesFor(Vec3i n) {
    const int largest = std::max({n.x, n.y, n.z});
    const int factor = std::max(2, (largest + kMaxCoarseCells - 1) / kMaxCoarseCells);
    const std::uint64_t coarse = std::uint64_t((n.x + factor - 1) / factor) *
                                 ((n.y + factor - 1) / factor) * ((n.z + factor - 1) / factor);
    // Three coarse grids, and the glow of blocks of two cells while lamps are gathered.
    return 3 * coarse * sizeof(float) + std::uint64_t(n.x) * n.y * n.z / 8 * sizeof(Glow);
}

void FireLight::build(ShadingGrid& grid, const Box3i& box, int temperatureChannel,
                      int flameChannel, const RenderSettings& settings, float sigmaPerVoxel,
                      float voxelMetres, float albedo, int outChannel, const Box3i& lampBox) {
    lamps_.clear();
    color_ = Vec3f(0.0f);
    if (box.empty() || temperatureChannel < 0 || outChannel < 0 ||
        !(settings.emission * settings.fireLight > 0.0f))
        return;

    // The lamps: blocks of glowing cells, as few as kMaxFireLamps.
    Blocks blocks = glowingBlocks(grid, grid.densityValues(), lampBox.empty() ? box : lampBox,
                                  temperatureChannel, flameChannel, settings, voxelMetres);
    float total = 0.0f;
    Vec3f light(0.0f);
    for (const Glow& g : blocks.glow) total += g.luminance, light += g.light;
    if (!(total > 0.0f)) return;
    while (bright(blocks, total) > kMaxFireLamps) blocks = merged(blocks);
    for (const Glow& g : blocks.glow) {
        if (!(g.luminance > kFaintLamp * total)) continue;
        const float half = 0.5f * float(blocks.size);
        const float out = escaping(g, blocks.size, sigmaPerVoxel);
        lamps_.push_back(
            {g.weighted / g.luminance, g.light * out, g.luminance * out, half * half, half});
    }
    color_ = light / total;

    // What each further octave keeps: kOctaveEnergy at the default albedo,
    // less in darker smoke, as InScattering's octaves (soot hardly scatters
    // twice).
    const float octaveEnergy = kOctaveEnergy * std::min(1.0f, albedo / kDefaultAlbedo);

    // The coarse grid: mean density (solids included) of its cells.
    const Vec3i n = grid.n();
    factor_ = std::max(2, (std::max({n.x, n.y, n.z}) + kMaxCoarseCells - 1) / kMaxCoarseCells);
    const int f = factor_;
    // A lamp is as wide as its block, and no narrower than a coarse cell,
    // whose corners are where its light is known: a narrower one would show
    // as a bright spot where it falls between them.
    for (Lamp& lamp : lamps_) lamp.soft2 = std::max(lamp.soft2, float(f * f));
    const Vec3i m{(n.x + f - 1) / f, (n.y + f - 1) / f, (n.z + f - 1) / f};
    if (density_.nx() != m.x || density_.ny() != m.y || density_.nz() != m.z) {
        density_ = ScalarGrid(m.x, m.y, m.z);
        light_ = ScalarGrid(m.x, m.y, m.z);
        seen_ = ScalarGrid(m.x, m.y, m.z);
    }
    const float* data = grid.data();
    const int channels = grid.channels();
    const float cellShare = 1.0f / float(f * f * f);
    parallelForSlabs(m.z, [&](int ck) {
        for (int cj = 0; cj < m.y; ++cj)
            for (int ci = 0; ci < m.x; ++ci) {
                float sum = 0.0f;
                for (int k = std::max(box.lo.z, ck * f); k < std::min(box.hi.z, ck * f + f); ++k)
                    for (int j = std::max(box.lo.y, cj * f); j < std::min(box.hi.y, cj * f + f); ++j)
                        for (int i = std::max(box.lo.x, ci * f); i < std::min(box.hi.x, ci * f + f);
                             ++i)
                            sum += data[grid.cellIndex(i, j, k) * channels];
                density_(ci, cj, ck) = sum * cellShare;
            }
    });

    // Every coarse cell sees every lamp through the density between them;
    // only the part of the way inside the box holds any (coarse units).
    const Vec3f lo = Vec3f(float(box.lo.x), float(box.lo.y), float(box.lo.z)) / float(f);
    const Vec3f hi = Vec3f(float(box.hi.x), float(box.hi.y), float(box.hi.z)) / float(f);
    const float depthPerCell = sigmaPerVoxel * float(f);
    parallelForSlabs(m.z, [&](int ck) {
        for (int cj = 0; cj < m.y; ++cj)
            for (int ci = 0; ci < m.x; ++ci) {
                const Vec3f p(ci + 0.5f, cj + 0.5f, ck + 0.5f);  // coarse units
                float onSmoke = 0.0f, open = 0.0f, shadowed = 0.0f;
                for (const Lamp& lamp : lamps_) {
                    const Vec3f to = lamp.position / float(f) - p;
                    const float distance = length(to);
                    float tau = 0.0f, t0, t1;
                    if (distance > 0.0f && clipRay(Ray(p, to / distance), lo, hi, t0, t1)) {
                        const Ray ray(p, to / distance);
                        // Up to the lamp's block, whose own smoke its light
                        // has already passed.
                        t1 = std::min(t1, distance - lamp.radius / float(f));
                        // Midpoint samples, one coarse cell apart.
                        for (float t = t0 + 0.5f; t < t1 && tau < kOpaqueDepth; t += 1.0f)
                            tau += density_.sample(ray.at(t)) * depthPerCell;
                    }
                    const float d2 = distance * distance * float(f * f);  // fine voxels
                    const float falloff = lamp.luminance / (d2 + lamp.soft2);
                    const OctaveTransmittance t(tau);
                    float octaves = 0.0f, energy = 1.0f;
                    for (int o = 0; o < kOctaves; ++o, energy *= octaveEnergy)
                        octaves += energy * t.t[o];
                    onSmoke += falloff * octaves;
                    open += falloff;
                    shadowed += falloff * t.t[0];
                }
                light_(ci, cj, ck) = onSmoke / kFourPi;  // isotropic scattering
                seen_(ci, cj, ck) = open > 0.0f ? shadowed / open : 1.0f;
            }
    });

    // The smoke's light, into the shading grid.
    float* out = grid.data();
    const float inv = 1.0f / float(f);
    parallelForRange(box.hi.z - box.lo.z, [&](int k0, int k1) {
        for (int k = box.lo.z + k0; k < box.lo.z + k1; ++k)
            for (int j = box.lo.y; j < box.hi.y; ++j)
                for (int i = box.lo.x; i < box.hi.x; ++i)
                    out[grid.cellIndex(i, j, k) * channels + outChannel] =
                        light_.sample(Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * inv);
    });
}

Vec3f FireLight::irradiance(Vec3f pGrid, Vec3f n, bool shadows) const {
    Vec3f e(0.0f);
    for (const Lamp& lamp : lamps_) {
        const Vec3f to = lamp.position - pGrid;
        const float d2 = dot(to, to);
        const float cosine = dot(n, to) / std::sqrt(std::max(d2, 1e-12f));
        if (cosine <= 0.0f) continue;
        e += lamp.intensity * (cosine / (d2 + lamp.soft2));
    }
    if (shadows && !lamps_.empty())
        e *= seen_.sample((pGrid + n * (1.5f * float(factor_))) / float(factor_));
    return e;
}

}  // namespace plume
