// render.filter: which reconstruction a frame's ray-marcher reads the
// ShadingGrid through. Trilinear shows every voxel face as a crease once a
// voxel covers a few pixels; the B-spline (render/march/cubic.h) is smooth but
// costs more per sample, so Auto takes it only where the creases show.
#pragma once

#include "core/volume.h"
#include "scene/scene.h"

namespace plume {

// Auto picks cubic above this many pixels per voxel at the volume's centre.
constexpr float kCubicPixelsPerVoxel = 2.0f;

// A frame traces the pixels fillStride rows and columns apart and fills
// between them where they agree (render/march/pixel_tracer.cpp): the largest
// power of two, up to kMaxFillStride, that a voxel spans (pixelsPerVoxel),
// so the traced pixels are a voxel or less apart, where the B-spline is a
// smooth curve the fill follows. 1 below two pixels a voxel, and with the
// trilinear lookup, whose creases at every voxel face a smooth fill would
// draw otherwise than tracing does.
constexpr int kMaxFillStride = 4;
int fillStride(float pixelsPerVoxel);

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
