// Shaping for all smoke ([shaping]), as the flame's own disturbance and
// shredding (sim/forces.h) are for fire, in metres and seconds so a scene
// reads the same at any resolution.
#pragma once

#include <cstdint>

#include "core/scratch_arena.h"
#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// Block disturbance (Houdini's Gas Disturb): in each cube of the world a
// random direction pushed at s.disturbance m/s^2 wherever there is smoke,
// over s.disturbanceOctaves octaves (each half the block, half the push),
// renewed as the push moves the gas a block. With a cutoff the push fades
// from full at no density to none at the cutoff, and a face touching a cell
// at or above it is left alone. Rotational: each row of faces is scaled back
// to the kinetic energy it had, so the motion turns and still air stays
// still. The push is borrowed from `scratch` (12 bytes a cell).
void addDisturbance(Fields& f, const ShapingSettings& s, double time, float dt,
                    ScratchArena& scratch);

// Shredding of the smoke's edge: as the flame's (sim/forces.h), where the
// density clamped to [0, 1] is d, the velocity's component along the
// temperature gradient grows by exp(rate 4 d (1 - d) dt) - 1.
void addShredding(Fields& f, float rate, float dt, ScratchArena& scratch);

// Bytes of scratch either borrows for `cells`.
std::uint64_t shapingScratchBytes(Vec3i cells);

}  // namespace plume
