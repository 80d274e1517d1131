// Renderer's render passes (render/output/render_passes.h): the frame traced again
// per pass, through the grid, rays and solids the beauty's trace used.
#include <optional>

#include "core/parallel.h"
#include "render/light/in_scattering.h"
#include "render/march/pixel_tracer.h"
#include "render/march/ray_marcher.h"
#include "render/output/compositing.h"
#include "render/renderer.h"

namespace plume {

namespace {

// At a pixel filled between traced ones (pixel_tracer.cpp, render.adaptive),
// every trace interpolates its own traced neighbours and clamps the result
// at 0 where the interpolation overshoots (beside a flame's steep edge). The
// beauty's light overshoots less than one layer's alone (the emission's), so
// there the clamped layers summed to more than the beauty. Each such
// pixel's layers are scaled, channel by channel, to sum to the beauty's
// trace: still at least 0, each in proportion to its share of the light.
// Traced pixels, where the sum holds to float rounding, are left as traced.
void shareFilledPixels(const LinearImage& beauty, const std::vector<uint8_t>& filled,
                       const std::vector<float>& apart, std::vector<PassLayer>& layers) {
    if (filled.size() != beauty.transmittance.size() || layers.empty()) return;
    parallelForRange(beauty.height, [&](int y0, int y1) {
        for (size_t i = size_t(y0) * beauty.width, end = size_t(y1) * beauty.width; i < end; ++i) {
            if (filled[i] == 0) continue;
            for (size_t n = i * 3; n < i * 3 + 3; ++n) {
                float sum = 0.0f;
                for (const PassLayer& layer : layers) sum += layer.rgb[n];
                const float shared =
                    std::max(0.0f, beauty.rgb[n] - (apart.empty() ? 0.0f : apart[n]));
                const float scale = sum > 0.0f ? shared / sum : 0.0f;
                for (PassLayer& layer : layers) layer.rgb[n] *= scale;
            }
        }
    });
}

}  // namespace

void Renderer::tracePasses(const FrameRays& rays, BlurredSolids& blurred,
                           const VolumeView& volume) {
    passes_.width = width_;
    passes_.height = height_;
    size_t used = 0;
    // A part that holds no light this frame (emission where nothing glows,
    // the fire's light where nothing burns) is black without a trace.
    auto dark = [&](const LightPart& part) {
        return !part.sky && part.light < 0 && (!part.emission || temperatureChannel_ < 0) &&
               (!part.fire || fire_.empty());
    };
    // Each layer is a trace of its part of the light, kept in passes_.
    auto layer = [&](const std::string& name, const LightPart& part) {
        if (used == passes_.layers.size()) passes_.layers.emplace_back();
        PassLayer& out = passes_.layers[used++];
        out.name = name;
        if (dark(part)) {
            out.rgb.assign(size_t(width_) * height_ * 3, 0.0f);
            return;
        }
        tracePart(part, rays, blurred, volume, partImage_);
        out.rgb = partImage_.rgb;
    };
    if (settings_.wantsPass("emission")) layer("emission", LightPart::only(true, false, false, -1));
    if (settings_.wantsPass("lights"))
        for (size_t l = 0; l < lightNames_.size(); ++l)
            layer(lightNames_[l], LightPart::only(false, false, false, int(l)));
    int sky = -1;
    if (settings_.wantsPass("sky")) {
        layer("sky", LightPart::only(false, true, false, -1));
        sky = int(used) - 1;
    }
    if (settings_.wantsPass("fire_light"))
        layer("fire_light", LightPart::only(false, false, true, -1));
    passes_.layers.resize(used);
    // The sparks' streaks are in the beauty already and have a layer of their
    // own: only the rest of a filled pixel's light is shared.
    if (rays.fillStride > 1)
        shareFilledPixels(frame_, filled_, sparkPass_ ? sparkLayer_ : std::vector<float>{},
                          passes_.layers);
    // The background is the sky seen directly: behind the frame's own
    // transmittance, as composite() puts it (none when transparent).
    if (sky >= 0 && !settings_.transparent) {
        partImage_.rgb = passes_.layers[size_t(sky)].rgb;
        partImage_.transmittance = frame_.transmittance;
        passes_.layers[size_t(sky)].rgb = plume::composite(partImage_, settings_);
    }

    addSparkPass();

    passes_.depth.clear();
    if (settings_.wantsPass("depth"))
        withMarcher(cubic_, shading_, emptySpace_, settings_, volume.dx, temperatureChannel_,
                    flameChannel_, Vec3f(0.0f), [&](const auto& marcher) {
                        traceDepth(rays, marcher, width_, height_, passes_.depth);
                    });
}

void Renderer::tracePart(const LightPart& part, const FrameRays& rays, BlurredSolids& blurred,
                         const VolumeView& volume, LinearImage& image) {
    // The lights as the part sees them: every light keeps its place (and its
    // channel in the grid), the ones off at intensity 0.
    std::vector<LightSettings> directional = directional_, point = point_;
    for (size_t l = 0; l < directional.size(); ++l)
        if (!part.shines(directionalIndex_[l])) directional[l].intensity = 0.0f;
    for (size_t l = 0; l < point.size(); ++l)
        if (!part.shines(pointIndex_[l])) point[l].intensity = 0.0f;
    RenderSettings settings = settings_;
    if (!part.sky) settings.ambient = Vec3f(0.0f);
    const bool fire = part.fire && !fire_.empty();

    // The light the smoke sends toward the camera, as traceImage fills it.
    InScattering inScattering(directional, point, settings,
                              (albedo_.x + albedo_.y + albedo_.z) / 3.0f, volume);
    if (fire) inScattering.setFireLight(fireChannel_, fire_.color(), &fire_);
    if (settings_.multipleScattering == MultipleScattering::Transport)
        inScattering.setLightCache(&lightCache_);  // the beauty's, filled per unit of each light
    const bool fireApart = cubic_ && !fire_.empty() && !colored_;
    inScattering.setSeenSky(seenSkyChannel_);
    inScattering.fillSource(shading_, lit_, emptySpace_, rays.eye, albedo_, fireApart,
                            cellColors());
    if (cubic_ && seenSkyChannel_ >= 0) sharpenSource(shading_, lit_, emptySpace_, sourceScratch_);
    const Vec3f fireLight = fireApart && fire ? fire_.color() * albedo_ : Vec3f(0.0f);

    // The solids' light (and the moving solids' over the shutter), the same
    // way; the solids themselves are the beauty's.
    std::optional<SurfaceLight> surfaceLight;
    if (rays.solids)
        surfaceLight.emplace(shading_, lit_, directional, point, settings, ground_, volume,
                             *rays.solids, fire ? &fire_ : nullptr);
    if (surfaceLight) surfaceLight->setSky(skyLights_);
    BlurredSolids partBlurred;
    partBlurred.pixels = blurred.pixels;
    partBlurred.scenes = std::move(blurred.scenes);
    for (const auto& scene : partBlurred.scenes)
        partBlurred.lights.emplace_back(shading_, lit_, directional, point, settings, ground_,
                                        volume, *scene, fire ? &fire_ : nullptr);
    const FrameRays partRays{.camera = rays.camera,
                             .eye = rays.eye,
                             .gridOrigin = rays.gridOrigin,
                             .dx = rays.dx,
                             .marchLo = rays.marchLo,
                             .marchHi = rays.marchHi,
                             .smoke = rays.smoke,
                             .solids = rays.solids,
                             .surfaceLight = surfaceLight ? &*surfaceLight : nullptr,
                             .blurred = partBlurred,
                             .frame = rays.frame,
                             .jittered = rays.jittered,
                             .fillStride = rays.fillStride,
                             .replayFill = true};

    if (image.width != width_ || image.height != height_) image = LinearImage(width_, height_);
    withMarcher(
        cubic_, shading_, emptySpace_, settings_, volume.dx,
        part.emission ? temperatureChannel_ : -1, flameChannel_, fireLight,
        [&](const auto& marcher) { traceFrame(partRays, marcher, image, partHitIds_, filled_); });
    blurred.scenes = std::move(partBlurred.scenes);
}

}  // namespace plume
