// The per-pixel trace of a frame, as pbrt's ImageTileIntegrator::Render
// calls EvaluatePixelSample: tiles in parallel, every pixel through one
// tracePixel (smoke only, solids, or solids blurred over the shutter), and
// then, with solids, antialiasEdges where a pixel sees another solid than
// a neighbour.
#pragma once

#include <vector>

#include "core/vec.h"
#include "render/camera.h"
#include "render/image.h"
#include "render/screen_bounds.h"
#include "render/solid_lighting.h"
#include "render/solid_motion_blur.h"
#include "render/solid_scene.h"

namespace plume {

// What every camera ray of a frame shares.
struct FrameRays {
    const Camera& camera;
    Vec3f eye;                         // the camera's position in grid units
    float dx;                          // metres per voxel
    Vec3f marchLo, marchHi;            // the box rays are marched through, grid units
    PixelRect smoke;                   // the pixels whose rays can meet that box
    const SolidScene* solids;          // null: smoke only
    const SurfaceLight* surfaceLight;  // the solids' light, with solids
    const BlurredSolids& blurred;      // moving solids over the shutter
    int frame;                         // seeds the ray jitter
};

// Traces every pixel of `image` through `marcher` (a RayMarcher). With
// solids, `hitIds` keeps what each pixel's centre ray hit (-1: a blurred
// pixel, already spread over it), for the anti-aliased edges.
template <typename Marcher>
void traceFrame(const FrameRays& rays, const Marcher& marcher, LinearImage& image,
                std::vector<int>& hitIds);

// The depth pass (render/render_passes.h): for every pixel, the metres along
// its centre ray to where its transmittance falls to 1/2 through the smoke
// `marcher` marches (render/depth_march.h) and the solids (kNoDepth where it
// never does). One ray a pixel, at the frame's moment, as Cycles' Z takes
// one sample: no anti-aliasing, no motion blur; a shadow catcher is not in it.
// `depth` holds width * height floats, row 0 at the top.
template <typename Marcher>
void traceDepth(const FrameRays& rays, const Marcher& marcher, int width, int height,
                std::vector<float>& depth);

}  // namespace plume
