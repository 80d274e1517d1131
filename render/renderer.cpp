#include "render/renderer.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/parallel.h"
#include "render/blackbody.h"
#include "render/empty_space.h"
#include "render/hash.h"
#include "render/in_scattering.h"
#include "render/light_transmittance.h"
#include "render/ray.h"
#include "render/tone_map.h"

namespace plume {

namespace {

constexpr float kMinTransmittance = 1e-3f;  // a ray stops once the rest is invisible
constexpr int kTileSize = 16;
constexpr float kMaxStepDepth = 0.25f;  // optical depth of one sample's interval, at most
constexpr int kMaxSubsamples = 8;
constexpr uint32_t kJitterSeed = 0x9e3779b9u;

// Sky light comes from the whole upper hemisphere, not straight down; halving
// the optical depth of the vertical column keeps the sides of a puff lit.
constexpr float kSkyDepthScale = 0.25f;

// How far light spreads sideways per slice it crosses (see
// sweepDirectionalLight): wide for the sky, which lights from every direction,
// a little for lamps and the sun.
constexpr float kSkySpread = 0.25f;
constexpr float kLightSpread = 0.2f;

Vec3f background(const RenderSettings& s, int y, int height) {
    float f = 1.0f - (float(y) + 0.5f) / float(height);  // 0 at the bottom row
    return s.backgroundBottom + (s.backgroundTop - s.backgroundBottom) * f;
}

// The box camera rays are marched through (grid units): the active cells and
// the one cell of apron a trilinear lookup reaches.
void marchBounds(const Box3i& active, Vec3i n, Vec3f& lo, Vec3f& hi) {
    if (active.empty()) {
        lo = hi = Vec3f(0.0f);
        return;
    }
    lo = Vec3f(float(std::max(0, active.lo.x - 1)), float(std::max(0, active.lo.y - 1)),
               float(std::max(0, active.lo.z - 1)));
    hi = Vec3f(float(std::min(n.x, active.hi.x + 1)), float(std::min(n.y, active.hi.y + 1)),
               float(std::min(n.z, active.hi.z + 1)));
}

// What a camera ray has gathered: radiance toward the camera, and the
// transmittance left for whatever lies behind the smoke.
struct RaySum {
    Vec3f radiance{0.0f};
    float transmittance = 1.0f;
};

// Marches camera rays through one frame's ShadingGrid (grid units).
struct RayMarcher {
    const ShadingGrid& shading;
    const EmptySpace& emptySpace;
    const RenderSettings& settings;
    float sigmaPerVoxel;     // extinction per unit density times dx
    int temperatureChannel;  // -1: no emission

    // [t0, t1] of the ray in intervals of render.step, each sampled at the same
    // jittered offset inside it, until the smoke hides whatever is left.
    // Flattened: a call left on the per-sample path (trilinear weights,
    // in-scattering) spills every live float register and cost a quarter of
    // the frame time.
    [[gnu::flatten]] RaySum march(const Ray& ray, float t0, float t1, float jitter,
                                  InScattering& light) const {
        RaySum sum;
        light.startRay(ray.d);
        const float step = settings.step;
        for (int k = 0;;) {
            const float tk = t0 + float(k) * step;
            if (tk >= t1) break;
            const float t = std::min(tk + jitter * step, t1);
            const Vec3f p = ray.at(t);

            // Skip a block no sample inside can see density in.
            const Vec3i block = emptySpace.blockAt(p);
            if (emptySpace.empty(block)) {
                k = std::max(k + 1, int((emptySpace.exit(ray, block, t1) - t0) / step));
                continue;
            }
            const float ds = std::min(step, t1 - tk);
            ++k;

            integrateInterval(ray, tk, ds, jitter, p, light, sum);
            if (sum.transmittance < kMinTransmittance) break;
        }
        return sum;
    }

