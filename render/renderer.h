// Renderer: a CPU ray-marcher for smoke. Per frame it packs the volume into a
// ShadingGrid, computes light transmittance once per light, then marches one
// jittered ray per pixel over 16x16 tiles in parallel and tone-maps the result.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/box.h"
#include "core/grid3.h"
#include "core/volume.h"
#include "render/camera.h"
#include "render/empty_space.h"
#include "render/image.h"
#include "render/shading_grid.h"
#include "scene/scene.h"

namespace plume {

class Renderer {
  public:
    // Takes camera, lights and render settings; a camera that was not given
    // frames each volume's world box (frameBox).
    explicit Renderer(const Scene& scene);
    ~Renderer();

    // Bytes a renderer of this scene holds once it has rendered a volume of
    // `cells`: the shading grid (density, sky, every light, temperature when
    // it glows), the empty-space blocks, half-resolution grids for point
    // lights, the sweep scratch and the linear and 8-bit images.
    static std::uint64_t bytesFor(const Scene& scene, Vec3i cells);

    // Traces a frame; the frame number seeds the ray jitter.
    const LinearImage& trace(const VolumeView& volume, int frame);
    // The last traced frame over the background: linear RGB, row 0 at the top.
    std::vector<float> composite() const;
    // The last traced frame as premultiplied linear RGBA: over the background
    // (alpha 1), or with render.transparent only what is in front of it.
    std::vector<float> rgba() const;
    // The last traced frame over the background as 8-bit sRGB.
    Image toneMapped() const;

    // trace, then toneMapped / composite.
    Image render(const VolumeView& volume, int frame);
    std::vector<float> renderLinear(const VolumeView& volume, int frame);

  private:
    void placeLights(const std::vector<LightSettings>& lights);
    void prepareVolume(const VolumeView& volume);
    void traceImage(const VolumeView& volume, int frame);

    std::unique_ptr<Scene> keyed_;  // the scene, when its camera or a light has keys
    CameraSettings camera_;
    std::vector<LightSettings> directional_, point_;
    RenderSettings settings_;
    int width_, height_;
    LinearImage frame_;

    // Per-frame state, allocated on the first frame and reused.
    ShadingGrid shading_;  // density, sky, distant lights, point lights, temperature
    int temperatureChannel_ = -1;
    bool cubic_ = false;  // this frame reads the grid through the B-spline (render.filter)
    Box3i active_;        // cells with density above kEmptyDensity
    EmptySpace emptySpace_;
    std::vector<ScalarGrid> pointCoarse_;  // for point lights inside the smoke
    std::vector<float> sweepScratch_;
};

}  // namespace plume
