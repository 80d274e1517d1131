// The path integrator (render.integrator = "path"): an unbiased volumetric
// path tracer, for reference and hero frames, and what the march's light
// is measured against without Blender.
//
// Null-scattering (delta) tracking through the medium's majorants (render/
// path/medium.h); at every real collision, next-event estimation to the
// suns and point lights (ratio-tracked transmittance), to the sky or
// environment (importance-sampled, weighted against the phase function's
// own sample by the power heuristic) and to the flame (points drawn by its
// light, render/path/emitters.h); the ground and the solids diffuse
// (Lambert), lit alike. Every ray integrates the flame's emission along its
// way at stratified points (the camera ray through ratio-tracked
// transmittance); past a scattering, each point is weighed against
// next-event's draw of it by the power heuristic, so the line takes the
// flame near a vertex (where next-event's 1/r^2 would spike) and next-event
// the flame far off. Russian roulette past
// a few bounces keeps it unbiased without a bounce limit. A pixel's samples
// are jittered over its area, each path's random numbers hashed from pixel,
// sample and frame (render/path/path_random.h): a frame is the same for any
// thread count.
#pragma once

#include <span>

#include "core/image.h"
#include "render/camera.h"
#include "render/light/environment.h"
#include "render/path/medium.h"
#include "render/solids/solid_scene.h"
#include "scene/scene.h"

namespace plume {

struct PathScene {
    const Camera* camera = nullptr;
    const Medium* medium = nullptr;
    Vec3f origin{0.0f};  // world position of the medium's grid corner
    // Lights in the working space: directional ones unit length.
    std::span<const LightSettings> directional, point;
    const Environment* environment = nullptr;
    const SolidScene* solids = nullptr;  // null: nothing solid
    float phase = 0.0f;                  // Henyey-Greenstein g
    int samples = 64;
    int frame = 0;
    // false: the flame's light gathered along the paths alone, without
    // next-event estimation (the same expectation, far noisier; for tests).
    bool flameEvents = true;
};

// Traces every pixel of `image` (its size): the light the smoke and the
// solids send toward the camera in rgb (premultiplied, the background
// left out) and what of the background shows through in transmittance.
void tracePaths(const PathScene& scene, LinearImage& image);

}  // namespace plume
