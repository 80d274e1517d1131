#include "render/renderer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/error.h"
#include "core/parallel.h"
#include "render/hash.h"
#include "render/light_transmittance.h"
#include "render/tone_map.h"

namespace plume {

namespace {

constexpr float kEmptyDensity = 1e-4f;      // below this a cell is empty space
constexpr float kMinTransmittance = 1e-3f;  // a ray stops once the rest is invisible
constexpr int kBlockShift = 3;              // 8^3-cell blocks for empty-space skipping
constexpr int kBlockSize = 1 << kBlockShift;
constexpr int kTileSize = 16;
constexpr float kMaxStepDepth = 0.25f;  // optical depth of one sample's interval, at most
constexpr int kMaxSubsamples = 8;
constexpr uint32_t kJitterSeed = 0x9e3779b9u;
constexpr int kSkyChannel = 1;
constexpr int kFirstLightChannel = 2;

// Sky light comes from the whole upper hemisphere, not straight down; halving
// the optical depth of the vertical column keeps the sides of a puff lit.
constexpr float kSkyDepthScale = 0.25f;

// How far light spreads sideways per slice it crosses (see
// sweepDirectionalLight): wide for the sky, which lights from every direction,
// a little for lamps and the sun.
constexpr float kSkySpread = 0.25f;
constexpr float kLightSpread = 0.2f;

// Multiple scattering, approximated after Wrenninge et al. (2013): octave i
// adds kOctaveEnergy^i of the light, seen through 1/2^i of the optical depth
// (T^(1/2^i)) with a phase kOctavePhase^i as anisotropic. Lets light into the
// smoke so thick puffs do not look like rock.
constexpr int kOctaves = 4;
constexpr float kOctaveEnergy = 0.7f;
constexpr float kOctavePhase = 0.5f;

// The sky gets the same octaves, normalised: an open sky still gives exactly
// `ambient`, but light from it reaches deeper into the smoke.
constexpr float kSkyOctaveWeight[kOctaves] = {
    1.0f / (1.0f + 0.7f + 0.49f + 0.343f), 0.7f / (1.0f + 0.7f + 0.49f + 0.343f),
    0.49f / (1.0f + 0.7f + 0.49f + 0.343f), 0.343f / (1.0f + 0.7f + 0.49f + 0.343f)};
static_assert(kOctaves == 4 && kOctaveEnergy == 0.7f, "kSkyOctaveWeight follows kOctaveEnergy");

// T^(1/2^i) for each octave i from an optical depth: one exp for the deepest
// octave, squared back up to T (multiplies, where a chain of square roots
// from T would stall every sample).
struct OctaveTransmittance {
    float t[4];
    explicit OctaveTransmittance(float depth) {
        static_assert(kOctaves == 4);
        t[3] = std::exp(-0.125f * depth);
        t[2] = t[3] * t[3];
        t[1] = t[2] * t[2];
        t[0] = t[1] * t[1];
    }
};

float henyeyGreenstein(float cosTheta, float g) {
    float d = 1.0f + g * g - 2.0f * g * cosTheta;
    return (1.0f - g * g) / (4.0f * std::numbers::pi_v<float> * d * std::sqrt(d));
}

// Radiance of opaque smoke at temperature t (per unit render.emission): dark
// red, orange, yellow, then white-hot, brightening all the way.
Vec3f blackbodyRamp(float t) {
    struct Key {
        float t;
        Vec3f c;
    };
    static constexpr Key kKeys[] = {{0.0f, {0.0f, 0.0f, 0.0f}},
                                    {0.2f, {0.12f, 0.008f, 0.0f}},
                                    {0.45f, {0.9f, 0.18f, 0.015f}},
                                    {0.7f, {2.2f, 0.9f, 0.18f}},
                                    {1.0f, {4.0f, 3.0f, 1.6f}}};
    if (t <= 0.0f) return {};
    if (t >= 1.0f) return kKeys[4].c * t;
    int i = 1;
    while (t > kKeys[i].t) ++i;
    float f = (t - kKeys[i - 1].t) / (kKeys[i].t - kKeys[i - 1].t);
    return kKeys[i - 1].c + (kKeys[i].c - kKeys[i - 1].c) * f;
}

// Entry and exit distance of a ray through an axis-aligned box; t0 >= t1 when it misses.
void clipRay(Vec3f o, Vec3f invD, Vec3f lo, Vec3f hi, float& t0, float& t1) {
    t0 = 0.0f;
    t1 = std::numeric_limits<float>::infinity();
    for (int a = 0; a < 3; ++a) {
        if (std::isinf(invD[a])) {
            if (o[a] < lo[a] || o[a] > hi[a]) t0 = t1 = 0.0f;
            continue;
        }
        float ta = (lo[a] - o[a]) * invD[a], tb = (hi[a] - o[a]) * invD[a];
        t0 = std::max(t0, std::min(ta, tb));
        t1 = std::min(t1, std::max(ta, tb));
    }
}

Vec3f background(const RenderSettings& s, int y, int height) {
    float f = 1.0f - (float(y) + 0.5f) / float(height);  // 0 at the bottom row
    return s.backgroundBottom + (s.backgroundTop - s.backgroundBottom) * f;
}

CellBox dilate(const CellBox& box, int pad, Vec3i n) {
    if (box.empty()) return box;
    return {{std::max(0, box.lo.x - pad), std::max(0, box.lo.y - pad), std::max(0, box.lo.z - pad)},
            {std::min(n.x - 1, box.hi.x + pad), std::min(n.y - 1, box.hi.y + pad),
             std::min(n.z - 1, box.hi.z + pad)}};
}

}  // namespace

Renderer::Renderer(const Scene& scene)
    : camera_(scene.camera),
      settings_(scene.render),
      width_(scene.render.width),
      height_(scene.render.height),
      linear_(size_t(width_) * height_ * 3, 0.0f) {
    if (width_ <= 0 || height_ <= 0)
        throw InputError("render.width and render.height must be positive");
    if (!(settings_.step > 0.0f)) throw InputError("render.step must be positive");
    for (const LightSettings& light : scene.lights) {
        if (light.type == LightType::Directional) {
            if (length(light.direction) == 0.0f) continue;  // lights nothing
            directional_.push_back(light);
            directional_.back().direction = normalize(light.direction);
        } else {
            point_.push_back(light);
        }
    }
}

Image Renderer::render(const VolumeView& volume, int frame) {
    traceImage(volume, frame);
    Image image(width_, height_);
    toneMap(linear_, settings_.exposure, image);
    return image;
}

std::vector<float> Renderer::renderLinear(const VolumeView& volume, int frame) {
    traceImage(volume, frame);
    return linear_;
}

void Renderer::prepareVolume(const VolumeView& volume) {
    if (!volume.density) throw RunError("renderer: the volume has no density grid");
    const ScalarGrid& density = *volume.density;
    const Vec3i n{density.nx(), density.ny(), density.nz()};
    const ScalarGrid* temperature = settings_.emission > 0.0f ? volume.temperature : nullptr;
    if (temperature &&
        (temperature->nx() != n.x || temperature->ny() != n.y || temperature->nz() != n.z))
        throw RunError("renderer: temperature and density grids differ in size");

    // Pack density (and temperature) per cell; find the active box per z-slab.
    int channels = kFirstLightChannel + int(directional_.size() + point_.size());
    temperatureChannel_ = temperature ? channels++ : -1;
    shading_.resize(n, channels);
    slabBoxes_.assign(n.z, CellBox{});
    parallelForSlabs(n.z, [&](int k) {
        CellBox& box = slabBoxes_[k];
        for (int j = 0; j < n.y; ++j) {
            size_t row = density.index(0, j, k);
            for (int i = 0; i < n.x; ++i) {
                float rho = density[row + i];
                float* cell = shading_.cell(row + i);
                cell[0] = rho;
                if (temperature) cell[temperatureChannel_] = (*temperature)[row + i];
                if (rho > kEmptyDensity) {
                    if (box.empty()) box = {{i, j, k}, {i, j, k}};
                    box.lo = {std::min(box.lo.x, i), std::min(box.lo.y, j), k};
                    box.hi = {std::max(box.hi.x, i), std::max(box.hi.y, j), k};
                }
            }
        }
    });
    active_ = CellBox{};
    for (const CellBox& box : slabBoxes_) {
        if (box.empty()) continue;
        if (active_.empty()) active_ = box;
        active_.lo = {std::min(active_.lo.x, box.lo.x), std::min(active_.lo.y, box.lo.y),
                      std::min(active_.lo.z, box.lo.z)};
        active_.hi = {std::max(active_.hi.x, box.hi.x), std::max(active_.hi.y, box.hi.y),
                      std::max(active_.hi.z, box.hi.z)};
    }

    // Largest density a trilinear lookup inside each block can see (one cell of apron).
    blocks_ = {(n.x + kBlockSize - 1) >> kBlockShift, (n.y + kBlockSize - 1) >> kBlockShift,
               (n.z + kBlockSize - 1) >> kBlockShift};
    blockMax_.assign(size_t(blocks_.x) * blocks_.y * blocks_.z, 0.0f);
    parallelForSlabs(blocks_.z, [&](int bk) {
        for (int bj = 0; bj < blocks_.y; ++bj)
            for (int bi = 0; bi < blocks_.x; ++bi) {
                float m = 0.0f;
                int k1 = std::min(n.z - 1, (bk + 1) * kBlockSize);
                int j1 = std::min(n.y - 1, (bj + 1) * kBlockSize);
                int i1 = std::min(n.x - 1, (bi + 1) * kBlockSize);
                for (int k = std::max(0, bk * kBlockSize - 1); k <= k1; ++k)
                    for (int j = std::max(0, bj * kBlockSize - 1); j <= j1; ++j)
                        for (int i = std::max(0, bi * kBlockSize - 1); i <= i1; ++i)
                            m = std::max(m, density(i, j, k));
                blockMax_[(size_t(bk) * blocks_.y + bj) * blocks_.x + bi] = m;
            }
    });
    if (active_.empty()) return;

    // Light transmittance over every cell a camera sample can reach.
    const CellBox sweepBox = dilate(active_, 2, n);
    const float sigmaPerVoxel = settings_.extinction * volume.dx;
    sweepDirectionalLight(shading_, sweepBox, {0, 0, -1}, sigmaPerVoxel * kSkyDepthScale,
                          kSkySpread, kSkyChannel, sweepScratch_);
    // The sky's octaves have fixed weights, so each cell can hold the sky
    // light itself instead of a depth: a lookup per sample and nothing more.
    parallelForRange(sweepBox.hi.z - sweepBox.lo.z + 1, [&](int k0, int k1) {
        for (int k = sweepBox.lo.z + k0; k < sweepBox.lo.z + k1; ++k)
            for (int j = sweepBox.lo.y; j <= sweepBox.hi.y; ++j)
                for (int i = sweepBox.lo.x; i <= sweepBox.hi.x; ++i) {
                    float* sky = shading_.cell(shading_.cellIndex(i, j, k)) + kSkyChannel;
                    const OctaveTransmittance t(*sky);
                    float light = 0.0f;
                    for (int o = 0; o < kOctaves; ++o) light += kSkyOctaveWeight[o] * t.t[o];
                    *sky = light;
                }
    });
    for (size_t l = 0; l < directional_.size(); ++l)
        sweepDirectionalLight(shading_, sweepBox, directional_[l].direction, sigmaPerVoxel,
                              kLightSpread, kFirstLightChannel + int(l), sweepScratch_);
    pointCoarse_.resize(point_.size());
    for (size_t l = 0; l < point_.size(); ++l)
        pointLightTransmittance(
            shading_, sweepBox, (point_[l].position - volume.origin) / volume.dx, sigmaPerVoxel,
            kLightSpread, kFirstLightChannel + int(directional_.size() + l), sweepScratch_, pointCoarse_[l]);
}

void Renderer::traceImage(const VolumeView& volume, int frame) {
    prepareVolume(volume);
    const CameraSettings cameraSettings =
        camera_.given
            ? camera_
            : frameBox(volume.worldMin(), volume.worldMax(), float(width_) / float(height_));
    const Camera camera(cameraSettings, width_, height_);

    // Everything below is in grid units (voxels); world and grid axes agree.
    const float dx = volume.dx;
    const Vec3f origin = (camera.position() - volume.origin) / dx;
    const float step = settings_.step;
    const float sigmaPerVoxel = settings_.extinction * dx;
    const Vec3f rayLo = active_.empty() ? Vec3f(0.0f)
                                        : Vec3f(float(std::max(0, active_.lo.x - 1)),
                                                float(std::max(0, active_.lo.y - 1)),
                                                float(std::max(0, active_.lo.z - 1)));
    const Vec3i n = shading_.n();
    const Vec3f rayHi = active_.empty() ? Vec3f(0.0f)
                                        : Vec3f(float(std::min(n.x, active_.hi.x + 2)),
                                                float(std::min(n.y, active_.hi.y + 2)),
                                                float(std::min(n.z, active_.hi.z + 2)));
    const int numDirectional = int(directional_.size());
    const int firstPointChannel = kFirstLightChannel + numDirectional;
    const int temperatureChannel = temperatureChannel_;
    const float* data = shading_.data();
    const Vec3f ambient = settings_.ambient;
    const float albedo = settings_.albedo, g = settings_.phase, emission = settings_.emission;

    parallelForTiles(width_, height_, kTileSize, [&](int x0, int y0, int x1, int y1) {
        std::vector<Vec3f> octavePhase(size_t(numDirectional) * kOctaves);
        for (int y = y0; y < y1; ++y) {
            const Vec3f behind = background(settings_, y, height_);
            for (int x = x0; x < x1; ++x) {
                float* out = &linear_[(size_t(y) * width_ + x) * 3];
                const Vec3f d = camera.direction(x, y);
                const Vec3f invD(d.x != 0.0f ? 1.0f / d.x : std::numeric_limits<float>::infinity(),
                                 d.y != 0.0f ? 1.0f / d.y : std::numeric_limits<float>::infinity(),
                                 d.z != 0.0f ? 1.0f / d.z : std::numeric_limits<float>::infinity());
                float t0 = 0.0f, t1 = 0.0f;
                if (!active_.empty()) clipRay(origin, invD, rayLo, rayHi, t0, t1);
                Vec3f radiance(0.0f);
                float transmittance = 1.0f;
                if (t0 < t1) {
                    // Per-ray light constants: the phase of a distant light is fixed along the ray.
                    for (int l = 0; l < numDirectional; ++l) {
                        const LightSettings& light = directional_[l];
                        float cosTheta = -dot(light.direction, d);
                        float energy = 1.0f, gi = g;
                        for (int o = 0; o < kOctaves; ++o) {
                            octavePhase[l * kOctaves + o] =
                                light.color *
                                (light.intensity * energy * henyeyGreenstein(cosTheta, gi));
                            energy *= kOctaveEnergy;
                            gi *= kOctavePhase;
                        }
                    }
                    // Interval k is [t0 + k step, t0 + (k+1) step]; its sample sits at a
                    // hashed offset inside, the same for the whole ray.
                    const float jitter = hashToUnit(hashPixel(x, y, uint32_t(frame), kJitterSeed));
                    for (int k = 0;;) {
                        const float tk = t0 + float(k) * step;
                        if (tk >= t1) break;
                        const float t = std::min(tk + jitter * step, t1);
                        const Vec3f p = origin + d * t;

                        // Skip a block no sample inside can see density in.
                        const int bi = std::clamp(int(p.x) >> kBlockShift, 0, blocks_.x - 1);
                        const int bj = std::clamp(int(p.y) >> kBlockShift, 0, blocks_.y - 1);
                        const int bk = std::clamp(int(p.z) >> kBlockShift, 0, blocks_.z - 1);
                        if (blockMax_[(size_t(bk) * blocks_.y + bj) * blocks_.x + bi] <=
                            kEmptyDensity) {
                            float exit = t1;
                            const int b[3] = {bi, bj, bk};
                            for (int a = 0; a < 3; ++a) {
                                if (std::isinf(invD[a])) continue;
                                float face = float((b[a] + (d[a] > 0.0f ? 1 : 0)) << kBlockShift);
                                exit = std::min(exit, (face - origin[a]) * invD[a]);
                            }
                            k = std::max(k + 1, int((exit - t0) / step));
                            continue;
                        }
                        const float ds = std::min(step, t1 - tk);
                        ++k;

                        // Dense smoke: split the interval so no part is optically thicker
                        // than kMaxStepDepth; else the jittered sample position shows as
                        // per-pixel noise on the surface of thick puffs.
                        const Trilinear w0 = shading_.weights(p);
                        const float rho0 = w0(data);
                        if (rho0 <= kEmptyDensity) continue;
                        const float depth = rho0 * sigmaPerVoxel * ds;
                        const int parts =
                            depth > kMaxStepDepth
                                ? std::min(kMaxSubsamples, int(std::ceil(depth / kMaxStepDepth)))
                                : 1;
                        const float dsPart = ds / float(parts);
                        for (int part = 0; part < parts; ++part) {
                            const Vec3f pp =
                                parts == 1 ? p
                                           : origin + d * (tk + (float(part) + jitter) * dsPart);
                            const Trilinear w = parts == 1 ? w0 : shading_.weights(pp);
                            const float rho = parts == 1 ? rho0 : w(data);
                            if (rho <= kEmptyDensity) continue;

                            // Light arriving at the sample, then what it sends toward the camera.
                            Vec3f inscatter = ambient * w(data + kSkyChannel);
                            for (int l = 0; l < numDirectional; ++l) {
                                const OctaveTransmittance t(w(data + kFirstLightChannel + l));
                                const Vec3f* ph = &octavePhase[l * kOctaves];
                                for (int o = 0; o < kOctaves; ++o) inscatter += ph[o] * t.t[o];
                            }
                            for (size_t l = 0; l < point_.size(); ++l) {
                                const LightSettings& light = point_[l];
                                Vec3f toLight = (light.position - volume.origin) / dx - pp;
                                float dist2 = std::max(dot(toLight, toLight), 0.25f);
                                float cosTheta = dot(toLight, d) / std::sqrt(dist2);
                                const OctaveTransmittance t(w(data + firstPointChannel + int(l)));
                                float energy = 1.0f, gi = g, sum = 0.0f;
                                for (int o = 0; o < kOctaves; ++o) {
                                    sum += energy * henyeyGreenstein(cosTheta, gi) * t.t[o];
                                    energy *= kOctaveEnergy;
                                    gi *= kOctavePhase;
                                }
                                inscatter +=
                                    light.color * (light.intensity * sum / (dist2 * dx * dx));
                            }
                            Vec3f source = inscatter * albedo;
                            if (temperatureChannel >= 0)
                                source += blackbodyRamp(w(data + temperatureChannel)) * emission;

                            // Exact integral of a constant source over the step.
                            const float stepTransmittance = std::exp(-rho * sigmaPerVoxel * dsPart);
                            radiance += source * (transmittance * (1.0f - stepTransmittance));
                            transmittance *= stepTransmittance;
                            if (transmittance < kMinTransmittance) break;
                        }
                        if (transmittance < kMinTransmittance) break;
                    }
                }
                radiance += behind * transmittance;
                out[0] = radiance.x;
                out[1] = radiance.y;
                out[2] = radiance.z;
            }
        }
    });
}

}  // namespace plume
