// Renderer: a CPU ray-marcher for smoke. Per frame it packs the volume into a
// ShadingGrid, computes light transmittance once per light, then marches one
// ray per pixel (jittered, or at its intervals' midpoints in a B-spline frame)
// over 16x16 tiles in parallel and tone-maps the result.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/box.h"
#include "core/grid3.h"
#include "core/image.h"
#include "core/volume.h"
#include "render/camera.h"
#include "render/light/environment.h"
#include "render/light/light_rays.h"
#include "render/light/fire_light.h"
#include "render/light/light_cache.h"
#include "render/march/empty_space.h"
#include "render/march/pixel_tracer.h"
#include "render/march/shading_grid.h"
#include "render/output/color_space.h"
#include "render/output/deep_image.h"
#include "render/output/render_passes.h"
#include "render/path/medium.h"
#include "render/solids/solid_lighting.h"
#include "render/solids/solid_motion_blur.h"
#include "render/solids/solid_scene.h"
#include "render/views/slice_view.h"
#include "scene/scene.h"
#include "scene/shot_clock.h"

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
    // lights, the sweep scratch and the linear and 8-bit images; with solids,
    // their triangles and a hit id per pixel.
    static std::uint64_t bytesFor(const Scene& scene, Vec3i cells);
    // Bytes that live only while a traced frame is written out, on top.
    static std::uint64_t writingBytesFor(const Scene& scene);
    // The colour layers render.passes asks of this scene (depth aside).
    static std::uint64_t passLayerCount(const Scene& scene);

    // Traces a frame; the frame number seeds the ray jitter.
    const LinearImage& trace(const VolumeView& volume, int frame);
    // The last traced frame over the background: linear RGB, row 0 at the top.
    std::vector<float> composite() const;
    // The last traced frame as premultiplied linear RGBA: over the background
    // (alpha 1), or with render.transparent only what is in front of it.
    std::vector<float> rgba() const;
    // The last traced frame over the background as 8-bit sRGB.
    Image toneMapped() const;

    // render.passes: trace them after the beauty of every frame from now on
    // (a run asks only when it writes EXR frames, which hold them).
    void enablePasses();
    // The last traced frame's passes, null when none were traced: layers of
    // linear RGB over the background as composite() puts the frame (the
    // background in the sky's; with render.transparent, no background), which
    // sum to it within float rounding.
    const RenderPasses* passes() const { return passesOn_ ? &passes_ : nullptr; }
    // The last traced frame and its passes, to be changed before they are
    // taken: a loop blends them with an earlier frame's (run/loop_blend.h).
    LinearImage& traced() { return frame_; }
    RenderPasses* tracedPasses() { return passesOn_ ? &passes_ : nullptr; }
    // --deep: a deep image of every frame from now on (render/output/deep_image.h),
    // traced after the beauty; deep() is the last frame's, null when off.
    void enableDeep();
    const DeepImage* deep() const { return deepOn_ ? &deep_ : nullptr; }
    // The layer name of each of the scene's lights: its name, or light_N.
    const std::vector<std::string>& lightLayerNames() const { return lightNames_; }

    // The slice view that drew the last frame (render.view other than
    // "shaded"), null for the shaded smoke.
    const SliceView* sliceView() const { return slice_.get(); }

    // trace, then toneMapped / composite.
    Image render(const VolumeView& volume, int frame);
    std::vector<float> renderLinear(const VolumeView& volume, int frame);

  private:
    void placeLights(const std::vector<LightSettings>& lights);
    // The frame again, once per pass, into passes_ (render/output/render_passes.cpp):
    // after traceImage's beauty, through the same grid and rays.
    void tracePasses(const FrameRays& rays, BlurredSolids& blurred, const VolumeView& volume);
    // One trace of the frame with only `part` of its light, into `image`.
    // The deep image and the motion pass, from every pixel's centre ray
    // marched once more (render/output/segment_passes.cpp).
    void traceSegmentPasses(const FrameRays& rays, const VolumeView& volume, int frame);
    void tracePart(const LightPart& part, const FrameRays& rays, BlurredSolids& blurred,
                   const VolumeView& volume, LinearImage& image);
    void placeSolids(const std::vector<ObstacleSettings>& obstacles, const VolumeView& volume);
    // The volume as the rays see it: the smoke blurred over the shutter
    // (render.motion_blur), a flame's own thin density added.
    VolumeView seenVolume(const VolumeView& given, int frame);
    // The moving solids over the shutter and their light; placed by the
    // volume as given, lit through the (blurred) one rendered.
    BlurredSolids blurSolids(int frame, const VolumeView& given, const VolumeView& volume,
                             const Camera& camera);
    // The volume and the light reaching each cell, for a camera at eye (grid units).
    void prepareVolume(const VolumeView& volume, const ViewPoint& eye);
    // The light toward each cell by rays (not with the octaves: render/light/light_rays.h).
    void traceLight(const Box3i& box, const ViewPoint& eye, float sigmaPerVoxel);
    // The smoke's colour (sim/smoke_color.h) in each cell of the lit box
    // into colors_, when the volume has one (renderer_color.cpp).
    void packColors(const VolumeView& volume);
    // colors_ when this frame has them, else null: fillSource's `color`.
    const float* cellColors() const { return colored_ ? colors_.data() : nullptr; }
    void traceImage(const VolumeView& volume, int frame);
    // render.integrator = "path": the frame by the path tracer (render/path/).
    void tracePathFrame(const VolumeView& volume, const Camera& camera, int frame);
    // A visible [environment] behind every pixel, into frame_.background.
    void fillBackground(const Camera& camera);
    // The light cache of this frame (render.multiple_scattering = "transport"),
    // from the sweeps prepareVolume left in the grid.
    void fillLightCache(const VolumeView& volume, const std::vector<Vec3f>& pointGrid);
    // The sparks' streaks over the traced frame, and into sparkLayer_
    // (render/sparks/renderer_sparks.cpp); the `sparks` pass from that layer.
    void drawSparkStreaks(const VolumeView& given, const VolumeView& seen, const Camera& camera);
    void addSparkPass();
    // Whether the EXR holds a `sparks` layer: named in render.passes, or
    // "all" in a scene with sparks.
    static bool wantsSparkPass(const Scene& scene);
    // A slice view's frame (render.view), into sliceImage_ and frame_.
    void traceSlice(const VolumeView& volume);

    std::unique_ptr<Scene> keyed_;  // the scene, when its camera, a light or a solid has keys
    CameraSettings camera_;
    CameraSettings framed_;  // the domain from the front, for a scene with no camera
    std::vector<ObstacleSettings> obstacles_;  // as the scene placed them (keys: per frame)
    GroundSettings ground_;
    std::unique_ptr<SolidScene> solids_;  // when something solid is drawn
    std::vector<int> hitIds_;             // what each pixel's centre ray hit, for anti-aliasing
    std::vector<uint8_t> filled_;         // which pixels the frame filled (render.adaptive)
    SolidsInSweep solidsInSweep_;         // solids as opaque density while lights are swept
    ScalarGrid blurDensity_, blurTemperature_, blurFlame_;  // motion-blurred (render.motion_blur)
    ScalarGrid flameDensity_;  // smoke plus the flame's own thin density (fire)
    ScalarGrid blurColor_[3];  // the smoke's colour motion-blurred, premultiplied
    // The smoke's density the rays see, before a flame's own is added: what
    // the smoke's colour is premultiplied by.
    const ScalarGrid* smokeDensity_ = nullptr;
    // The smoke's colour, three floats a cell (packColors), and its scratch.
    bool colored_ = false;
    std::vector<float> colors_, colorScratch_;
    bool warnedNoVelocity_ = false;
    std::vector<LightSettings> directional_, point_;
    std::vector<int> directionalIndex_, pointIndex_;  // each one's place among the scene's lights
    // The working space it renders in (output.color_space): its colours
    // below are in it, and toneMapped takes the frame back to Rec. 709.
    std::shared_ptr<const WorkingSpace> space_;
    RenderSettings settings_;
    // The light around the scene: render.ambient's sky, or the [environment].
    std::unique_ptr<Environment> environment_;
    bool environmentVisible_ = false;
    Medium medium_;  // the smoke as the path tracer and the light cache read it
    LightCache lightCache_;  // render.multiple_scattering = "transport"
    Vec3f albedo_;     // the smoke's scattering colour
    double fps_;       // frames per second of the shot: a frame's shutter in seconds
    ShotClock clock_;  // the shutter's simulated seconds: time_scale times its own
    int width_, height_;
    LinearImage frame_;
    // A slice view (render.view) draws its frame as 8-bit sRGB directly: a
    // colour map is exact colours, which no tone curve may bend.
    std::unique_ptr<SliceView> slice_;
    Image sliceImage_;
    // Render passes (render.passes), when a run asked for them.
    bool passesOn_ = false;
    std::vector<std::string> lightNames_;  // each scene light's layer
    RenderPasses passes_;
    LinearImage partImage_;          // one pass's trace
    bool sparkPass_ = false;         // wantsSparkPass
    std::vector<float> sparkLayer_;  // the sparks' light alone (the `sparks` pass)
    std::vector<int> partHitIds_;    // its hit ids (the beauty's are kept)
    bool deepOn_ = false;            // --deep
    DeepImage deep_;                 // the last frame's deep image

    // Per-frame state, allocated on the first frame and reused.
    ShadingGrid shading_;  // density, sky, distant lights, point lights, temperature
    int temperatureChannel_ = -1;
    int flameChannel_ = -1;
    int fireChannel_ = -1;  // the fire's light on the smoke, when anything glows
    FireLight fire_;
    bool cubic_ = false;  // this frame reads the grid through the B-spline (render.filter)
    bool sharp_ = false;  // ... over the coefficients of density, temperature and flame
    // The B-spline coefficients of density, temperature and flame (sharp frames).
    std::vector<float> densityCoefficients_, temperatureCoefficients_, flameCoefficients_;
    Box3i active_;  // cells with density above kEmptyDensity
    Box3i lit_;     // cells whose light channels hold this frame's light
    EmptySpace emptySpace_;
    std::vector<ScalarGrid> pointCoarse_;  // for point lights inside the smoke
    std::vector<float> sweepScratch_;
    std::vector<float> sourceScratch_;  // sharpenSource's copy
    LightRays lightRays_;               // without the octaves
    // The sky (or the map) as distant lights for the rays (Environment::skyLights).
    std::vector<SkyLight> skyLights_;
    int seenSkyChannel_ = -1;  // traceSky's light toward the camera; -1 with the octaves
};

}  // namespace plume
