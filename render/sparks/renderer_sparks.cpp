// The renderer's part of the sparks (render/sparks/spark_streaks.h): their
// streaks over the traced frame, and the EXR's `sparks` layer.
#include <algorithm>

#include "render/renderer.h"
#include "render/sparks/spark_streaks.h"

namespace plume {

namespace {
// A spark's glow per unit render.emission: a spark is a solid body, as
// bright as a flame a few tens of centimetres deep at its temperature.
constexpr float kSparkGlowPerEmission = 0.4f;
// The shutter a spark streaks over when render.motion_blur is 0: half a
// frame, a film camera's 180 degrees.
constexpr float kSparkShutterFrames = 0.5f;
}  // namespace

bool Renderer::wantsSparkPass(const Scene& scene) {
    const auto& p = scene.render.passes;
    if (scene.render.view != RenderView::Shaded) return false;
    return std::find(p.begin(), p.end(), "sparks") != p.end() ||
           (scene.hasSparks() && scene.render.wantsPass("sparks"));
}

void Renderer::drawSparkStreaks(const VolumeView& given, const VolumeView& seen,
                                const Camera& camera) {
    if (sparkPass_ && passesOn_) sparkLayer_.assign(size_t(width_) * height_ * 3, 0.0f);
    if (!given.sparks || given.sparks->empty()) return;
    SparkLook look;
    look.extinction = settings_.extinction;
    look.glow = settings_.emission * kSparkGlowPerEmission;
    const float frames = settings_.motionBlur > 0.0f ? settings_.motionBlur : kSparkShutterFrames;
    look.shutter = float(frames / fps_);
    // Hidden by the solids drawn in the frame where they are nearer.
    drawSparks(*given.sparks, camera, seen, look, frame_,
               sparkPass_ && passesOn_ ? &sparkLayer_ : nullptr,
               solids_ && !solids_->empty() ? solids_.get() : nullptr);
}

void Renderer::addSparkPass() {
    if (!sparkPass_) return;
    sparkLayer_.resize(size_t(width_) * height_ * 3, 0.0f);
    passes_.layers.push_back({"sparks", sparkLayer_});
}

}  // namespace plume
