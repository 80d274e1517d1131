// Force fields ([[field]], scene/scene.h FieldSettings) on the staggered
// velocity, before the projection: each face's change from its own position
// (the face's centre in the domain's metres), the field's keys at the
// substep and the time, never from the thread that computes it, so a bake is
// the same for any thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "core/scratch_arena.h"
#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// Blender's effector falloff (effect.cc, falloff_func): 1 within falloff.min
// metres, (1 + d - min)^-power beyond it, 0 beyond falloff.max (when above 0).
float fieldFalloff(const FieldSettings& field, float distance);

// How much of a field acts at domain point p: its shape (everywhere: 1; the
// distance from center, from the axis through it, or within the cone along
// the axis) through fieldFalloff. A curve's weight is by the distance from
// its points, 0 beyond its radius.
float fieldWeight(const FieldSettings& field, Vec3f p);

// Every field's push for dt seconds at simulated time `time` (seconds):
// wind, attract and curve add dt times their acceleration; turbulence the
// curl of a noise potential, divergence-free on the grid as physics.turbulence
// is; vortex relaxes the flow across its axis toward the solid-body rotation
// about it at |strength| times the weight per second (exactly: by
// 1 - exp(-rate dt)), the flow along the axis left alone; and drag, last and
// implicitly (u / (1 + rate dt)), so a wind of a against a drag of k settles
// at exactly a / k. Faces beside solids are left to the
// projection; those on the box's sides are pushed too (an open side's air
// moves as the rest does; the projection holds walls to 0). A smoke_only
// field's weight is also the share of the face's two cells holding smoke or
// fuel (a turbulence's, of its edges' four: its curl stays divergence-free). The turbulence's
// potential on the cell edges is borrowed from `scratch` (12 bytes a cell).
void addForceFields(Fields& f, const std::vector<FieldSettings>& fields, double time, float dt,
                    ScratchArena& scratch);
// Bytes of scratch that borrows for `cells` when a field is turbulence.
std::uint64_t forceFieldScratchBytes(Vec3i cells);

}  // namespace plume
