// Streamlines of the velocity in a slice view's plane (render.view_velocity):
// short lines traced both ways from seeds on a jittered lattice over the
// plane, fading from tail to head so they show the direction, more opaque
// where the flow is faster; none where the air is still.
#pragma once

#include <functional>

#include "core/image.h"
#include "core/vec.h"
#include "render/camera.h"
#include "render/views/slice_sampler.h"

namespace plume {

struct StreamlinePlane {
    int axis = 0;           // the plane's normal
    float position = 0.0f;  // world metres along it
    Vec3f lo, hi;           // the box the plane is drawn over (world metres)
};

// Draws the lines over `image` in `colour` (sRGB 0..1). insideSolid tells
// where a line must stop. The seeds and the drawing order are fixed, and
// overlapping lines take the larger coverage, so the result does not depend
// on the thread count (it is drawn on one).
void drawStreamlines(Image& image, const Camera& camera, const StreamlinePlane& plane,
                     const SliceSampler& sampler, const std::function<bool(Vec3f)>& insideSolid,
                     Vec3f colour);

}  // namespace plume
