// Where a scene sits: the file's world against the domain's own frame.
//
// A scene file gives world positions (a Blender domain sits anywhere) and
// frame numbers from time.start_frame (1001 in many studios). The solver and
// renderer work in the domain's frame: positions from its min corner, frames
// counted from 1. The loader moves a scene there once; whatever prints or
// writes world values (plume check, the VDB transform) moves back. So a scene
// moved wholesale, or renumbered, simulates and renders the same bits.
#pragma once

#include "scene/scene.h"

namespace plume {

// World positions (schema Placement::Point and Height keys, their keyframes)
// less domain.origin; frame numbers (keys' frames, emitter.frames) less
// time.start_frame - 1. The loader calls it once.
void toDomainFrame(Scene& scene);

// The inverse: what the file said (to float precision), for describeScene.
void toFileFrame(Scene& scene);

}  // namespace plume
