// What a solve of a scene holds: the cells it starts with and the bytes its
// buffers take (plume check's estimate, the up-front memory check, the
// MemoryEstimate test). Each figure comes from the type that owns the
// buffers (their bytesFor), so an estimate cannot drift from what is held.
#include <algorithm>

#include "sim/force_fields.h"
#include "sim/shaping.h"
#include "sim/solver.h"

namespace plume {

std::vector<Vec3i> Solver::startCells(const Scene& scene) {
    std::vector<Vec3i> cells;
    for (const Box3i& box : initialBoxes(scene)) cells.push_back(box.size());
    return cells;
}

Vec3i Solver::startBounds(const Scene& scene) {
    Box3i bounds;
    for (const Box3i& box : initialBoxes(scene)) bounds = unite(bounds, box);
    return bounds.size();
}

std::uint64_t Solver::bytesFor(const Scene& scene) { return bytesFor(scene, scene.domain.cells()); }

std::uint64_t Solver::bytesFor(const Scene& scene, const std::vector<Vec3i>& boxes) {
    std::uint64_t bytes = 0, scratch = 0;
    for (const Vec3i& n : boxes) {
        bytes += bytesFor(scene, n) - scratchBytesFor(scene, n);
        scratch = std::max(scratch, scratchBytesFor(scene, n));
    }
    return bytes + scratch;
}

std::uint64_t Solver::bytesFor(const Scene& scene, Vec3i n) {
    const std::uint64_t cells = std::uint64_t(n.x) * n.y * n.z;
    std::uint64_t bytes = Fields::bytesFor(n) + scratchBytesFor(scene, n);
    // Keyed obstacles: the solids' face velocities, a third set of face grids.
    if (scene.obstaclesMove())
        bytes += Fields::bytesFor(n) - cells * (2 * sizeof(float) + sizeof(uint8_t));
    // Fire: fuel, flame and expansion.
    if (scene.burns()) bytes += 3 * cells * sizeof(float);
    // Colour: its three channels and the density its advection carries
    // beside them (sim/smoke_color.h).
    if (scene.colored()) bytes += 4 * cells * sizeof(float);
    bytes += Advector::regionBytesFor(n, scene.burns() || scene.colored() ? 4 : 2);
    return bytes + Projection::bytesFor(n, scene.solver.pressure, !scene.obstacles.empty());
}

std::uint64_t Solver::scratchBytesFor(const Scene& scene) {
    return scratchBytesFor(scene, scene.domain.cells());
}

std::uint64_t Solver::scratchBytesFor(const Scene& scene, Vec3i n) {
    const AdvectionScheme scheme = scene.solver.advection;
    // Every field advects in place.
    std::uint64_t bytes = std::max(Advector::scratchBytesFor(n, 1, scheme, true),
                                   Projection::scratchBytesFor(n, scene.solver.pressure));
    const PhysicsSettings& p = scene.physics;
    if (p.vorticity != 0.0f || (scene.burns() && p.flameVorticity != 0.0f))
        bytes = std::max(bytes, vorticityScratchBytes(n));
    if (scene.burns() && (p.flameDisturbance != 0.0f || p.flameShredding != 0.0f))
        bytes = std::max(bytes, flameForceScratchBytes(n));
    if (scene.shaping.on()) bytes = std::max(bytes, shapingScratchBytes(n));
    if (std::any_of(scene.fields.begin(), scene.fields.end(),
                    [](const FieldSettings& f) { return f.type == FieldType::Turbulence; }))
        bytes = std::max(bytes, forceFieldScratchBytes(n));
    return bytes;
}

}  // namespace plume
