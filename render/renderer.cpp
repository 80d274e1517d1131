#include "render/renderer.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/parallel.h"
#include "render/blackbody.h"
#include "render/empty_space.h"
#include "render/filter.h"
#include "render/hash.h"
#include "render/in_scattering.h"
#include "render/light_transmittance.h"
#include "render/ray.h"
#include "render/ray_marcher.h"
#include "render/tone_map.h"

namespace plume {

namespace {

constexpr int kTileSize = 16;
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

// Cells beyond the active ones a density lookup reaches: one for trilinear,
// two for the B-spline.
int lookupApron(bool cubic) { return cubic ? 2 : 1; }

// The box camera rays are marched through (grid units): the active cells and
// the apron a lookup reaches.
void marchBounds(const Box3i& active, Vec3i n, int apron, Vec3f& lo, Vec3f& hi) {
    if (active.empty()) {
        lo = hi = Vec3f(0.0f);
        return;
    }
    lo = Vec3f(float(std::max(0, active.lo.x - apron)), float(std::max(0, active.lo.y - apron)),
               float(std::max(0, active.lo.z - apron)));
    hi = Vec3f(float(std::min(n.x, active.hi.x + apron)), float(std::min(n.y, active.hi.y + apron)),
               float(std::min(n.z, active.hi.z + apron)));
}

}  // namespace

Renderer::Renderer(const Scene& scene)
    : camera_(scene.camera),
      settings_(scene.render),
      width_(scene.render.width),
      height_(scene.render.height),
      frame_(width_, height_) {
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
    // The traced frame: RGB and transmittance (its composite over the
    // background lives only while a frame is written).
    return (channels * cells + cells / 512 + points * half + 5 * slice + 4 * pixels) *
               sizeof(float) +
           3 * pixels;
}

const LinearImage& Renderer::trace(const VolumeView& volume, int frame) {
    traceImage(volume, frame);
    return frame_;
}

std::vector<float> Renderer::composite() const {
    std::vector<float> out(frame_.rgb.size());
    for (int y = 0; y < height_; ++y) {
        const Vec3f behind = background(settings_, y, height_);
        for (int x = 0; x < width_; ++x) {
            const size_t i = size_t(y) * width_ + x;
            const float t = frame_.transmittance[i];
            for (int c = 0; c < 3; ++c) out[i * 3 + c] = frame_.rgb[i * 3 + c] + behind[c] * t;
        }
    }
    return out;
}

std::vector<float> Renderer::rgba() const {
    const size_t pixels = size_t(width_) * height_;
    std::vector<float> out(pixels * 4);
    const std::vector<float> over = settings_.transparent ? frame_.rgb : composite();
    for (size_t i = 0; i < pixels; ++i) {
        for (int c = 0; c < 3; ++c) out[i * 4 + c] = over[i * 3 + c];
        out[i * 4 + 3] = settings_.transparent ? 1.0f - frame_.transmittance[i] : 1.0f;
    }
    return out;
}

Image Renderer::toneMapped() const {
    Image image(width_, height_);
    toneMap(composite(), settings_.exposure, image);
    return image;
}

Image Renderer::render(const VolumeView& volume, int frame) {
    traceImage(volume, frame);
    return toneMapped();
}

std::vector<float> Renderer::renderLinear(const VolumeView& volume, int frame) {
    traceImage(volume, frame);
    return composite();
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
    shading_.setDensity(density.data());
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
    emptySpace_.build(density, lookupApron(cubic_));
    if (active_.empty()) return;

    // Light transmittance over every cell a camera sample can reach (light
    // is read trilinear, also where density is read through the B-spline).
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
    // The camera, framing the volume unless the scene placed it; its rays in
    // grid units (voxels), whose axes agree with the world's.
    const CameraSettings cameraSettings =
        camera_.given
            ? camera_
            : frameBox(volume.worldMin(), volume.worldMax(), float(width_) / float(height_));
    cubic_ = useCubicFilter(settings_.filter, cameraSettings, height_, volume);

    // Pack the volume and the light reaching each cell.
    prepareVolume(volume);

    const Camera camera(cameraSettings, width_, height_);
    const Vec3f eye = (camera.position() - volume.origin) / volume.dx;

    // What every ray shares: the box it is marched through, the frame's grids
    // and the lights.
    Vec3f marchLo, marchHi;
    marchBounds(active_, shading_.n(), lookupApron(cubic_), marchLo, marchHi);
    const InScattering inScattering(directional_, point_, settings_, volume);

    // One jittered ray per pixel, tiles in parallel.
    auto traceTiles = [&](const auto& marcher) {
        parallelForTiles(width_, height_, kTileSize, [&](int x0, int y0, int x1, int y1) {
            InScattering light = inScattering;  // per tile: it holds the phases of the ray at hand
            for (int y = y0; y < y1; ++y) {
                for (int x = x0; x < x1; ++x) {
                    // Clip the ray to the smoke, march the part inside, then add what lies behind.
                    const Ray ray(eye, camera.direction(x, y));
                    RaySum sum;
                    float t0, t1;
                    if (!active_.empty() && clipRay(ray, marchLo, marchHi, t0, t1)) {
                        // The sample's offset inside each interval: hashed, the same for the whole
                        // ray.
                        const float jitter =
                            hashToUnit(hashPixel(x, y, uint32_t(frame), kJitterSeed));
                        sum = marcher.march(ray, t0, t1, jitter, light);
                    }
                    const size_t pixel = size_t(y) * width_ + x;
                    frame_.rgb[pixel * 3 + 0] = sum.radiance.x;
                    frame_.rgb[pixel * 3 + 1] = sum.radiance.y;
                    frame_.rgb[pixel * 3 + 2] = sum.radiance.z;
                    frame_.transmittance[pixel] = sum.transmittance;
                }
            }
        });
    };
    const float sigmaPerVoxel = settings_.extinction * volume.dx;
    if (cubic_)
        traceTiles(RayMarcher<CubicLookup>{shading_, emptySpace_, settings_, sigmaPerVoxel,
                                           temperatureChannel_});
    else
        traceTiles(RayMarcher<LinearLookup>{shading_, emptySpace_, settings_, sigmaPerVoxel,
                                            temperatureChannel_});
}

}  // namespace plume
