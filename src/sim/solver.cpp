#include "sim/solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/error.h"
#include "core/parallel.h"
#include "scene/shapes.h"
#include "sim/active_box.h"
#include "sim/advection.h"
#include "sim/combustion.h"
#include "sim/diffusion.h"
#include "sim/emitters.h"
#include "sim/obstacles.h"

namespace plume {

namespace {

using Clock = std::chrono::steady_clock;

// Adds the wall time of the enclosing scope to `sink`.
class ScopedTimer {
  public:
    explicit ScopedTimer(double& sink) : sink_(sink), start_(Clock::now()) {}
    ~ScopedTimer() { sink_ += std::chrono::duration<double>(Clock::now() - start_).count(); }

  private:
    double& sink_;
    Clock::time_point start_;
};

float maxAbs(const ScalarGrid& g) {
    auto slabMax = [&](int k) {
        const float* p = &g(0, 0, k);
        float m = 0.0f;
        for (size_t n = 0; n < g.strideZ(); ++n) m = std::max(m, std::fabs(p[n]));
        return m;
    };
    return deterministicReduce(g.nz(), 0.0f, slabMax, maxOf<float>);
}

bool allFinite(const ScalarGrid& g) {
    auto slabFinite = [&](int k) {
        const float* p = &g(0, 0, k);
        for (size_t n = 0; n < g.strideZ(); ++n)
            if (!std::isfinite(p[n])) return false;
        return true;
    };
    return deterministicReduce(g.nz(), true, slabFinite, [](bool a, bool b) { return a && b; });
}

Vec3i sizeOf(const Box3i& b) { return {b.hi.x - b.lo.x, b.hi.y - b.lo.y, b.hi.z - b.lo.z}; }

// Fields over `box` of the domain of `scene`.
Fields boxFields(const Scene& scene, const Box3i& box) {
    const float dx = scene.domain.dx();
    Fields f(sizeOf(box), dx, Vec3f(float(box.lo.x), float(box.lo.y), float(box.lo.z)) * dx);
    f.offset = box.lo;
    f.domainCells = scene.domain.cells();
    return f;
}

double volume(const Box3i& b) {
    return double(b.hi.x - b.lo.x) * double(b.hi.y - b.lo.y) * double(b.hi.z - b.lo.z);
}
double volume(const std::vector<Box3i>& boxes) {
    double v = 0;
    for (const Box3i& b : boxes) v += volume(b);
    return v;
}

// The boxes a solve of `scene` starts with: the domain, or for a sparse
// solve one around each cluster of emitters (the whole domain when air flows
// in through a side, which moves all of it).
std::vector<Box3i> initialBoxes(const Scene& scene) {
    const Vec3i cells = scene.domain.cells();
    const Box3i domain{{0, 0, 0}, cells};
    if (!scene.solver.sparse) return {domain};
    for (Boundary b : scene.domain.boundary)
        if (b == Boundary::Inflow) return {domain};
    std::vector<Box3i> need;
    for (const EmitterSettings& e : scene.emitters) {
        Vec3f lo, hi;
        PlacedShape(e).worldBounds(lo, hi);
        const float shell = e.mode == EmitMode::Surface ? 0.5f * e.thickness : 0.0f;
        const Box3i b =
            cellsOfWorldBox(lo - Vec3f(shell), hi + Vec3f(shell), scene.domain.dx(), cells);
        if (!b.empty()) need.push_back(tileAligned(b, kTileCells, cells));
    }
    // No sources: whatever moves was put there by hand (a test, a restored
    // state); hold it all until there is smoke to fit the box to.
    if (need.empty()) return {domain};
    return mergeNear(std::move(need));
}

}  // namespace

Island Solver::makeIsland(const Box3i& box, Vec3f velocity) const {
    Island island{box, boxFields(scene_, box),
                  Projection(sizeOf(box),
                             boxBoundary(box, scene_.domain.cells(), scene_.domain.boundary),
                             scene_.domain.inflowVelocity, scene_.solver.pressure, scratch_.get())};
    Fields& f = island.f;
    for (int axis = 0; axis < 3; ++axis)
        if (velocity[axis] != 0.0f) f.component(axis).fill(velocity[axis]);
    f.temperature.fill(scene_.physics.ambientTemperature);  // the air starts at ambient
    if (scene_.burns()) f.enableFire();
    // Static solids are placed once per box; moving ones every substep.
    if (!obstaclesMove_) rasterizeObstacles(f, scene_.obstacles);
    return island;
}

Solver::Solver(const Scene& scene) : scene_(scene), scratch_(std::make_unique<ScratchArena>()) {
    obstaclesMove_ = std::any_of(scene.obstacles.begin(), scene.obstacles.end(),
                                 [](const ObstacleSettings& o) { return !o.animation.empty(); });
    emitters_ = scene.emitters;
    for (const Box3i& box : initialBoxes(scene)) islands_.push_back(makeIsland(box, Vec3f(0.0f)));
    if (obstaclesMove_) moveSolidsAndEmitters(0.0f);
    for (Island& island : islands_) island.projection.enforceBoundaries(island.f);
}

Fields& Solver::fields() {
    if (islands_.size() != 1)
        throw std::logic_error("Solver::fields(): several islands; read them through a const Solver");
    return islands_.front().f;
}

const Fields& Solver::fields() const {
    if (islands_.size() == 1) return islands_.front().f;
    if (assembledStale_) {
        // The box around every island, still air where none is.
        const Box3i box = activeBox();
        Fields all = boxFields(scene_, box);
        const Vec3f wind = scene_.physics.wind;
        for (int axis = 0; axis < 3; ++axis) all.component(axis).fill(wind[axis]);
        all.temperature.fill(scene_.physics.ambientTemperature);
        if (scene_.burns()) all.enableFire();
        all.time = time();
        for (const Island& island : islands_)
            copyFieldsOverlap(island.f, island.box.lo, all, box.lo, true);
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
    if (islands_.size() == 1) return islands_.front().projection.warmStart();
    const Box3i box = activeBox();
    const Vec3i n = sizeOf(box);
    Grid3<double> all(n.x, n.y, n.z);
    for (const Island& island : islands_)
        copyOverlap(island.projection.warmStart(), island.box.lo, all, box.lo);
    return all;
}

std::vector<Box3i> Solver::islandBoxes() const {
    std::vector<Box3i> boxes;
    for (const Island& island : islands_) boxes.push_back(island.box);
    return boxes;
}

std::vector<const Fields*> Solver::islandFields() const {
    std::vector<const Fields*> fields;
    for (const Island& island : islands_) fields.push_back(&island.f);
    return fields;
}

std::vector<const Projection*> Solver::islandProjections() const {
    std::vector<const Projection*> projections;
    for (const Island& island : islands_) projections.push_back(&island.projection);
    return projections;
}

Box3i Solver::activeBox() const {
    Box3i box;
    for (const Island& island : islands_) box = unite(box, island.box);
    return box;
}

SolverSnapshot Solver::snapshot() const {
    SolverSnapshot s{fields(), warmStart(), {}};
    if (islands_.size() > 1) s.islands = islandBoxes();
    return s;
}

void Solver::restore(const SolverSnapshot& snapshot) {
    const Fields& from = snapshot.fields;
    const Box3i box{from.offset,
                    {from.offset.x + from.n.x, from.offset.y + from.n.y, from.offset.z + from.n.z}};
    const Box3i domain{{0, 0, 0}, scene_.domain.cells()};
    assembledStale_ = true;
    assembled_ = Fields();
    if (snapshot.islands.size() > 1) {
        // Each island takes its box of the snapshot's fields and pressure.
        for (const Box3i& b : snapshot.islands)
            if (!scene_.solver.sparse || !box.contains(b))
                throw RunError("solver: the snapshot's islands do not fit this solve");
        scratch_->release();
        islands_.clear();
        for (const Box3i& b : snapshot.islands) {
            Island island = makeIsland(b, Vec3f(0.0f));
            copyFieldsOverlap(from, box.lo, island.f, b.lo, true);
            island.f.time = from.time;
            const Vec3i n = sizeOf(b);
            Grid3<double> pressure(n.x, n.y, n.z);
            copyOverlap(snapshot.pressure, box.lo, pressure, b.lo);
            island.projection.setWarmStart(pressure);
            islands_.push_back(std::move(island));
        }
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

std::vector<Vec3i> Solver::startCells(const Scene& scene) {
    std::vector<Vec3i> cells;
    for (const Box3i& box : initialBoxes(scene)) cells.push_back(sizeOf(box));
    return cells;
}

Vec3i Solver::startBounds(const Scene& scene) {
    Box3i bounds;
    for (const Box3i& box : initialBoxes(scene)) bounds = unite(bounds, box);
    return sizeOf(bounds);
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
    const bool moving = std::any_of(scene.obstacles.begin(), scene.obstacles.end(),
                                    [](const ObstacleSettings& o) { return !o.animation.empty(); });
    if (moving) bytes += Fields::bytesFor(n) - cells * (2 * sizeof(float) + sizeof(uint8_t));
    // Fire: fuel, flame and expansion.
    if (scene.burns()) bytes += 3 * cells * sizeof(float);
    bytes += Advector::regionBytesFor(n, scene.burns() ? 4 : 2);
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
    if (scene.physics.vorticity != 0.0f) bytes = std::max(bytes, vorticityScratchBytes(n));
    return bytes;
}

float Solver::maxSpeed() const {
    float m = 0.0f;
    for (const Island& island : islands_)
        m = std::max({m, maxAbs(island.f.u), maxAbs(island.f.v), maxAbs(island.f.w)});
    return m;
}

FrameStats Solver::advanceFrame(int frame) {
    auto start = Clock::now();
    frame_ = frame;
    FrameStats stats;
    stats.frame = frame;
    const double frameDt = 1.0 / scene_.time.fps;
    const float cflDt = scene_.time.cfl * scene_.domain.dx();  // seconds at 1 m/s
    double remaining = frameDt;
    int maxSteps = scene_.time.maxSubsteps;
    // Substeps as large as the CFL limit allows, at most maxSubsteps per frame,
    // all of equal length within what is left of the frame.
    while (stats.substeps < maxSteps && remaining > 1e-12) {
        // Moving solids count: a fast obstacle takes more substeps rather
        // than jumping through the smoke.
        float speed = std::max(maxSpeed(), solidSpeed_);
        int needed = speed > 0.0f ? int(std::ceil(remaining * speed / cflDt)) : 1;
        int steps = std::clamp(needed, 1, maxSteps - stats.substeps);
        float dt = float(remaining / steps);
        SolveStats s = substep(dt);
        ++stats.substeps;
        std::uint64_t cells = 0;
        for (const Island& island : islands_) cells += island.f.cellCount();
        stats.cells = std::max(stats.cells, cells);
        stats.pressureIterations += s.iterations;
        stats.pressureResidual = std::max(stats.pressureResidual, s.residual);
        checkFinite(frame, stats.substeps);
        // A single planned step closes the frame: the float dt rounds, and the
        // sliver of time it leaves (1e-9 s) must not cost a substep of its own.
        remaining = steps == 1 ? 0.0 : remaining - dt;
        for (Island& island : islands_) island.f.time += dt;
    }
    // The scratch is idle until the next frame: while this one is written
    // (its VDB trees are the bake's largest transient) it holds no pages.
    scratch_->returnPages();
    stats.simSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    return stats;
}

SolveStats Solver::substep(float dt) {
    assembled_ = Fields();  // what fields() assembled is out of date from here
    assembledStale_ = true;
    fitIslands();
    moveSolidsAndEmitters(dt);
    // Each island on its own: no stage reads beyond its box.
    SolveStats stats;
    for (Island& island : islands_) {
        Fields& f = island.f;
        applyEmitters(f, dt);
        burnFuel(f, dt);
        advectVelocity(f, dt);
        addBuoyancy(f, dt);
        addWind(f, dt);
        addTurbulence(f, dt);
        addVorticityConfinement(f, dt);
        diffuseVelocity(f, dt);
        const SolveStats s = project(island, dt);
        advectScalars(f, dt);
        diffuseScalars(f, dt);
        dissipate(f, dt);
        stats.iterations = std::max(stats.iterations, s.iterations);
        stats.residual = std::max(stats.residual, s.residual);
    }
    return stats;
}

void Solver::neededBoxes(int margin, std::vector<Box3i>& boxes) const {
    const Vec3i cells = scene_.domain.cells();
    const float dx = scene_.domain.dx();
    auto need = [&](const Box3i& b) {
        if (!b.empty()) boxes.push_back(tileAligned(b, margin, cells));
    };
    for (const Island& island : islands_) {
        const Box3i a = scalarActivity(island.f, scene_.physics.ambientTemperature);
        const Vec3i o = island.box.lo;  // the island's cells to the domain's
        if (!a.empty())
            need({{a.lo.x + o.x, a.lo.y + o.y, a.lo.z + o.z}, {a.hi.x + o.x, a.hi.y + o.y, a.hi.z + o.z}});
    }
    for (const EmitterSettings& e : emitters_) {
        if (frame_ < e.frames[0] || frame_ > e.frames[1]) continue;
        Vec3f lo, hi;
        PlacedShape(e).worldBounds(lo, hi);
        const float shell = e.mode == EmitMode::Surface ? 0.5f * e.thickness : 0.0f;
        need(cellsOfWorldBox(lo - Vec3f(shell), hi + Vec3f(shell), dx, cells));
    }
    if (obstaclesMove_) {
        // Where the moving solids are now (the margin covers a substep's travel).
        const Scene now = scene_.atFrame(time() * scene_.time.fps);
        for (size_t o = 0; o < now.obstacles.size(); ++o) {
            if (scene_.obstacles[o].animation.empty()) continue;
            Vec3f lo, hi;
            PlacedShape(now.obstacles[o]).worldBounds(lo, hi);
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
    // (Two tiles made bench.toml's box at 64³ most of its domain and cost 37%
    // more CPU, for 1.0% against 0.6% more smoke than a dense solve; a resize
    // costs little, moving one grid at a time.) Sources whose boxes meet share
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

namespace {

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

void Solver::moveToIslands(const std::vector<Box3i>& boxes) {
    if (boxes == islandBoxes()) return;
    if (islands_.size() == 1 && boxes.size() == 1) return resizeBox(islands_.front(), boxes.front());
    // Each new island from every old one it overlaps (an old island lies
    // inside one new box when they grow, and gives up what no box keeps when
    // they shrink); still air elsewhere.
    scratch_->release();  // sized anew by the next substep's leases
    std::vector<Island> old = std::move(islands_);
    islands_.clear();
    for (const Box3i& box : boxes) {
        Island island = makeIsland(box, scene_.physics.wind);
        Fields& f = island.f;
        f.time = old.front().f.time;
        const Vec3i n = sizeOf(box);
        Grid3<double> pressure(n.x, n.y, n.z);
        for (const Island& o : old) {
            // Solids are placed anew: static ones by makeIsland, moving ones
            // every substep.
            copyFieldsOverlap(o.f, o.box.lo, f, box.lo, false);
            copyOverlap(o.projection.warmStart(), o.box.lo, pressure, box.lo);
        }
        island.projection.setWarmStart(pressure);
        island.projection.enforceBoundaries(f);
        islands_.push_back(std::move(island));
    }
}

void Solver::resizeBox(Island& island, const Box3i& box) {
    if (box == island.box) return;
    scratch_->release();  // sized anew by the next substep's leases
    Fields& f = island.f;
    const Grid3<double> oldPressure = island.projection.warmStart();

    const Vec3i from = island.box.lo, to = box.lo, cells = sizeOf(box);
    const bool burns = f.burns();  // asked before: it compares the grids' sizes
    const Vec3f wind = scene_.physics.wind;  // the still air moves with the wind
    for (int axis = 0; axis < 3; ++axis)
        moveToBox(f.component(axis), from, to, cells, wind[axis]);
    moveToBox(f.density, from, to, cells, 0.0f);
    moveToBox(f.temperature, from, to, cells, scene_.physics.ambientTemperature);
    if (burns) {
        moveToBox(f.fuel, from, to, cells, 0.0f);
        moveToBox(f.flame, from, to, cells, 0.0f);
        moveToBox(f.expansion, from, to, cells, 0.0f);
    }
    // Solids are placed anew: static ones here, moving ones every substep.
    f.solid = Grid3<uint8_t>(cells.x, cells.y, cells.z, Vec3f(0.5f), 0);
    f.solidVelocity = MacVelocity();
    f.n = cells;
    f.offset = box.lo;
    f.origin = Vec3f(float(to.x), float(to.y), float(to.z)) * f.dx;  // as boxFields() places it
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

void Solver::moveSolidsAndEmitters(float dt) {
    if (!scene_.animated()) return;
    ScopedTimer t(times_.emit);
    // Placed at the middle of the substep; a solid's (or an emitter's)
    // velocity from where it is half a substep either side (frame f is the
    // state at time f / fps).
    const double fps = scene_.time.fps;
    const double mid = time() + 0.5 * double(dt);
    const double half = std::max(0.5 * double(dt), 1e-3 / fps);
    const Scene now = scene_.atFrame(mid * fps);
    const Scene before = scene_.atFrame((mid - half) * fps);
    const Scene after = scene_.atFrame((mid + half) * fps);
    // A moving emitter adds its own motion to the smoke it emits, so a
    // moving torch leaves a trail.
    emitters_ = now.emitters;
    for (size_t e = 0; e < emitters_.size(); ++e) {
        const Vec3f motion =
            (after.emitters[e].center - before.emitters[e].center) / float(2.0 * half);
        emitters_[e].velocity += motion * emitters_[e].inheritVelocity;
    }
    if (!obstaclesMove_) return;
    solidSpeed_ = 0.0f;
    for (Island& island : islands_)
        solidSpeed_ = std::max(solidSpeed_,
                               rasterizeMovingObstacles(island.f, now.obstacles, before.obstacles,
                                                        after.obstacles, float(2.0 * half)));
}

void Solver::applyEmitters(Fields& f, float) {
    ScopedTimer t(times_.emit);
    plume::applyEmitters(f, emitters_, frame_, f.time);
    clearSolidScalars(f, scene_.physics.ambientTemperature);
}

void Solver::burnFuel(Fields& f, float dt) {
    if (!f.burns()) return;
    ScopedTimer t(times_.burn);
    burn(f, scene_.physics, dt);
}

void Solver::advectVelocity(Fields& f, float dt) {
    ScopedTimer t(times_.advectVelocity);
    // Every component is traced through the same, old velocity field, sampled
    // before any moves; each then advects in place.
    ScratchArena::Lease scratch(*scratch_);
    advector_.setVelocity(f, f.dx, &scratch);
    for (int axis = 0; axis < 3; ++axis) {
        ScalarGrid* field[] = {&f.component(axis)};
        advector_.advect(scene_.solver.advection, field, field, 1, dt, Advector::Limiter::Revert);
    }
}

void Solver::addBuoyancy(Fields& f, float dt) {
    ScopedTimer t(times_.buoyancy);
    plume::addBuoyancy(f, scene_.physics, dt);
}

void Solver::addWind(Fields& f, float dt) {
    ScopedTimer t(times_.wind);
    plume::addWind(f, scene_.physics.wind, dt);
}

void Solver::addTurbulence(Fields& f, float dt) {
    ScopedTimer t(times_.turbulence);
    plume::addTurbulence(f, scene_.physics.turbulence, scene_.physics.turbulenceScale, f.time,
                         dt);
}

void Solver::addVorticityConfinement(Fields& f, float dt) {
    ScopedTimer t(times_.vorticity);
    plume::addVorticityConfinement(f, scene_.physics.vorticity, dt, *scratch_);
}

void Solver::diffuseVelocity(Fields& f, float dt) {
    ScopedTimer t(times_.viscosity);
    for (int axis = 0; axis < 3; ++axis)
        diffuseImplicit(f.component(axis), scene_.physics.viscosity, dt, f.dx);
}

SolveStats Solver::project(Island& island, float dt) {
    ScopedTimer t(times_.project);
    return island.projection.project(island.f, dt, scene_.solver.tolerance,
                                     scene_.solver.maxIterations);
}

void Solver::advectScalars(Fields& f, float dt) {
    ScopedTimer t(times_.advectScalars);
    // Density and temperature (and fuel and flame, in a fire) share their
    // departure points and advect in place, one after another; away from the
    // smoke and the fire every field holds its background and is left to it.
    ScalarGrid* fields[Advector::kMaxFields] = {&f.density, &f.temperature, &f.fuel, &f.flame};
    const int count = f.burns() ? 4 : 2;
    const float ambient = scene_.physics.ambientTemperature;
    const float background[Advector::kMaxFields] = {0.0f, ambient, 0.0f, 0.0f};
    {
        ScratchArena::Lease scratch(*scratch_);
        advector_.setVelocity(f, f.dx, &scratch);
        advector_.advect(scene_.solver.advection, fields, fields, count, dt,
                         Advector::Limiter::Clamp, background);
    }
    clearSolidScalars(f, ambient);
}

void Solver::diffuseScalars(Fields& f, float dt) {
    ScopedTimer t(times_.diffuseScalars);
    diffuseImplicit(f.density, scene_.physics.diffusion, dt, f.dx);
    diffuseImplicit(f.temperature, scene_.physics.diffusion, dt, f.dx);
}

void Solver::dissipate(Fields& f, float dt) {
    ScopedTimer t(times_.dissipate);
    const PhysicsSettings& p = scene_.physics;
    const float keepDensity = std::exp(-p.densityDissipation * dt);
    const float keepHeat = std::exp(-p.temperatureDissipation * dt);
    const float ambient = p.ambientTemperature;
    // Interpolation spreads every puff by a cell or so a step, so without a
    // floor the faint edge of the smoke would reach the whole domain in
    // values far below anything visible (and slow as denormals): the
    // scalar advection, which skips empty space, would skip none.
    constexpr float kNegligible = 1e-6f;
    parallelForSlabs(f.n.z, [&](int k) {
        float* d = &f.density(0, 0, k);
        float* T = &f.temperature(0, 0, k);
        for (size_t n = 0; n < f.density.strideZ(); ++n) {
            const float density = d[n] * keepDensity, heat = (T[n] - ambient) * keepHeat;
            d[n] = std::fabs(density) < kNegligible ? 0.0f : density;
            T[n] = std::fabs(heat) < kNegligible ? ambient : ambient + heat;
        }
    });
}

void Solver::checkFinite(int frame, int substep) const {
    for (const Island& island : islands_) {
        const Fields& f = island.f;
        const std::pair<const char*, const ScalarGrid*> grids[] = {{"velocity", &f.u},
                                                                   {"velocity", &f.v},
                                                                   {"velocity", &f.w},
                                                                   {"density", &f.density},
                                                                   {"temperature", &f.temperature},
                                                                   {"fuel", &f.fuel},
                                                                   {"flame", &f.flame}};
        for (const auto& [name, grid] : grids)
            if (grid->size() > 0 && !allFinite(*grid))
                throw RunError("non-finite " + std::string(name) + " at frame " +
                               std::to_string(frame) + ", substep " + std::to_string(substep) +
                               " (the simulation blew up; lower time.cfl or raise time.max_substeps)");
    }
}

}  // namespace plume
