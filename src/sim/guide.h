// [guide] (scene/scene.h GuideSettings): a bake that follows another bake's
// motion, as Houdini's guided simulations do. Each substep, on every face,
// the difference between the guide's velocity and the bake's is blurred by a
// Gaussian of `blur` metres, and that low-frequency part is taken into the
// bake by `weight` a frame: the shape and path of the guide's smoke (a
// preview at a few cells) with the finer grid's own detail on it. The blur is
// of the difference, so only the flow's large scale is steered. Every face's
// change depends on the faces of its own island and the guide alone, never
// on the thread that computes it.
#pragma once

#include <memory>

#include "core/grid3.h"
#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// One frame of the guide: its cell-centred velocity (m/s) on its own voxels,
// cell (0, 0, 0)'s min corner at `origin` in the domain's frame.
struct GuideFrame {
    ScalarGrid velocity[3];
    Vec3f origin{0, 0, 0};
    float dx = 1.0f;
    bool empty() const { return velocity[0].size() == 0; }
};

// Where the guide's frames come from (io/guide_cache.h reads a cache).
class GuideFrames {
  public:
    virtual ~GuideFrames() = default;
    // The guide's state at the end of shot frame `index` (from 1); index 0,
    // the start, is still air (an empty frame).
    virtual const GuideFrame& frame(int index) = 0;
};

// Steers f toward the guide at shot frame position `at` (frames from the
// shot's start: between the ends of frames floor(at) and floor(at) + 1,
// blended linearly), for a substep of `frames` frames (its share of the frame).
void addGuide(Fields& f, const GuideSettings& settings, GuideFrames& guide, double at,
              double frames);

}  // namespace plume
