// SliceView: a frame of one field on a plane (render.view other than
// "shaded", render.slice), seen through the scene's camera: each pixel's
// ray meets the plane, the field is sampled there trilinearly and coloured
// (viridis, or cool-warm centred on zero for signed fields), obstacles cut by
// the plane are grey, streamlines of the in-plane velocity go on top
// (render.view_velocity), and a colour bar with the range and units sits in
// the top-right corner.
#pragma once

#include <string>
#include <vector>

#include "core/image.h"
#include "core/vec.h"
#include "core/volume.h"
#include "render/views/colour_map.h"
#include "scene/scene.h"
#include "scene/slice_spec.h"

namespace plume {

// The colour bar of a drawn frame: lo and hi are its ends (lo = -hi for a
// signed field); peak is the largest |value| the frame's pixels saw, which
// (with render.view_range = 0) hi rounds up to 1, 1.5, 2, 3, 4, 5, 6 or 8
// times a power of ten.
struct ViewRange {
    float lo = 0.0f, hi = 1.0f;
    float peak = 0.0f;
    bool isSigned = false;
};

// Whether a view's values have a sign, and its map.
bool signedView(RenderView view);
// "pressure", and its units on the bar ("Pa").
std::string viewName(RenderView view);
std::string viewUnits(RenderView view);

// The default plane: the middle of [lo, hi] along the axis nearest the
// camera's view direction (a camera not given looks along +y: frameBox).
SliceSpec defaultSlice(const CameraSettings& camera, Vec3f lo, Vec3f hi);

class SliceView {
  public:
    // Throws InputError for a render.slice that does not parse.
    explicit SliceView(const Scene& scene);

    // The frame of `volume`'s field as `camera` sees the plane, with the
    // obstacles where they are at this frame, 8-bit sRGB into `image`.
    // Throws RunError when the volume lacks the field the view shows.
    void draw(const VolumeView& volume, const CameraSettings& camera,
              const std::vector<ObstacleSettings>& obstacles, Image& image);

    const ViewRange& range() const { return range_; }
    // The field at the plane point each pixel sees, row 0 at the top; NaN
    // off the plane, outside the box it is drawn over, or in a solid.
    const std::vector<float>& values() const { return values_; }
    // The plane drawn (the given one, or the default of the first frame),
    // in world metres as render.slice gives it.
    const SliceSpec& plane() const { return plane_; }

  private:
    RenderView view_;
    bool velocity_;
    float fixedRange_;
    bool planeGiven_;
    SliceSpec plane_;
    // The box the plane is drawn over: the scene's domain, or (render-vdb
    // without a scene) each frame's volume.
    bool domainGiven_;
    // domain.origin: the world's place of the frame the camera, volumes and
    // obstacles are in (scene/placement.h); the domain's box in the world.
    Vec3f origin_;
    Vec3f domainLo_, domainHi_;
    ViewRange range_;
    std::vector<float> values_;
    std::vector<unsigned char> solid_;  // 1 where a pixel sees an obstacle on the plane
};

}  // namespace plume
