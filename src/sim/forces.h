// Body forces on the staggered velocity. Every force is an acceleration in
// m/s^2 applied for dt seconds, so results do not depend on the substep count.
#pragma once

#include <cstdint>

#include "core/grid3.h"
#include "core/scratch_arena.h"
#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// Buoyancy (-alpha * density + beta * (T - T_ambient)) * |g| against gravity:
// hot smoke rises, dense cold smoke sinks.
void addBuoyancy(Fields& f, const PhysicsSettings& physics, float dt);

// Wind: the air relaxes toward the ambient wind velocity (m/s) at kWindRate per second.
inline constexpr float kWindRate = 1.0f;
void addWind(Fields& f, Vec3f wind, float dt);

// Turbulence: the curl of a noise vector potential (strength * scale * noise
// at p / scale), so the force is divergence-free on the grid, not only in the
// limit. The noise evolves in time at the swirls' own rate, sqrt(strength /
// scale), and is hashed from position and time: the same for any thread count.
void addTurbulence(Fields& f, float strength, float scale, double time, float dt);

// Vorticity confinement (Fedkiw et al. 2001): eps * dx * (N x omega) with
// N = grad|omega| / |grad|omega||, built from small operators:
// centred velocity -> curl -> |curl| gradient -> force -> faces.
// In a fire eps is a cell's own, epsilon + flameEpsilon * clamp(flame, 0, 1)
// (Mantaflow's flame vorticity: more swirl where it burns).
// The centred velocity, the curl and its magnitude are borrowed from
// `scratch` for the call (28 bytes a cell: less than advection takes).
void addVorticityConfinement(Fields& f, float epsilon, float flameEpsilon, float dt,
                             ScratchArena& scratch);
// Bytes of scratch that borrows for `cells`: the centred velocity (then the
// curl's magnitude) and the curl (which the force then replaces, cell by cell).
std::uint64_t vorticityScratchBytes(Vec3i cells);

// Flame disturbance (Houdini Pyro's block Disturbance): in each cube of
// `scale` metres of the world a random direction, pushed at `strength` m/s^2
// times the flame there (clamped to [0, 1]), so the flame breaks into licks.
// The directions are hashed from the block and a time layer and blended
// smoothly from one layer to the next; a layer lasts sqrt(2 scale / strength)
// seconds, the time the push takes to move the gas one block. No force in a
// scene that does not burn. Each cell's push is borrowed from `scratch`
// (12 bytes a cell), made once and averaged onto the faces.
void addFlameDisturbance(Fields& f, float strength, float scale, double time, float dt,
                         ScratchArena& scratch);

// Flame shredding (after Houdini Pyro's Shredding, its stretch half): where
// the flame is thin, at its edge (weight 4 phi (1 - phi), phi the flame
// clamped to [0, 1]: none outside it nor in its full core), the velocity's
// component along the temperature gradient grows at `rate` per second
// (exactly: by exp(rate * weight * dt) over a substep), so the gas that
// crosses the edge outward or inward does so faster and the edge tears into
// streaks. The per-cell change is borrowed from `scratch` (12 bytes a cell).
void addFlameShredding(Fields& f, float rate, float dt, ScratchArena& scratch);
// Bytes of scratch either flame force borrows for `cells` (one after the other).
std::uint64_t flameForceScratchBytes(Vec3i cells);

}  // namespace plume
