#include "run/flipbook_renders.h"

#include "render/renderer.h"

namespace plume {

FlipbookRenders::FlipbookRenders(const Scene& scene, bool sixWay, bool motion) {
    if (sixWay) {
        const CameraAxes axes = cameraAxesOf(scene);
        for (int l = 0; l < kSixWayLights; ++l)
            lights_.push_back(
                std::make_unique<Renderer>(sixWayScene(scene, SixWayLight(l), axes)));
        emission_ = std::make_unique<Renderer>(emissionScene(scene));
    }
    if (motion) {
        motion_ = std::make_unique<Renderer>(motionScene(scene));
        motion_->enablePasses();
    }
}

FlipbookRenders::~FlipbookRenders() = default;

void FlipbookRenders::trace(const VolumeView& volume, int renderIndex) {
    // The same jitter as the frame's own render: a lightmap equals the frame
    // rendered under its light.
    for (size_t l = 0; l < lights_.size(); ++l) {
        lights_[l]->trace(volume, renderIndex);
        maps_.light[l] = lights_[l]->rgba();
    }
    if (emission_) {
        emission_->trace(volume, renderIndex);
        maps_.emission = emission_->rgba();
    }
    if (motion_) {
        motion_->trace(volume, renderIndex);
        maps_.motion = motion_->passes()->motion;
    }
}

}  // namespace plume
