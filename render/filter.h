// render.filter: which reconstruction a frame's ray-marcher reads the
// ShadingGrid through. Trilinear shows every voxel face as a crease once a
// voxel covers a few pixels; the B-spline (render/cubic.h) is smooth but
// costs more per sample, so Auto takes it only where the creases show.
#pragma once

#include "core/volume.h"
#include "scene/scene.h"

namespace plume {

// Auto picks cubic above this many pixels per voxel at the volume's centre.
constexpr float kCubicPixelsPerVoxel = 2.0f;

// How many pixels of an image `height` rows tall one voxel spans, seen from
// the camera at the distance of the volume's centre; aspect (width / height)
// matters only for a camera given by its lens.
float pixelsPerVoxel(const CameraSettings& camera, int height, const VolumeView& volume,
                     float aspect = 1.0f);

// True when the frame is to be reconstructed with the cubic B-spline (over
// the values, or with render.filter "sharp" over their coefficients).
bool useCubicFilter(RenderFilter filter, const CameraSettings& camera, int height,
                    const VolumeView& volume, float aspect = 1.0f);

}  // namespace plume
