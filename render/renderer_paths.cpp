// The frame's light by paths: the path tracer's frame (render.integrator =
// "path"), the march's light cache (render.multiple_scattering = "transport")
// and a visible environment behind every pixel.
#include "core/parallel.h"
#include "core/report.h"
#include "render/path/path_tracer.h"
#include "render/renderer.h"

namespace plume {

namespace {

// Paths each light cache cell sends (render/light/light_cache.h).
constexpr int kLightCachePaths = 16;

}  // namespace

// The path tracer draws the beauty alone: what it leaves out is said once.
void Renderer::enablePasses() {
    if (settings_.passes.empty() || slice_) return;
    if (settings_.integrator == Integrator::Path) {
        warn("render.passes: render.integrator = \"path\" traces the beauty only; the EXR "
             "frames hold no passes");
        return;
    }
    passesOn_ = true;
}

// The deep sink refuses the path integrator before the run (run/deep_sink.cpp).
void Renderer::enableDeep() { deepOn_ = !slice_ && settings_.integrator != Integrator::Path; }

void Renderer::tracePathFrame(const VolumeView& volume, const Camera& camera, int frame) {
    medium_.build(volume, smokeDensity_, settings_, albedo_,
                  sharp_ ? MediumFilter::Sharp : cubic_ ? MediumFilter::Cubic : MediumFilter::Linear,
                  *space_);
    const SolidScene* solids = solids_ && !solids_->empty() ? solids_.get() : nullptr;
    const PathScene scene{.camera = &camera,
                          .medium = &medium_,
                          .origin = volume.origin,
                          .directional = directional_,
                          .point = point_,
                          .environment = environment_.get(),
                          .solids = solids,
                          .phase = settings_.phase,
                          .samples = settings_.samples,
                          .frame = frame};
    tracePaths(scene, frame_);
}

void Renderer::fillLightCache(const VolumeView& volume, const std::vector<Vec3f>& pointGrid) {
    // The density as the camera's rays read it: the cache's paths through
    // trilinear density in a cubic frame came out 2% dark against the path
    // tracer's (sun alone), for 30% more of the cache's time.
    medium_.build(volume, smokeDensity_, settings_, albedo_,
                  cubic_ ? MediumFilter::Cubic : MediumFilter::Linear, *space_);
    const LightCache::Lights lights{.directional = directional_,
                                    .pointGrid = pointGrid,
                                    .dx = volume.dx,
                                    .phase = settings_.phase};
    lightCache_.fill(shading_, lit_, medium_, lights, settings_.lightCacheResolution,
                     kLightCachePaths);
}

void Renderer::fillBackground(const Camera& camera) {
    if (!environmentVisible_) {
        frame_.background.clear();
        return;
    }
    frame_.background.resize(size_t(width_) * height_ * 3);
    parallelForRange(height_, [&](int y0, int y1) {
        for (int y = y0; y < y1; ++y)
            for (int x = 0; x < width_; ++x) {
                const Vec3f c = environment_->radiance(camera.direction(x, y));
                float* out = &frame_.background[(size_t(y) * width_ + x) * 3];
                out[0] = c.x, out[1] = c.y, out[2] = c.z;
            }
    });
}

}  // namespace plume
