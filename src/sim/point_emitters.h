// Points emitters (emitter shape = "points"): every point of the frame's
// file emits a sphere of its radius (else the emitter's) with its velocity,
// as Blender's particle-system flow source does.
//
// At a substep the points are those of the frame nearest the substep's
// middle, each moved along its velocity from where that frame has it
// (p + v (t - t_frame)), and each emits the capsule its sphere sweeps over
// the substep: a fast particle leaves a continuous trail at any substep
// count, not frame- or substep-spaced puffs.
//
// As every emitter, the smoke is raised to the emitter's amounts (max, not
// sum: overlapping spheres do not add up). The velocity of faces inside a
// sphere is blended toward the points' velocity (the emitter's `velocity`
// plus inherit_velocity times the point's, per second of simulated time):
// each cell sums its moving points' velocities weighted by their coverage,
// and a face takes the mean of its two cells, as far as they are covered.
// Each point is splatted into its own box of cells, z-slab by z-slab in
// point order, one coverage a cell serving the scalars and the faces, so
// 100k points cost their boxes, not the grid times the points, and the
// result is the same for any thread count.
#pragma once

#include "scene/scene.h"
#include "scene/shot_clock.h"
#include "sim/fields.h"

namespace plume {

// The emitter's points over the substep `shot` into f; `time` (simulated
// seconds) moves the emitted density's noise.
void applyPointEmitter(Fields& f, const EmitterSettings& e, double time, const ShotSpan& shot);

// The box (domain metres) the emitter's points sweep over `shot`; false when
// it has none then.
bool pointEmitterBounds(const EmitterSettings& e, const ShotSpan& shot, Vec3f& lo, Vec3f& hi);
// The box of the first frame that has points; false when none has.
bool firstPointsBounds(const EmitterSettings& e, Vec3f& lo, Vec3f& hi);

}  // namespace plume
