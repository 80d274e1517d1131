// The per-pixel trace of a frame, as pbrt's ImageTileIntegrator::Render
// calls EvaluatePixelSample: tiles in parallel, every pixel through one
// tracePixel (smoke only, solids, or solids blurred over the shutter), and
// then, with solids, antialiasEdges where a pixel sees another solid than
// a neighbour.
#pragma once

#include <cstdint>
#include <vector>

#include "core/image.h"
#include "core/vec.h"
#include "render/camera.h"
#include "render/march/screen_bounds.h"
#include "render/solids/solid_lighting.h"
#include "render/solids/solid_motion_blur.h"
#include "render/solids/solid_scene.h"

namespace plume {

// What every camera ray of a frame shares.
struct FrameRays {
    const Camera& camera;
    ViewPoint eye;                     // the camera's position in grid units
    Vec3f gridOrigin;                  // where grid point 0 is in the world
    float dx;                          // metres per voxel
    Vec3f marchLo, marchHi;            // the box rays are marched through, grid units
    PixelRect smoke;                   // the pixels whose rays can meet that box
    const SolidScene* solids;          // null: smoke only
    const SurfaceLight* surfaceLight;  // the solids' light, with solids
    const BlurredSolids& blurred;      // moving solids over the shutter
    int frame;                         // seeds the ray jitter
    // Each ray samples its intervals at its own hashed offset; false: every
    // ray at their midpoints (a B-spline frame, whose smoke a step of half a
    // voxel resolves: rayOffset says why).
    bool jittered = true;
    // Trace the pixels this many rows and columns apart (a power of two), and
    // fill between them where they agree; 1: trace every pixel.
    int fillStride = 1;
    // Fill the pixels another trace of this frame filled (traceFrame's
    // `filled`), whatever this one's light: a render pass's layers then add
    // up to the beauty, each pixel made the same way in every one.
    bool replayFill = false;

    // Where the ray through image point (px, py) starts, in grid units: the
    // eye, or its own point of an orthographic camera's image plane.
    Vec3f rayOrigin(float px, float py) const {
        if (!eye.parallel) return eye.eye;
        return (camera.origin(px, py) - gridOrigin) / dx;
    }
};

// The offset (0 to 1) inside each render.step interval at which pixel
// (x, y)'s ray samples, the same for every interval of the ray
// (pixel_tracer.cpp says why): another trace of the frame (the depth pass,
// the deep image) takes the beauty's samples with it.
float rayOffset(int x, int y, const FrameRays& rays);

// Traces every pixel of `image` through `marcher` (a RayMarcher). With
// solids, `hitIds` keeps what each pixel's centre ray hit (-1: a blurred
// pixel, already spread over it), for the anti-aliased edges. With
// rays.fillStride above 1, `filled` says which pixels were filled rather
// than traced (1): written, or with rays.replayFill read.
template <typename Marcher>
void traceFrame(const FrameRays& rays, const Marcher& marcher, LinearImage& image,
                std::vector<int>& hitIds, std::vector<uint8_t>& filled);

// The depth pass (render/output/render_passes.h): for every pixel, the metres along
// its centre ray to where its transmittance falls to 1/2 through the smoke
// `marcher` marches (render/march/depth_march.h) and the solids (kNoDepth where it
// never does). One ray a pixel, at the frame's moment, as Cycles' Z takes
// one sample: no anti-aliasing, no motion blur; a shadow catcher is not in it.
// `depth` holds width * height floats, row 0 at the top.
template <typename Marcher>
void traceDepth(const FrameRays& rays, const Marcher& marcher, int width, int height,
                std::vector<float>& depth);

}  // namespace plume
