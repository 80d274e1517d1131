// Light transmittance: how much of each light reaches each cell, computed once
// per light per frame at a cost proportional to the cell count, so the camera
// ray-marcher shadows a sample with one trilinear lookup instead of a shadow ray.
//
// The grids hold optical depth, not transmittance: depth grows about linearly
// into a dense puff, so a trilinear lookup of it is smooth where one of
// exp(-depth) would show every voxel as a facet on the lit surface.
//
// Distant lights (and the sky) sweep slices along the dominant axis of the
// light direction: a cell's optical depth is the previous slice's depth at the
// point one slice toward the light (bilinear), plus the segment in between
// (trapezoid rule). A point light outside the smoke sweeps the same way with a
// per-cell direction; one inside it has no single sweep order, so it marches
// toward the light from every cell of a half-resolution grid (1/8 of the cells).
#pragma once

#include <span>
#include <vector>

#include "core/box.h"
#include "core/grid3.h"
#include "core/vec.h"
#include "render/march/shading_grid.h"

namespace plume {

// What a sweep passes from slice to slice, through its bilinear lookup and
// its spread: the optical depth (render.multiple_scattering "octaves", to
// which its constants were fitted), or the transmittance. Averaging depths
// and then taking exp(-depth) darkens (Jensen: the mean of exp(-x) is at
// least exp(-mean x)): against the path tracer, a sun's single scattering
// came out 11% dark on the default frame, its light in the cache's paths
// 25%.
enum class SweepCarry { Depth, Transmittance };

// Sweeps `box` of the grid for a light travelling along `direction` (unit,
// grid and world axes agree) and writes the optical depth toward it into channel
// `outChannel` of every cell in the box. Density is channel 0 and is taken as
// zero outside the box. sigmaPerVoxel = extinction per unit density times dx.
// `spread` in [0, 0.25] blurs the depth passed from slice to slice by that
// weight to each neighbour: light that is not perfectly parallel (a sun's
// disc, the whole sky), and no grid-scale stripes in the shadows.
void sweepDirectionalLight(ShadingGrid& grid, const Box3i& box, Vec3f direction,
                           float sigmaPerVoxel, float spread, int outChannel,
                           std::vector<float>& scratch, SweepCarry carry = SweepCarry::Depth);

// Openness to a uniform sky: the mean over `directions` (unit, the ways its
// light travels) of the transmittance exp(-depth) toward the sky, each swept
// as sweepDirectionalLight does, into channel `outChannel` of every cell in
// the box. 1 in open air, 0 deep inside opaque smoke.
// `weights`, one a direction, weigh the mean (empty: each 1 / its count).
void sweepOpenness(ShadingGrid& grid, const Box3i& box, std::span<const Vec3f> directions,
                   float sigmaPerVoxel, float spread, int outChannel, std::vector<float>& scratch,
                   SweepCarry carry = SweepCarry::Depth, std::span<const float> weights = {});

// The same for a point light at lightGrid (grid units). A light outside the
// box sweeps along the axis it is farthest out on, each cell looking one slice
// toward the light along its own direction. A light inside the box marches
// from every cell of `coarse` (half resolution, reused between frames), which
// then fills the channel by trilinear interpolation.
void pointLightTransmittance(ShadingGrid& grid, const Box3i& box, Vec3f lightGrid,
                             float sigmaPerVoxel, float spread, int outChannel,
                             std::vector<float>& scratch, ScalarGrid& coarse,
                             SweepCarry carry = SweepCarry::Depth);

}  // namespace plume
