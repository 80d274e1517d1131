#include "run/flipbook_renders.h"

#include "render/renderer.h"

namespace plume {

FlipbookRenders::FlipbookRenders(const Scene& scene, bool sixWay, bool motion) {
    if (sixWay) {
        const CameraAxes axes = cameraAxesOf(scene);
        for (int l = 0; l < kSixWayLights; ++l)
            lights_.push_back(sixWayScene(scene, SixWayLight(l), axes));
        emission_ = std::make_unique<Scene>(emissionScene(scene));
    }
    if (motion) motion_ = std::make_unique<Scene>(motionScene(scene));
}

FlipbookRenders::~FlipbookRenders() = default;

namespace {

// One renderer at a time, made for the frame and dropped after it: a
// renderer's grids are the size of the volume, and a six-way frame takes
// seven. The same jitter as the frame's own render (renderIndex), so a
// lightmap is the frame rendered under its light.
std::vector<float> renderedOnce(const Scene& scene, const VolumeView& volume, int renderIndex,
                                std::vector<float>* motion = nullptr) {
    Renderer renderer(scene);
    if (motion) renderer.enablePasses();
    renderer.trace(volume, renderIndex);
    if (motion) *motion = renderer.passes()->motion;
    return renderer.rgba();
}

}  // namespace

void FlipbookRenders::trace(const VolumeView& volume, int renderIndex) {
    for (size_t l = 0; l < lights_.size(); ++l)
        maps_.light[l] = renderedOnce(lights_[l], volume, renderIndex);
    if (emission_) maps_.emission = renderedOnce(*emission_, volume, renderIndex);
    if (motion_) renderedOnce(*motion_, volume, renderIndex, &maps_.motion);
}

}  // namespace plume
