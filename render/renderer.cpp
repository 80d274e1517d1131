#include "render/renderer.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/activity.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/report.h"
#include "core/triangle_mesh.h"
#include "render/light/in_scattering.h"
#include "render/light/light_transmittance.h"
#include "render/march/cubic.h"
#include "render/march/filter.h"
#include "render/march/motion_blur.h"
#include "render/march/pixel_tracer.h"
#include "render/march/ray_marcher.h"
#include "render/march/screen_bounds.h"
#include "render/light/light_rays.h"
#include "render/output/compositing.h"
#include "render/solids/solid_motion_blur.h"
#include "scene/flame_units.h"

namespace plume {

namespace {

// A B-spline frame marched in steps of at most this many voxels samples
// every ray at its intervals' midpoints (render/march/pixel_tracer.cpp rayOffset).
constexpr float kMidpointStep = 0.5f;

// An infinite ground fades out from this many domain diagonals away.
constexpr float kHorizonDiagonals = 4.0f;

// How far a lamp's or the sun's light spreads sideways per slice it crosses
// (see sweepDirectionalLight): a little.
constexpr float kLightSpread = 0.2f;

// The rays toward a sun, and toward each of the sky's parts (render/light/light_rays.h).
// A ray a voxel, a node a voxel along it: against the path tracer (a sun's
// single scattering alone) 2.0%; rays two voxels apart 7.0%, nodes two
// apart 3.5%.
constexpr LatticeSpacing kSunRays{.across = 1.0f, .along = 1.0f};
constexpr LatticeSpacing kSkyRays{.across = 1.0f, .along = 1.0f};
// The sky's parts: against the path tracer (the sky's single scattering
// alone) 3.1% at 24, 2.8% at 32, 4.6% at 16.
constexpr int kSkyParts = 24;

// `count` directions spread evenly over the sphere (a Fibonacci lattice).
std::vector<Vec3f> sphereLattice(int count) {
    std::vector<Vec3f> d(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        const float z = 1.0f - (2.0f * float(i) + 1.0f) / float(count);
        const float r = std::sqrt(std::max(0.0f, 1.0f - z * z));
        const float phi = float(i) * 2.39996323f;  // the golden angle
        d[size_t(i)] = Vec3f(r * std::cos(phi), r * std::sin(phi), z);
    }
    return d;
}

// Cells beyond the active ones a density lookup reaches: one for trilinear,
// two for the B-spline.
int lookupApron(bool cubic) { return cubic ? 2 : 1; }
// Cells beyond the active ones whose light a sample reads: trilinear light
// reads at most two (where the B-spline sees density), the B-spline of the
// light three (its 4x4x4 taps, the farthest of which may hold density).
int lightApron(bool cubic) { return cubic ? 3 : 2; }

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

// 8-bit sRGB back to linear light (the inverse of srgbEncode).
float srgbDecode(float v) {
    return v <= 0.04045f ? v / 12.92f : std::pow((v + 0.055f) / 1.055f, 2.4f);
}

}  // namespace

Renderer::Renderer(const Scene& scene)
    : camera_(scene.camera),
      // Without a camera from the scene: the whole domain from the front, held
      // for the shot (framing the smoke would move the camera as it grows).
      framed_(frameBox(scene.domain.origin, scene.domain.origin + scene.domain.size,
                       float(scene.render.width) / float(std::max(1, scene.render.height)))),
      space_(workingSpace(scene)),
      settings_(scene.render),
      // Smoke made only by fire is drawn in its own colour (soot is dark);
      // other smoke scatters render.albedo of the light, grey.
      albedo_(scene.smokeOnlyFromFire() ? scene.physics.flameSmokeColor
                                        : Vec3f(scene.render.albedo)),
      fps_(scene.time.fps),
      clock_(scene),
      width_(scene.render.width),
      height_(scene.render.height),
      frame_(width_, height_),
      sparkPass_(wantsSparkPass(scene)) {
    if (width_ <= 0 || height_ <= 0)
        throw InputError("render.width and render.height must be positive");
    if (!(settings_.step > 0.0f)) throw InputError("render.step must be positive");
    // The scene's colours are linear Rec. 709: the sky's and the smoke's are
    // made in the working space here, the lights' and solids' as they are
    // placed, the blackbody's from its XYZ (render/light/planck.h).
    useBlackbodySpace(*space_);
    settings_.ambient = space_->in(settings_.ambient);
    settings_.backgroundTop = space_->in(settings_.backgroundTop);
    settings_.backgroundBottom = space_->in(settings_.backgroundBottom);
    albedo_ = space_->albedo(albedo_);
    if (scene.environment.given()) {
        if (!scene.environment.map)
            throw RunError("renderer: environment.file '" + scene.environment.filePath +
                           "' was not read (io/environment_file.h)");
        environment_ = std::make_unique<Environment>(scene.environment, *space_);
        environmentVisible_ = scene.environment.visible;
        // The march's sky is one radiance from every direction: the map's mean.
        settings_.ambient = environment_->mean();
    } else {
        environment_ = std::make_unique<Environment>(settings_.ambient);
    }
    settings_.multipleScattering = scene.multipleScatteringOf();
    if (settings_.multipleScattering != MultipleScattering::Octaves)
        skyLights_ = environment_->skyLights(sphereLattice(kSkyParts));
    placeLights(scene.lights);
    for (size_t l = 0; l < scene.lights.size(); ++l)
        lightNames_.push_back(scene.lights[l].name.empty() ? "light_" + std::to_string(l + 1)
                                                           : scene.lights[l].name);
    obstacles_ = scene.obstacles;
    ground_ = scene.ground;
    const bool visibleSolids = std::any_of(scene.obstacles.begin(), scene.obstacles.end(),
                                           [](const ObstacleSettings& o) { return o.visible; });
    if (visibleSolids || ground_.enabled) solids_ = std::make_unique<SolidScene>();
    // A keyed camera, light or solid is placed again for every frame.
    if (scene.viewMoves()) keyed_ = std::make_unique<Scene>(scene);
    if (scene.render.view != RenderView::Shaded) slice_ = std::make_unique<SliceView>(scene);
}

Renderer::~Renderer() = default;

void Renderer::placeLights(const std::vector<LightSettings>& lights) {
    directional_.clear();
    point_.clear();
    directionalIndex_.clear();
    pointIndex_.clear();
    for (size_t l = 0; l < lights.size(); ++l) {
        const LightSettings& light = lights[l];
        if (light.type == LightType::Directional) {
            if (length(light.direction) == 0.0f) continue;  // lights nothing
            directional_.push_back(light);
            directional_.back().direction = normalize(light.direction);
            directional_.back().color = space_->in(light.color);
            directionalIndex_.push_back(int(l));
        } else {
            point_.push_back(light);
            point_.back().color = space_->in(light.color);
            pointIndex_.push_back(int(l));
        }
    }
}

void Renderer::placeSolids(const std::vector<ObstacleSettings>& obstacles,
                           const VolumeView& volume) {
    if (!solids_) return;
    const Vec3f lo = volume.worldMin(), hi = volume.worldMax();
    if (!space_->rec709) {
        std::vector<ObstacleSettings> working = obstacles;
        for (ObstacleSettings& o : working) o.color = space_->albedo(o.color);
        GroundSettings ground = ground_;
        ground.color = space_->albedo(ground.color);
        solids_->place(working, ground, (lo + hi) * 0.5f, kHorizonDiagonals * length(hi - lo));
        return;
    }
    solids_->place(obstacles, ground_, (lo + hi) * 0.5f, kHorizonDiagonals * length(hi - lo));
}

std::uint64_t Renderer::bytesFor(const Scene& scene, Vec3i n) {
    const std::uint64_t cells = std::uint64_t(n.x) * n.y * n.z;
    std::uint64_t points = 0;
    for (const LightSettings& light : scene.lights) points += light.type == LightType::Point;
    // A fire's flame glows by render.emission, hot smoke where nothing burns
    // by render.heat_glow.
    const bool fire = scene.burns() && scene.render.emission > 0.0f;
    const bool glows = fire || (!scene.burns() && scene.render.heatGlow > 0.0f);
    // Temperature; with a fire, the flame and its light on the smoke.
    // and the light sent toward the camera (four floats).
    // Without the octaves, the sky's light toward the camera (three).
    const bool rays = scene.multipleScatteringOf() != MultipleScattering::Octaves;
    const std::uint64_t channels = kFirstLightChannel + scene.lights.size() + (glows ? 1 : 0) +
                                   (fire ? 2 : 0) + (rays ? 3 : 0) + 4;
    const std::uint64_t half = std::uint64_t((n.x + 1) / 2) * ((n.y + 1) / 2) * ((n.z + 1) / 2);
    const std::uint64_t nx = std::uint64_t(n.x), ny = std::uint64_t(n.y), nz = std::uint64_t(n.z);
    const std::uint64_t slice = std::max({nx * ny, ny * nz, nx * nz});
    const std::uint64_t pixels = std::uint64_t(scene.render.width) * scene.render.height;
    // Drawn solids: a hit id per pixel, and each mesh's world points and
    // normals beside Embree's copy and its tree (about 64 bytes a triangle).
    std::uint64_t solids = 0;
    for (const ObstacleSettings& o : scene.obstacles) {
        if (!o.visible) continue;
        solids = std::max<std::uint64_t>(solids, pixels * sizeof(int));
        if (o.surface)
            solids +=
                o.surface->points.size() * 3 * sizeof(Vec3f) + o.surface->triangles.size() * 64;
    }
    if (scene.ground.enabled) solids = std::max<std::uint64_t>(solids, pixels * sizeof(int));
    // Motion blur: the blurred density (and temperature, when it glows, and
    // the smoke's colour).
    if (scene.render.motionBlur > 0.0f)
        solids += cells * sizeof(float) * ((glows ? 2 : 1) + (scene.colored() ? 3 : 0));
    // The smoke's colour: three floats a cell and as many of scratch.
    if (scene.colored()) solids += 6 * cells * sizeof(float);
    // A sharp frame: the B-spline coefficients of density, temperature, flame.
    if (scene.render.filter == RenderFilter::Sharp)
        solids += cells * sizeof(float) * (1 + (glows ? 1 : 0) + (fire ? 1 : 0));
    // The traced frame: RGB and transmittance (writingBytesFor: what writing
    // it takes on top).
    // A slice view holds, per pixel, its value, whether a solid is there,
    // the 8-bit frame and the streamlines' coverage; no shading grid. What it
    // shows of the solver is made for it (run/slice_grids.h): the pressure
    // summed over a substep's solves (double) and in pascals, or the
    // divergence, per cell.
    if (scene.render.view != RenderView::Shaded) {
        const std::uint64_t grids =
            scene.render.view == RenderView::Pressure     ? cells * (sizeof(double) + sizeof(float))
            : scene.render.view == RenderView::Divergence ? cells * sizeof(float)
                                                          : 0;
        return pixels * (4 * sizeof(float) + 1 + 3 + sizeof(float)) + 3 * pixels + grids;
    }
    // Render passes: each layer's RGB, a pass's trace (RGB, transmittance and
    // hit ids) and the depth.
    const std::uint64_t layers = passLayerCount(scene);
    const std::uint64_t passes =
        layers == 0 && !scene.render.wantsPass("depth")
            ? 0
            : (layers * 3 + 4 + 1 + (scene.render.wantsPass("depth") ? 1 : 0)) * pixels;
    return (channels * cells + cells / 512 + points * half + 5 * slice + 4 * pixels + passes) *
               sizeof(float) +
           3 * pixels + solids + (fire ? FireLight::bytesFor(n) : 0);
}

std::uint64_t Renderer::passLayerCount(const Scene& scene) {
    const RenderSettings& r = scene.render;
    if (r.view != RenderView::Shaded) return 0;
    return (r.wantsPass("emission") ? 1 : 0) + (r.wantsPass("lights") ? scene.lights.size() : 0) +
           (r.wantsPass("sky") ? 1 : 0) + (r.wantsPass("fire_light") ? 1 : 0) +
           (wantsSparkPass(scene) ? 1 : 0);
}

std::uint64_t Renderer::writingBytesFor(const Scene& scene) {
    // The composite over the background (RGB) and premultiplied RGBA (EXR,
    // transparent PNG), floats; with render passes, the EXR's halves of
    // every layer (and the depth's floats).
    const std::uint64_t pixels = std::uint64_t(scene.render.width) * scene.render.height;
    const std::uint64_t layers = passLayerCount(scene);
    const bool depth = scene.render.wantsPass("depth");
    if (layers == 0 && !depth) return pixels * (3 + 4) * sizeof(float);
    return pixels * (3 + 4) * sizeof(float) + pixels * (4 + layers * 3) * 2 +
           (depth ? pixels * sizeof(float) : 0);
}

const LinearImage& Renderer::trace(const VolumeView& volume, int frame) {
    traceImage(volume, frame);
    return frame_;
}

std::vector<float> Renderer::composite() const {
    if (slice_) return std::vector<float>(frame_.rgb);
    return plume::composite(frame_, settings_);
}

std::vector<float> Renderer::rgba() const {
    if (!slice_) return plume::rgba(frame_, settings_);
    // Opaque, whatever render.transparent says: the view covers the frame.
    std::vector<float> out(size_t(width_) * height_ * 4);
    for (size_t n = 0; n < size_t(width_) * height_; ++n) {
        for (int c = 0; c < 3; ++c) out[n * 4 + c] = frame_.rgb[n * 3 + c];
        out[n * 4 + 3] = 1.0f;
    }
    return out;
}

Image Renderer::toneMapped() const {
    if (slice_) return sliceImage_;
    return plume::toneMapped(frame_, settings_, *space_);
}

Image Renderer::render(const VolumeView& volume, int frame) {
    traceImage(volume, frame);
    return toneMapped();
}

std::vector<float> Renderer::renderLinear(const VolumeView& volume, int frame) {
    traceImage(volume, frame);
    return composite();
}

void Renderer::prepareVolume(const VolumeView& volume, const ViewPoint& eye) {
    if (!volume.density) throw RunError("renderer: the volume has no density grid");
    const ScalarGrid& density = *volume.density;
    const Vec3i n{density.nx(), density.ny(), density.nz()};
    // A flame glows by render.emission; hot smoke where nothing burns (no
    // flame grid) by render.heat_glow.
    const bool glows = volume.flame ? settings_.emission > 0.0f : settings_.heatGlow > 0.0f;
    const ScalarGrid* temperature = glows ? volume.temperature : nullptr;
    if (temperature &&
        (temperature->nx() != n.x || temperature->ny() != n.y || temperature->nz() != n.z))
        throw RunError("renderer: temperature and density grids differ in size");

    // Pack density (and temperature) per cell; find the active box per z-slab.
    int channels = kFirstLightChannel + int(directional_.size() + point_.size());
    temperatureChannel_ = temperature ? channels++ : -1;
    // A fire glows only where its flame is.
    const ScalarGrid* flame = temperature ? volume.flame : nullptr;
    if (flame && (flame->nx() != n.x || flame->ny() != n.y || flame->nz() != n.z))
        throw RunError("renderer: flame and density grids differ in size");
    flameChannel_ = flame ? channels++ : -1;
    // Only a flame lights what is around it: the glow of hot smoke without
    // one (render.heat_glow) is a colour ramp on heat and lights nothing.
    fireChannel_ = flame ? channels++ : -1;
    const bool rays = settings_.multipleScattering != MultipleScattering::Octaves;
    seenSkyChannel_ = rays ? channels : -1;
    if (rays) channels += 3;
    shading_.resize(n, channels);
    shading_.setDensity(density.data());
    // A cubic frame reads density, temperature and flame through the
    // B-spline over their values, a sharp one over their coefficients
    // (render/march/cubic.h), worked out once.
    if (sharp_) {
        bsplineCoefficients(density.data(), n, densityCoefficients_);
        if (temperature) bsplineCoefficients(temperature->data(), n, temperatureCoefficients_);
        if (flame) bsplineCoefficients(flame->data(), n, flameCoefficients_);
        shading_.setCoefficients(densityCoefficients_.data(),
                                 temperature ? temperatureCoefficients_.data() : nullptr,
                                 flame ? flameCoefficients_.data() : nullptr);
    } else {
        shading_.setCoefficients(density.data(), temperature ? temperature->data() : nullptr,
                                 flame ? flame->data() : nullptr);
    }
    auto packSlab = [&](int k) {
        Box3i box;
        for (int j = 0; j < n.y; ++j) {
            size_t row = density.index(0, j, k);
            for (int i = 0; i < n.x; ++i) {
                float* cell = shading_.cell(row + i);
                cell[0] = density[row + i];
                if (temperature) cell[temperatureChannel_] = (*temperature)[row + i];
                if (flame) cell[flameChannel_] = (*flame)[row + i];
            }
            // The row is in cache: find its smoke now rather than in a pass of its own.
            box = unite(box, activeSpan(&density[row], n.x, [](float rho) {
                                 return rho > kEmptyDensity;
                             }).box(j, k));
        }
        return box;
    };
    active_ = deterministicReduce(n.z, Box3i{}, packSlab, unite);

    // Largest density per block, for empty-space skipping. The light is
    // filled (InScattering::fillSource) in the blocks this does not skip, so
    // with the light read through the B-spline they take its apron.
    emptySpace_.build(density, cubic_ ? lightApron(cubic_) : lookupApron(cubic_), &active_);
    lit_ = Box3i{};
    const SolidScene* solids = solids_ && solids_->hasObstacles() ? solids_.get() : nullptr;
    const Box3i solidBox = solids ? solidCells(*solids, volume, n) : Box3i{};
    if (active_.empty() && solidBox.empty()) {
        // No fire either.
        fire_.clear();
        return;
    }

    // Light transmittance over every cell a camera sample can reach, and
    // around the solids, which shadow the smoke and the ground through it
    // (lightApron).
    Box3i sweepBox = active_.empty() ? Box3i{} : grow(active_, lightApron(cubic_), n);
    if (!solidBox.empty()) sweepBox = unite(sweepBox, grow(solidBox, 2, n));
    lit_ = sweepBox;
    const float sigmaPerVoxel = settings_.extinction * volume.dx;
    if (solids) solidsInSweep_.add(shading_, sweepBox, volume, sigmaPerVoxel, *solids);
    // The octaves were fitted to depths carried from slice to slice.
    const SweepCarry carry = rays ? SweepCarry::Transmittance : SweepCarry::Depth;
    if (rays) {
        traceLight(sweepBox, eye, sigmaPerVoxel);
    } else {
        sweepSkyOpenness(shading_, sweepBox, sigmaPerVoxel, sweepScratch_, carry,
                         environment_.get());
        for (size_t l = 0; l < directional_.size(); ++l)
            sweepDirectionalLight(shading_, sweepBox, directional_[l].direction, sigmaPerVoxel,
                                  kLightSpread, kFirstLightChannel + int(l), sweepScratch_, carry);
    }
    pointCoarse_.resize(point_.size());
    for (size_t l = 0; l < point_.size(); ++l)
        pointLightTransmittance(shading_, sweepBox,
                                (point_[l].position - volume.origin) / volume.dx, sigmaPerVoxel,
                                kLightSpread, kFirstLightChannel + int(directional_.size() + l),
                                sweepScratch_, pointCoarse_[l], carry);
    // The fire's glow lights the smoke around it, and the solids take
    // their part of it too. Its lamps are gathered from the box trilinear
    // light takes, whichever the filter: from the cubic frame's wider one
    // they fell a cell apart, and the 24^3 fire's cores came out 8 levels
    // dimmer (tests/golden/fire.png).
    const Box3i lampBox = active_.empty() ? Box3i{} : grow(active_, lightApron(false), n);
    fire_.build(shading_, sweepBox, settings_,
                {.temperatureChannel = temperatureChannel_,
                 .flameChannel = flameChannel_,
                 .outChannel = fireChannel_,
                 .sigmaPerVoxel = sigmaPerVoxel,
                 .voxelMetres = volume.dx,
                 .albedo = (albedo_.x + albedo_.y + albedo_.z) / 3.0f,
                 .cubic = cubic_,
                 .lampBox = lampBox});
    if (solids) solidsInSweep_.remove(shading_);
}

void Renderer::traceLight(const Box3i& box, const ViewPoint& eye, float sigmaPerVoxel) {
    lightRays_.start(shading_, box, sigmaPerVoxel);
    // The openness also weighs the fire's light (FireLight::shadeSmoke), with the sky black too.
    lightRays_.traceSky(shading_, skyLights_, eye, settings_.phase, kSkyRays,
                        {.openness = kSkyChannel, .seen = seenSkyChannel_});
    for (size_t l = 0; l < directional_.size(); ++l)
        lightRays_.traceDepth(shading_, directional_[l].direction, kSunRays,
                              kFirstLightChannel + int(l));
}

VolumeView Renderer::seenVolume(const VolumeView& given, int frame) {
    // Motion blur: the smoke averaged along its velocity over the shutter.
    const bool blurSmoke =
        settings_.motionBlur > 0.0f && given.velocity[0] && given.velocity[1] && given.velocity[2];
    if (settings_.motionBlur > 0.0f && !blurSmoke && !warnedNoVelocity_) {
        warn(
            "render.motion_blur: this volume has no velocity, so its smoke is not blurred "
            "(solids are)");
        warnedNoVelocity_ = true;
    }
    // The velocity is per simulated second: in slow motion a shutter holds less of it.
    const double shutter = settings_.motionBlur / fps_ * clock_.scale(double(frame) / fps_);
    VolumeView volume = blurSmoke ? blurAlongVelocity(given, float(shutter), blurDensity_,
                                                      blurTemperature_, blurFlame_, blurColor_)
                                  : given;
    smokeDensity_ = volume.density;
    // A flame is hot gas with little smoke in it: it gets a thin density of
    // its own, so the march finds it where no smoke was made yet.
    if (volume.flame && volume.temperature && settings_.emission > 0.0f) {
        flameDensity_ = *volume.density;
        const std::vector<float>& flame = volume.flame->values();
        std::vector<float>& rho = flameDensity_.values();
        for (size_t c = 0; c < rho.size(); ++c) rho[c] += kFlameDensity * flame[c];
        volume.density = &flameDensity_;
    }
    return volume;
}

void Renderer::traceImage(const VolumeView& given, int frame) {
    // The camera, the lights and the solids where their keys put them at this frame.
    if (keyed_) {
        const Scene now = keyed_->atFrame(double(frame));
        camera_ = now.camera;
        placeLights(now.lights);
        obstacles_ = now.obstacles;
    }
    if (slice_) {
        traceSlice(given);
        return;
    }
    const VolumeView volume = seenVolume(given, frame);
    placeSolids(obstacles_, given);  // placed by the volume as given, blurred or not

    // The camera, the domain's framing unless the scene placed it; its rays in
    // grid units (voxels), whose axes agree with the world's.
    const CameraSettings& cameraSettings = camera_.given ? camera_ : framed_;
    cubic_ = useCubicFilter(settings_.filter, cameraSettings, height_, volume,
                            float(width_) / float(height_));
    sharp_ = settings_.filter == RenderFilter::Sharp;
    const Camera camera(cameraSettings, width_, height_);
    fillBackground(camera);
    if (settings_.integrator == Integrator::Path) {
        tracePathFrame(volume, camera, frame);
        // The sparks' streaks over it, as over the march's frame: they need
        // the volume and the solids, not the march's grid.
        drawSparkStreaks(given, volume, camera);
        return;
    }

    // Pack the volume and the light reaching each cell, and the smoke's colour.
    const ViewPoint eye = camera.viewPoint(volume.origin, volume.dx);
    prepareVolume(volume, eye);
    packColors(volume);

    // The light every sample of the smoke sends toward the camera, and the
    // light on the solids.
    InScattering inScattering(directional_, point_, settings_,
                              (albedo_.x + albedo_.y + albedo_.z) / 3.0f, volume);
    if (!fire_.empty()) inScattering.setFireLight(fireChannel_, fire_.color(), &fire_);
    if (settings_.multipleScattering == MultipleScattering::Transport) {
        fillLightCache(volume, inScattering.pointGrid());
        inScattering.setLightCache(&lightCache_);
    }
    // The B-spline would dim the fire's light where it peaks, within a voxel
    // or two of its lamps: apart, for Catmull-Rom (ShadingGrid::smoothSourceAt).
    // (Not with the smoke's colour, which the fire's light lane would not carry.)
    const bool fireApart = cubic_ && !fire_.empty() && !colored_;
    shading_.setPacksDensity(cubic_ && !fireApart);
    inScattering.setSeenSky(seenSkyChannel_);
    inScattering.fillSource(shading_, lit_, emptySpace_, eye, albedo_, fireApart, cellColors());
    if (cubic_ && seenSkyChannel_ >= 0) sharpenSource(shading_, lit_, emptySpace_, sourceScratch_);
    const Vec3f fireLight = fireApart ? fire_.color() * albedo_ : Vec3f(0.0f);
    const SolidScene* solids = solids_ && !solids_->empty() ? solids_.get() : nullptr;
    std::optional<SurfaceLight> surfaceLight;
    if (solids)
        surfaceLight.emplace(shading_, lit_, directional_, point_, settings_, ground_, volume,
                             *solids, &fire_);
    if (surfaceLight) surfaceLight->setSky(skyLights_);
    BlurredSolids blurred = solids ? blurSolids(frame, given, volume, camera) : BlurredSolids{};

    // What every ray shares: the box it is marched through and the pixels
    // that can see it (none without smoke), the solids and their light.
    Vec3f marchLo, marchHi;
    marchBounds(active_, shading_.n(), lookupApron(cubic_), marchLo, marchHi);
    const WorldBox marchBox{volume.origin + marchLo * volume.dx,
                            volume.origin + marchHi * volume.dx};
    // Where a voxel spans several pixels, a sparse grid of them traced and
    // the rest filled where smooth (render/march/filter.h).
    const int fill = cubic_ && settings_.adaptive
                         ? fillStride(pixelsPerVoxel(cameraSettings, height_, volume,
                                                     float(width_) / float(height_)))
                         : 1;
    const FrameRays rays{
        .camera = camera,
        .eye = eye,
        .gridOrigin = volume.origin,
        .dx = volume.dx,
        .marchLo = marchLo,
        .marchHi = marchHi,
        .smoke = active_.empty() ? PixelRect{} : screenBounds(camera, width_, height_, marchBox),
        .solids = solids,
        .surfaceLight = solids ? &*surfaceLight : nullptr,
        .blurred = blurred,
        .frame = frame,
        .jittered = !cubic_ || settings_.step > kMidpointStep,
        .fillStride = fill};

    // Every pixel, for the density lookup this frame uses.
    withMarcher(cubic_, shading_, emptySpace_, settings_, volume.dx, temperatureChannel_,
                flameChannel_, fireLight,
                [&](const auto& marcher) { traceFrame(rays, marcher, frame_, hitIds_, filled_); });

    drawSparkStreaks(given, volume, camera);

    // render.passes: the frame again, a part of its light at a time.
    // The deep image and the motion pass through the beauty's light, before
    // the passes refill the grid with a part of it at a time.
    if (deepOn_ || (passesOn_ && settings_.wantsPass("motion")))
        traceSegmentPasses(rays, given, frame);
    if (passesOn_) tracePasses(rays, blurred, volume);
}

void Renderer::traceSlice(const VolumeView& given) {
    const CameraSettings& cameraSettings = camera_.given ? camera_ : framed_;
    sliceImage_ = Image(width_, height_, 3);
    slice_->draw(given, cameraSettings, obstacles_, sliceImage_);
    // The same colours as linear light, for EXR frames (alpha 1: nothing of
    // the background shows through).
    float decode[256];
    for (int v = 0; v < 256; ++v) decode[v] = srgbDecode(float(v) / 255.0f);
    for (size_t n = 0; n < sliceImage_.pixels.size(); ++n)
        frame_.rgb[n] = decode[sliceImage_.pixels[n]];
    std::fill(frame_.transmittance.begin(), frame_.transmittance.end(), 0.0f);
}

BlurredSolids Renderer::blurSolids(int frame, const VolumeView& given, const VolumeView& volume,
                                   const Camera& camera) {
    if (!(settings_.motionBlur > 0.0f) || !keyed_ || !keyed_->shownSolidsMove()) return {};
    const Vec3f lo = given.worldMin(), hi = given.worldMax();
    BlurredSolids out =
        solidsOverShutter(*keyed_, frame, settings_.motionBlur, ground_, (lo + hi) * 0.5f,
                          kHorizonDiagonals * length(hi - lo), camera, width_, height_);
    for (const auto& scene : out.scenes)
        out.lights.emplace_back(shading_, lit_, directional_, point_, settings_, ground_, volume,
                                *scene, &fire_);
    return out;
}

}  // namespace plume
