// Unity's six-way lightmaps (VFX Graph's and URP's Six Way shader): the
// smoke lit from each of six directions relative to the camera, so a game
// relights it. Each map is plume's own render of the frame with its lights
// replaced by one directional light of irradiance pi (a white diffuser reads
// 1.0) and no sky, environment or emission; the emission apart, and the
// screen motion for frame blending, from scenes made here too.
#pragma once

#include <array>

#include "core/vec.h"
#include "scene/scene.h"

namespace plume {

// The camera's axes in the world: right and up of the image, back toward the camera.
struct CameraAxes {
    Vec3f right{1, 0, 0}, up{0, 0, 1}, back{0, -1, 0};
};

// Where each map's light comes from, in the order the sheets hold them:
// _Positive R, G, B and _Negative R, G, B. Back is Unity's -Z of the
// particle: the light from behind the smoke, travelling toward the camera
// (backlight); front the light from the camera's side.
enum class SixWayLight { Right, Top, Back, Left, Bottom, Front };
constexpr int kSixWayLights = 6;

// The camera's axes as the renderer frames the scene's first frame (its own
// framing of the domain when the scene gives no camera).
CameraAxes cameraAxesOf(const Scene& scene);

// The way light `light`'s rays travel in the world.
Vec3f sixWayDirection(SixWayLight light, const CameraAxes& axes);

// The scene lit by `light` alone, irradiance pi, white; no sky, environment,
// ground, emission, fire light or passes (a frame's sparks are still drawn).
Scene sixWayScene(const Scene& scene, SixWayLight light, const CameraAxes& axes);
// The scene's emission alone: no light from outside.
Scene emissionScene(const Scene& scene);
// The scene unlit, with the motion pass: its motion is then the smoke's own,
// weighted along each ray by what each sample hides (its opacity).
Scene motionScene(const Scene& scene);

}  // namespace plume
