// Motion blur of moving solids: the solids again at kBlurTimes moments spread
// over the shutter; the pixels they cover at any of them average one ray per
// moment, each at its own spot in the pixel (a rotated grid), so the blurred
// edge is anti-aliased too. (The smoke's blur is render/march/motion_blur.h.)
#pragma once

#include <memory>
#include <vector>

#include "core/vec.h"
#include "render/camera.h"
#include "render/march/screen_bounds.h"
#include "render/solids/solid_lighting.h"
#include "render/solids/solid_scene.h"
#include "scene/scene.h"

namespace plume {

constexpr int kBlurTimes = 8;
constexpr float kBlurOffsets[kBlurTimes][2] = {
    {0.0625f, 0.1875f}, {-0.1875f, 0.0625f}, {-0.0625f, -0.1875f}, {0.1875f, -0.0625f},
    {0.3125f, 0.4375f}, {-0.4375f, 0.3125f}, {-0.3125f, -0.4375f}, {0.4375f, -0.3125f}};

// The solids at the moments over the shutter, and the pixels they cover.
struct BlurredSolids {
    std::vector<std::unique_ptr<SolidScene>> scenes;  // one per moment
    std::vector<SurfaceLight> lights;                 // one per scene, filled by the renderer
    PixelRect pixels;                                 // traced at every moment
};

// Places the solids where `keyed`'s keys put them at kBlurTimes moments
// spread evenly over a shutter of `shutterFrames` centred on `frame` (ground,
// centre and horizon as SolidScene::place takes them), and finds the pixels
// where any obstacle's box is at any moment (the still ones too, which is
// only a little more).
BlurredSolids solidsOverShutter(const Scene& keyed, int frame, float shutterFrames,
                                const GroundSettings& ground, Vec3f center, float horizon,
                                const Camera& camera, int width, int height);

}  // namespace plume
