// The islands of a sparse solve (sim/active_box.h): which boxes of the domain
// the solver holds, how an island is made, moved and resized as the smoke
// needs, and the views across islands (fields(), snapshot(), restore()).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/error.h"
#include "scene/shapes.h"
#include "sim/active_box.h"
#include "sim/obstacles.h"
#include "sim/point_emitters.h"
#include "sim/solver.h"

namespace plume {

namespace {

double volume(const std::vector<Box3i>& boxes) {
    double v = 0;
    for (const Box3i& b : boxes) v += b.volume();
    return v;
}

// The domain cells a source needs now: its shape's box, with a surface
// emitter's shell; a points emitter's points over the substep `shot` (at the
// start, before any substep, where its first points are).
Box3i sourceCells(const EmitterSettings& e, float dx, Vec3i cells, const ShotSpan* shot) {
    Vec3f lo, hi;
    if (e.shape == Shape::Points) {
        const bool any = shot ? pointEmitterBounds(e, *shot, lo, hi) : firstPointsBounds(e, lo, hi);
        return any ? cellsOfWorldBox(lo, hi, dx, cells) : Box3i{};
    }
    PlacedShape(e).worldBounds(lo, hi);
    const float shell = e.mode == EmitMode::Surface ? 0.5f * e.thickness : 0.0f;
    return cellsOfWorldBox(lo - Vec3f(shell), hi + Vec3f(shell), dx, cells);
}

// Moves g from the box at `from` to a box at `to` of `cells` cells (g's
// staggering kept), keeping its values where the two overlap and `fill`
// elsewhere. The old grid goes as soon as the new one is filled, so a resize
// holds one spare grid at a time, not a second set of fields.
template <typename T>
void moveToBox(Grid3<T>& g, Vec3i from, Vec3i to, Vec3i cells, T fill) {
    const Vec3f o = g.offset();
    Grid3<T> next(cells.x + (o.x == 0.0f ? 1 : 0), cells.y + (o.y == 0.0f ? 1 : 0),
                  cells.z + (o.z == 0.0f ? 1 : 0), o, fill);
    copyOverlap(g, from, next, to);
    g = std::move(next);
}

}  // namespace

std::vector<Box3i> Solver::initialBoxes(const Scene& scene) {
    // The domain, or for a sparse solve one box around each cluster of
    // emitters (the whole domain when air flows in through a side, which
    // moves all of it).
    const Vec3i cells = scene.domain.cells();
    const Box3i domain{{0, 0, 0}, cells};
    if (!scene.solver.sparse) return {domain};
    for (Boundary b : scene.domain.boundary)
        if (b == Boundary::Inflow) return {domain};
    std::vector<Box3i> need;
    for (const EmitterSettings& e : scene.emitters) {
        const Box3i b = sourceCells(e, scene.domain.dx(), cells, nullptr);
        if (!b.empty()) need.push_back(tileAligned(b, kTileCells, cells));
    }
    // No sources: whatever moves was put there by hand (a test, a restored
    // state); hold it all until there is smoke to fit the box to.
    if (need.empty()) return {domain};
    return mergeNear(std::move(need));
}

// Every island, and the view across several, starts as still air over its
// box: moving at `velocity`, at the ambient temperature, with the fire's
// grids when the scene burns.
Fields Solver::stillAir(const Box3i& box, Vec3f velocity) const {
    const float dx = scene_.domain.dx();
    Fields f(box.size(), dx, Vec3f(float(box.lo.x), float(box.lo.y), float(box.lo.z)) * dx);
    f.offset = box.lo;
    f.domainCells = scene_.domain.cells();
    for (int axis = 0; axis < 3; ++axis)
        if (velocity[axis] != 0.0f) f.component(axis).fill(velocity[axis]);
    f.temperature.fill(scene_.physics.ambientTemperature);
    if (scene_.burns()) f.enableFire();
    if (scene_.colored()) f.enableColor();
    return f;
}

Island Solver::makeIsland(const Box3i& box, Vec3f velocity) const {
    // A split solve's process holds its part of the box, placed as the
    // whole box is (Fields::partZ).
    const Box3i held = split() ? heldBox(box) : box;
    const auto sides = boxBoundary(box, scene_.domain.cells(), scene_.domain.boundary);
    Island island{
        box, stillAir(held, velocity),
        Projection(held.size(), sides, scene_.domain.inflowVelocity, scene_.solver.pressure,
                   scratch_.get(), split() ? partOf(box) : SlabPart{})};
    island.f.partZ = held.lo.z - box.lo.z;
    island.f.origin = Vec3f(float(box.lo.x), float(box.lo.y), float(box.lo.z)) * island.f.dx;
    // Static solids are placed once per box; moving ones every substep.
    if (!obstaclesMove_) rasterizeObstacles(island.f, scene_.obstacles);
    return island;
}

Island Solver::islandFrom(const Box3i& box, Vec3f velocity, const std::vector<StateOver>& from,
                          double time, bool solids) const {
    Island island = makeIsland(box, velocity);
    island.f.time = time;
    // Over the fields' cells: a split solve's part (of which the projection
    // keeps the owned cells).
    const Vec3i n = island.f.n;
    Grid3<double> pressure(n.x, n.y, n.z);
    for (const StateOver& s : from) {
        copyFieldsOverlap(*s.fields, s.fields->offset, island.f, island.f.offset, solids);
        // An island's warm start is made on demand: one at a time, not all of them.
        if (s.pressure)
            copyOverlap(*s.pressure, s.box.lo, pressure, island.f.offset);
        else
            copyOverlap(s.projection->warmStart(), s.fields->offset, pressure, island.f.offset);
    }
    island.projection.setWarmStart(pressure);
    return island;
}

Fields& Solver::fields() {
    if (islands_.size() != 1)
        throw std::logic_error(
            "Solver::fields(): several islands; read them through a const Solver");
    return islands_.front().f;
}

const Fields& Solver::fields() const {
    const std::vector<const Fields*> parts = islandFields();
    if (parts.size() == 1) return *parts.front();
    if (assembledStale_) {
        // The box around every island, still air (with the wind) where none is.
        const Box3i box = activeBox();
        Fields all = stillAir(box, wind());
        all.time = time();
        for (const Fields* part : parts) copyFieldsOverlap(*part, part->offset, all, box.lo, true);
        assembled_ = std::move(all);
        assembledStale_ = false;
    }
    return assembled_;
}

Projection& Solver::projection() {
    if (islands_.size() != 1) throw std::logic_error("Solver::projection(): several islands");
    return islands_.front().projection;
}

const Projection& Solver::projection() const {
    if (islands_.size() != 1) throw std::logic_error("Solver::projection(): several islands");
    return islands_.front().projection;
}

Grid3<double> Solver::warmStart() const {
    if (split()) {  // process 0's, gathered after the frame
        gatherOnce();
        if (gathered_.size() == 1) return gathered_.front().pressure;
        const Box3i box = activeBox();
        Grid3<double> all(box.size().x, box.size().y, box.size().z);
        for (const GatheredIsland& g : gathered_) copyOverlap(g.pressure, g.box.lo, all, box.lo);
        return all;
    }
    if (islands_.size() == 1) return islands_.front().projection.warmStart();
    const Box3i box = activeBox();
    const Vec3i n = box.size();
    Grid3<double> all(n.x, n.y, n.z);
    for (const Island& island : islands_)
        copyOverlap(island.projection.warmStart(), island.box.lo, all, box.lo);
    return all;
}

Grid3<double> Solver::substepPressure() const {
    if (islands_.size() == 1) return islands_.front().projection.pressureSum();
    const Box3i box = activeBox();
    const Vec3i n = box.size();
    Grid3<double> all(n.x, n.y, n.z);
    for (const Island& island : islands_)
        copyOverlap(island.projection.pressureSum(), island.box.lo, all, box.lo);
    return all;
}

std::vector<Box3i> Solver::islandBoxes() const {
    std::vector<Box3i> boxes;
    for (const Island& island : islands_) boxes.push_back(island.box);
    return boxes;
}

std::vector<const Fields*> Solver::islandFields() const {
    std::vector<const Fields*> fields;
    if (split()) {  // process 0's, gathered after the frame
        gatherOnce();
        for (const GatheredIsland& g : gathered_) fields.push_back(&g.f);
        return fields;
    }
    for (const Island& island : islands_) fields.push_back(&island.f);
    return fields;
}

std::vector<const Projection*> Solver::islandProjections() const {
    std::vector<const Projection*> projections;
    for (const Island& island : islands_) projections.push_back(&island.projection);
    return projections;
}

std::vector<Grid3<double>> Solver::islandWarmStarts() const {
    std::vector<Grid3<double>> pressures;
    if (split()) {  // process 0's, gathered after the frame
        gatherOnce();
        for (const GatheredIsland& g : gathered_) pressures.push_back(g.pressure);
        return pressures;
    }
    for (const Island& island : islands_) pressures.push_back(island.projection.warmStart());
    return pressures;
}

Box3i Solver::activeBox() const {
    Box3i box;
    for (const Island& island : islands_) box = unite(box, island.box);
    return box;
}

SolverSnapshot Solver::snapshot() const {
    SolverSnapshot s{fields(), warmStart(), {}};
    if (islands_.size() > 1) s.islands = islandBoxes();
    if (sparks_) s.sparks = sparks_->all();
    return s;
}

void Solver::restore(const SolverSnapshot& snapshot) {
    const Fields& from = snapshot.fields;
    // A split bake's process reads only its slabs of the state's box.
    const Box3i box = snapshot.box.empty() ? from.box() : snapshot.box;
    const Box3i domain{{0, 0, 0}, scene_.domain.cells()};
    assembledStale_ = true;
    assembled_ = Fields();
    if (sparks_) sparks_->restore(snapshot.sparks);
    if (snapshot.islands.size() > 1 || split()) {
        // Each island takes its box of the snapshot's fields and pressure.
        for (const Box3i& b : snapshot.islands)
            if (!scene_.solver.sparse || !box.contains(b))
                throw RunError("solver: the snapshot's islands do not fit this solve");
        scratch_->release();
        islands_.clear();
        const std::vector<StateOver> state{{from.box(), &from, &snapshot.pressure, nullptr}};
        const std::vector<Box3i> boxes =
            snapshot.islands.size() > 1 ? snapshot.islands
                                        : std::vector<Box3i>{scene_.solver.sparse ? box : domain};
        for (const Box3i& b : boxes)
            islands_.push_back(islandFrom(b, Vec3f(0.0f), state, from.time, true));
        return;
    }
    // One box: a sparse solve takes the snapshot's; a dense one holds the domain.
    if (islands_.size() != 1) {
        scratch_->release();
        islands_.clear();
        islands_.push_back(makeIsland(scene_.solver.sparse ? box : domain, Vec3f(0.0f)));
    }
    Island& island = islands_.front();
    if (scene_.solver.sparse && domain.contains(box)) resizeBox(island, box);
    if (from.n != island.f.n) throw RunError("solver: the snapshot is of another grid size");
    island.projection.setWarmStart(snapshot.pressure);
    island.f = from;
}

void Solver::neededBoxes(int margin, std::vector<Box3i>& boxes) {
    const Vec3i cells = scene_.domain.cells();
    const float dx = scene_.domain.dx();
    auto need = [&](const Box3i& b) {
        if (!b.empty()) boxes.push_back(tileAligned(b, margin, cells));
    };
    for (const Island& island : islands_) {
        const Box3i active =
            scalarActivity(island.f, scene_.physics.ambientTemperature).shifted(island.f.offset);
        // A split solve's parts each see theirs: every process takes the union.
        need(split() ? unitedOverProcesses(active) : active);
    }
    const ShotSpan shot = shotSpan();
    for (const EmitterSettings& e : emitters_)
        if (frame_ >= e.frames[0] && frame_ <= e.frames[1]) need(sourceCells(e, dx, cells, &shot));
    if (obstaclesMove_) {
        // Where the moving solids are now (the margin covers a substep's travel).
        scene_.poseAt(shotTime_ * scene_.time.fps, now_);
        scene_.poseSurfacesAt(shotTime_ * scene_.time.fps, now_, false);
        for (size_t o = 0; o < now_.obstacles.size(); ++o) {
            if (!now_.obstacles[o].keyed()) continue;
            Vec3f lo, hi;
            PlacedShape(now_.obstacles[o]).worldBounds(lo, hi);
            need(cellsOfWorldBox(lo, hi, dx, cells));
        }
    }
}

void Solver::fitIslands() {
    if (!scene_.solver.sparse) return;
    // The smoke may move cfl cells a substep and a blend reads one beyond: it
    // must stay that far inside its island. A new box leaves a tile of room,
    // rounded out to whole tiles (8 to 15 cells), so it holds for a substep
    // or more; the boxes shrink once the smoke needs less than half of them.
    // (Two tiles would make bench.toml's box at 64³ most of its domain, at
    // 37% more CPU, for 1.0% against 0.6% more smoke than a dense solve; a
    // resize costs little, moving one grid at a time.) Sources whose boxes meet share
    // an island; smoke apart from the rest gets its own, and two islands that
    // grow into each other become one.
    const int reach = int(std::ceil(scene_.time.cfl)) + 2;
    std::vector<Box3i> must, roomy;
    neededBoxes(reach, must);
    if (must.empty()) return;
    neededBoxes(kTileCells, roomy);
    const std::vector<Box3i> current = islandBoxes();
    const bool held = std::all_of(must.begin(), must.end(), [&](const Box3i& b) {
        return std::any_of(current.begin(), current.end(),
                           [&](const Box3i& box) { return box.contains(b); });
    });
    if (!held) {
        roomy.insert(roomy.end(), current.begin(), current.end());
        moveToIslands(mergeNear(std::move(roomy)));
        return;
    }
    std::vector<Box3i> wanted = mergeNear(std::move(roomy));
    if (2.0 * volume(wanted) < volume(current)) moveToIslands(wanted);
}

void Solver::moveToIslands(const std::vector<Box3i>& boxes) {
    if (boxes == islandBoxes()) return;
    if (islands_.size() == 1 && boxes.size() == 1 && !split())
        return resizeBox(islands_.front(), boxes.front());
    // Each new island from every old one it overlaps (an old island lies
    // inside one new box when they grow, and gives up what no box keeps when
    // they shrink); still air elsewhere. Solids are placed anew: static ones
    // by makeIsland, moving ones every substep.
    scratch_->release();  // sized anew by the next substep's leases
    std::vector<Island> old = std::move(islands_);
    islands_.clear();
    std::vector<StateOver> state;
    for (const Island& o : old) state.push_back({o.box, &o.f, nullptr, &o.projection});
    for (const Box3i& box : boxes) {
        Island island = islandFrom(box, wind(), state, old.front().f.time, false);
        island.projection.enforceBoundaries(island.f);
        islands_.push_back(std::move(island));
    }
}

void Solver::resizeBox(Island& island, const Box3i& box) {
    // In place, grid by grid (not islandFrom, which would hold a second set
    // of fields while it copies): the one island of a solve grows and
    // shrinks with its smoke many times a bake.
    if (box == island.box) return;
    scratch_->release();  // sized anew by the next substep's leases
    Fields& f = island.f;
    const Grid3<double> oldPressure = island.projection.warmStart();

    const Vec3i from = island.box.lo, to = box.lo, cells = box.size();
    const bool burns = f.burns();  // asked before: it compares the grids' sizes
    const bool colored = f.colored();
    const Vec3f still = wind();  // the still air moves with the wind
    for (int axis = 0; axis < 3; ++axis) moveToBox(f.component(axis), from, to, cells, still[axis]);
    moveToBox(f.density, from, to, cells, 0.0f);
    moveToBox(f.temperature, from, to, cells, scene_.physics.ambientTemperature);
    if (burns) {
        moveToBox(f.fuel, from, to, cells, 0.0f);
        moveToBox(f.flame, from, to, cells, 0.0f);
        moveToBox(f.expansion, from, to, cells, 0.0f);
    }
    if (colored)
        for (ScalarGrid& c : f.color) moveToBox(c, from, to, cells, 0.0f);
    // Solids are placed anew: static ones here, moving ones every substep.
    f.solid = Grid3<uint8_t>(cells.x, cells.y, cells.z, Vec3f(0.5f), 0);
    f.solidVelocity = MacVelocity();
    f.n = cells;
    f.offset = box.lo;
    f.origin = Vec3f(float(to.x), float(to.y), float(to.z)) * f.dx;  // as stillAir() places it
    island.box = box;
    if (!obstaclesMove_) rasterizeObstacles(f, scene_.obstacles);

    // The pressure's warm start where the boxes overlap, 0 beyond.
    Grid3<double> pressure(cells.x, cells.y, cells.z);
    copyOverlap(oldPressure, from, pressure, to);
    island.projection =
        Projection(cells, boxBoundary(box, scene_.domain.cells(), scene_.domain.boundary),
                   scene_.domain.inflowVelocity, scene_.solver.pressure, scratch_.get());
    island.projection.setWarmStart(pressure);
    island.projection.enforceBoundaries(f);
}

}  // namespace plume