    // The interval [tk, tk + ds] whose sample is at p. Dense smoke: split the
    // interval so no part is optically thicker than kMaxStepDepth; else the
    // jittered sample position shows as per-pixel noise on the surface of
    // thick puffs.
    void integrateInterval(const Ray& ray, float tk, float ds, float jitter, Vec3f p,
                           const InScattering& light, RaySum& sum) const {
        const float* data = shading.data();
        const Trilinear w0 = shading.weights(p);
        const float rho0 = w0(data);
        if (rho0 <= kEmptyDensity) return;
        const float depth = rho0 * sigmaPerVoxel * ds;
        const int parts = depth > kMaxStepDepth
                              ? std::min(kMaxSubsamples, int(std::ceil(depth / kMaxStepDepth)))
                              : 1;
        const float dsPart = ds / float(parts);
        for (int part = 0; part < parts; ++part) {
            const Vec3f pp = parts == 1 ? p : ray.at(tk + (float(part) + jitter) * dsPart);
            const Trilinear w = parts == 1 ? w0 : shading.weights(pp);
            const float rho = parts == 1 ? rho0 : w(data);
            if (rho <= kEmptyDensity) continue;

            // Light the sample scatters and emits toward the camera.
            Vec3f source = light(w, data, pp) * settings.albedo;
            if (temperatureChannel >= 0)
                source += blackbodyRamp(w(data + temperatureChannel)) * settings.emission;

            // Exact integral of a constant source over the part.
            const float stepTransmittance = std::exp(-rho * sigmaPerVoxel * dsPart);
            sum.radiance += source * (sum.transmittance * (1.0f - stepTransmittance));
            sum.transmittance *= stepTransmittance;
            if (sum.transmittance < kMinTransmittance) break;
        }
    }
};

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
    placeLights(scene.lights);
    // A keyed camera or light is placed again for every frame.
    const bool lightsMove =
        std::any_of(scene.lights.begin(), scene.lights.end(),
                    [](const LightSettings& l) { return !l.animation.empty(); });
    if (lightsMove || !scene.camera.animation.empty()) keyed_ = std::make_unique<Scene>(scene);
}

Renderer::~Renderer() = default;

void Renderer::placeLights(const std::vector<LightSettings>& lights) {
    directional_.clear();
    point_.clear();
    for (const LightSettings& light : lights) {
        if (light.type == LightType::Directional) {
            if (length(light.direction) == 0.0f) continue;  // lights nothing
            directional_.push_back(light);
            directional_.back().direction = normalize(light.direction);
        } else {
            point_.push_back(light);
        }
    }
}

std::uint64_t Renderer::bytesFor(const Scene& scene, Vec3i n) {
    const std::uint64_t cells = std::uint64_t(n.x) * n.y * n.z;
    std::uint64_t points = 0;
    for (const LightSettings& light : scene.lights) points += light.type == LightType::Point;
    const std::uint64_t channels =
        kFirstLightChannel + scene.lights.size() + (scene.render.emission > 0.0f ? 1 : 0);
    const std::uint64_t half = std::uint64_t((n.x + 1) / 2) * ((n.y + 1) / 2) * ((n.z + 1) / 2);
    const std::uint64_t slice = std::uint64_t(std::max({n.x * n.y, n.y * n.z, n.x * n.z}));
    const std::uint64_t pixels = std::uint64_t(scene.render.width) * scene.render.height;
    return (channels * cells + cells / 512 + points * half + 5 * slice + 3 * pixels) *
               sizeof(float) +
           3 * pixels;
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
    auto packSlab = [&](int k) {
        Box3i box;
        for (int j = 0; j < n.y; ++j) {
            size_t row = density.index(0, j, k);
            for (int i = 0; i < n.x; ++i) {
                float rho = density[row + i];
                float* cell = shading_.cell(row + i);
                cell[0] = rho;
                if (temperature) cell[temperatureChannel_] = (*temperature)[row + i];
                if (rho > kEmptyDensity) {
                    if (box.empty()) box = {{i, j, k}, {i + 1, j + 1, k + 1}};
                    box.lo = {std::min(box.lo.x, i), std::min(box.lo.y, j), k};
                    box.hi = {std::max(box.hi.x, i + 1), std::max(box.hi.y, j + 1), k + 1};
                }
            }
        }
        return box;
    };
    active_ = deterministicReduce(n.z, Box3i{}, packSlab, unite);

    // Largest density per block, for empty-space skipping.
    emptySpace_.build(density);
    if (active_.empty()) return;

    // Light transmittance over every cell a camera sample can reach.
    const Box3i sweepBox = grow(active_, 2, n);
    const float sigmaPerVoxel = settings_.extinction * volume.dx;
    sweepDirectionalLight(shading_, sweepBox, {0, 0, -1}, sigmaPerVoxel * kSkyDepthScale,
                          kSkySpread, kSkyChannel, sweepScratch_);
    skyLightFromDepth(shading_, sweepBox);
    for (size_t l = 0; l < directional_.size(); ++l)
        sweepDirectionalLight(shading_, sweepBox, directional_[l].direction, sigmaPerVoxel,
                              kLightSpread, kFirstLightChannel + int(l), sweepScratch_);
    pointCoarse_.resize(point_.size());
    for (size_t l = 0; l < point_.size(); ++l)
        pointLightTransmittance(shading_, sweepBox,
                                (point_[l].position - volume.origin) / volume.dx, sigmaPerVoxel,
                                kLightSpread, kFirstLightChannel + int(directional_.size() + l),
                                sweepScratch_, pointCoarse_[l]);
}

void Renderer::traceImage(const VolumeView& volume, int frame) {
    // The camera and the lights where their keys put them at this frame.
    if (keyed_) {
        const Scene now = keyed_->atFrame(double(frame));
        camera_ = now.camera;
        placeLights(now.lights);
    }
    // Pack the volume and the light reaching each cell.
    prepareVolume(volume);

    // The camera, framing the volume unless the scene placed it; its rays in
    // grid units (voxels), whose axes agree with the world's.
    const CameraSettings cameraSettings =
        camera_.given
            ? camera_
            : frameBox(volume.worldMin(), volume.worldMax(), float(width_) / float(height_));
    const Camera camera(cameraSettings, width_, height_);
    const Vec3f eye = (camera.position() - volume.origin) / volume.dx;

    // What every ray shares: the box it is marched through, the frame's grids
    // and the lights.
    Vec3f marchLo, marchHi;
    marchBounds(active_, shading_.n(), marchLo, marchHi);
    const RayMarcher marcher{shading_, emptySpace_, settings_, settings_.extinction * volume.dx,
                             temperatureChannel_};
    const InScattering inScattering(directional_, point_, settings_, volume);

    // One jittered ray per pixel, tiles in parallel.
    parallelForTiles(width_, height_, kTileSize, [&](int x0, int y0, int x1, int y1) {
        InScattering light = inScattering;  // per tile: it holds the phases of the ray at hand
        for (int y = y0; y < y1; ++y) {
            const Vec3f behind = background(settings_, y, height_);
            for (int x = x0; x < x1; ++x) {
                // Clip the ray to the smoke, march the part inside, then add what lies behind.
                const Ray ray(eye, camera.direction(x, y));
                RaySum sum;
                float t0, t1;
                if (!active_.empty() && clipRay(ray, marchLo, marchHi, t0, t1)) {
                    // The sample's offset inside each interval: hashed, the same for the whole ray.
                    const float jitter = hashToUnit(hashPixel(x, y, uint32_t(frame), kJitterSeed));
                    sum = marcher.march(ray, t0, t1, jitter, light);
                }
                const Vec3f radiance = sum.radiance + behind * sum.transmittance;
                float* out = &linear_[(size_t(y) * width_ + x) * 3];
                out[0] = radiance.x;
                out[1] = radiance.y;
                out[2] = radiance.z;
            }
        }
    });
}

}  // namespace plume
