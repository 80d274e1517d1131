#include "sim/solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/parallel.h"
#include "sim/active_box.h"
#include "sim/advection.h"
#include "sim/combustion.h"
#include "sim/diffusion.h"
#include "sim/emitters.h"
#include "sim/obstacles.h"
#include "sim/shapes.h"

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

// The box a solve of `scene` starts with: the domain, or for a sparse solve
// what its sources need (the whole domain when air flows in through a side,
// which moves all of it).
Box3i initialBox(const Scene& scene) {
    const Vec3i cells = scene.domain.cells();
    const Box3i domain{{0, 0, 0}, cells};
    if (!scene.solver.sparse) return domain;
    for (Boundary b : scene.domain.boundary)
        if (b == Boundary::Inflow) return domain;
    Box3i need;
    for (const EmitterSettings& e : scene.emitters) {
        Vec3f lo, hi;
        PlacedShape(e).worldBounds(lo, hi);
        const float shell = e.mode == EmitMode::Surface ? 0.5f * e.thickness : 0.0f;
        need = unite(need, cellsOfWorldBox(lo - Vec3f(shell), hi + Vec3f(shell), scene.domain.dx(),
                                           cells));
    }
    // No sources: whatever moves was put there by hand (a test, a restored
    // state); hold it all until there is smoke to fit the box to.
    if (need.empty()) return domain;
    return tileAligned(need, kTileCells, cells);
}

}  // namespace

Solver::Solver(const Scene& scene)
    : scene_(scene),
      box_(initialBox(scene)),
      f_(boxFields(scene, box_)),
      scratch_(std::make_unique<ScratchArena>()),
      projection_(f_.n, boxBoundary(box_, scene.domain.cells(), scene.domain.boundary),
                  scene.domain.inflowVelocity, scene.solver.pressure, scratch_.get()) {
    f_.temperature.fill(scene.physics.ambientTemperature);  // the air starts at ambient
    if (scene.burns()) f_.enableFire();
    obstaclesMove_ = std::any_of(scene.obstacles.begin(), scene.obstacles.end(),
                                 [](const ObstacleSettings& o) { return !o.animation.empty(); });
    emitters_ = scene.emitters;
    if (obstaclesMove_)
        moveSolidsAndEmitters(0.0f);
    else
        rasterizeObstacles(f_, scene.obstacles);
    projection_.enforceBoundaries(f_);
}

SolverSnapshot Solver::snapshot() const { return {f_, projection_.warmStart()}; }

void Solver::restore(const SolverSnapshot& snapshot) {
    const Box3i box{snapshot.fields.offset, {snapshot.fields.offset.x + snapshot.fields.n.x,
                                             snapshot.fields.offset.y + snapshot.fields.n.y,
                                             snapshot.fields.offset.z + snapshot.fields.n.z}};
    // A sparse solve takes the snapshot's box; a dense one holds the domain.
    if (scene_.solver.sparse && Box3i{{0, 0, 0}, scene_.domain.cells()}.contains(box))
        resizeBox(box);
    if (snapshot.fields.n != f_.n) throw RunError("solver: the snapshot is of another grid size");
    projection_.setWarmStart(snapshot.pressure);
    f_ = snapshot.fields;
}

Vec3i Solver::startCells(const Scene& scene) { return sizeOf(initialBox(scene)); }

std::uint64_t Solver::bytesFor(const Scene& scene) { return bytesFor(scene, scene.domain.cells()); }

std::uint64_t Solver::bytesFor(const Scene& scene, Vec3i n) {
    const std::uint64_t cells = std::uint64_t(n.x) * n.y * n.z;
    std::uint64_t bytes = Fields::bytesFor(n) + scratchBytesFor(scene, n);
    // Keyed obstacles: the solids' face velocities, a third set of face grids.
    const bool moving = std::any_of(scene.obstacles.begin(), scene.obstacles.end(),
                                    [](const ObstacleSettings& o) { return !o.animation.empty(); });
    if (moving) bytes += Fields::bytesFor(n) - cells * (2 * sizeof(float) + sizeof(uint8_t));
    // Fire: fuel, flame and expansion.
    if (scene.burns()) bytes += 3 * cells * sizeof(float);
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

float Solver::maxSpeed() const { return std::max({maxAbs(f_.u), maxAbs(f_.v), maxAbs(f_.w)}); }

FrameStats Solver::advanceFrame(int frame) {
    auto start = Clock::now();
    frame_ = frame;
    FrameStats stats;
    stats.frame = frame;
    const double frameDt = 1.0 / scene_.time.fps;
    const float cflDt = scene_.time.cfl * f_.dx;  // seconds at 1 m/s
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
        stats.cells = std::max<std::uint64_t>(stats.cells, f_.cellCount());
        stats.pressureIterations += s.iterations;
        stats.pressureResidual = std::max(stats.pressureResidual, s.residual);
        checkFinite(frame, stats.substeps);
        // A single planned step closes the frame: the float dt rounds, and the
        // sliver of time it leaves (1e-9 s) must not cost a substep of its own.
        remaining = steps == 1 ? 0.0 : remaining - dt;
        f_.time += dt;
    }
    // The scratch is idle until the next frame: while this one is written
    // (its VDB trees are the bake's largest transient) it holds no pages.
    scratch_->returnPages();
    stats.simSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    return stats;
}

SolveStats Solver::substep(float dt) {
    fitActiveBox();
    moveSolidsAndEmitters(dt);
    applyEmitters(dt);
    burnFuel(dt);
    advectVelocity(dt);
    addBuoyancy(dt);
    addWind(dt);
    addTurbulence(dt);
    addVorticityConfinement(dt);
    diffuseVelocity(dt);
    SolveStats s = project(dt);
    advectScalars(dt);
    diffuseScalars(dt);
    dissipate(dt);
    return s;
}

Box3i Solver::neededBox(int margin) const {
    const Vec3i cells = scene_.domain.cells();
    const float dx = f_.dx;
    Box3i need = scalarActivity(f_, scene_.physics.ambientTemperature);
    if (!need.empty())  // f_'s cells to the domain's
        need = {{need.lo.x + box_.lo.x, need.lo.y + box_.lo.y, need.lo.z + box_.lo.z},
                {need.hi.x + box_.lo.x, need.hi.y + box_.lo.y, need.hi.z + box_.lo.z}};
    for (const EmitterSettings& e : emitters_) {
        if (frame_ < e.frames[0] || frame_ > e.frames[1]) continue;
        Vec3f lo, hi;
        PlacedShape(e).worldBounds(lo, hi);
        const float shell = e.mode == EmitMode::Surface ? 0.5f * e.thickness : 0.0f;
        need = unite(need, cellsOfWorldBox(lo - Vec3f(shell), hi + Vec3f(shell), dx, cells));
    }
    if (obstaclesMove_) {
        // Where the moving solids are now (the margin covers a substep's travel).
        const Scene now = scene_.atFrame(f_.time * scene_.time.fps);
        for (size_t o = 0; o < now.obstacles.size(); ++o) {
            if (scene_.obstacles[o].animation.empty()) continue;
            Vec3f lo, hi;
            PlacedShape(now.obstacles[o]).worldBounds(lo, hi);
            need = unite(need, cellsOfWorldBox(lo, hi, dx, cells));
        }
    }
    return need.empty() ? need : tileAligned(need, margin, cells);
}

void Solver::fitActiveBox() {
    if (!scene_.solver.sparse) return;
    // The smoke may move cfl cells a substep and a blend reads one beyond: it
    // must stay that far inside the box. A new box leaves a tile of room,
    // rounded out to whole tiles (8 to 15 cells), so it holds for a substep
    // or more; it shrinks once the smoke needs less than half of it. (Two
    // tiles made bench.toml's box at 64³ most of its domain and cost 37% more
    // CPU, for 1.0% against 0.6% more smoke than a dense solve; a resize
    // costs little, moving one grid at a time.)
    const int reach = int(std::ceil(scene_.time.cfl)) + 2;
    const Box3i must = neededBox(reach);
    const Box3i roomy = neededBox(kTileCells);
    if (must.empty()) return;
    auto volume = [](const Box3i& b) {
        return double(b.hi.x - b.lo.x) * double(b.hi.y - b.lo.y) * double(b.hi.z - b.lo.z);
    };
    if (!box_.contains(must))
        resizeBox(unite(roomy, box_));
    else if (2.0 * volume(roomy) < volume(box_))
        resizeBox(roomy);
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

void Solver::resizeBox(const Box3i& box) {
    if (box == box_) return;
    scratch_->release();  // sized anew by the next substep's leases
    const Grid3<double> oldPressure = projection_.warmStart();

    const Vec3i from = box_.lo, to = box.lo, cells = sizeOf(box);
    const bool burns = f_.burns();  // asked before: it compares the grids' sizes
    const Vec3f wind = scene_.physics.wind;  // the still air moves with the wind
    for (int axis = 0; axis < 3; ++axis)
        moveToBox(f_.component(axis), from, to, cells, wind[axis]);
    moveToBox(f_.density, from, to, cells, 0.0f);
    moveToBox(f_.temperature, from, to, cells, scene_.physics.ambientTemperature);
    if (burns) {
        moveToBox(f_.fuel, from, to, cells, 0.0f);
        moveToBox(f_.flame, from, to, cells, 0.0f);
        moveToBox(f_.expansion, from, to, cells, 0.0f);
    }
    // Solids are placed anew: static ones here, moving ones every substep.
    f_.solid = Grid3<uint8_t>(cells.x, cells.y, cells.z, Vec3f(0.5f), 0);
    f_.solidVelocity = MacVelocity();
    f_.n = cells;
    f_.offset = box.lo;
    f_.origin = Vec3f(float(to.x), float(to.y), float(to.z)) * f_.dx;  // as boxFields() places it
    box_ = box;
    if (!obstaclesMove_) rasterizeObstacles(f_, scene_.obstacles);

    // The pressure's warm start where the boxes overlap, 0 beyond.
    Grid3<double> pressure(cells.x, cells.y, cells.z);
    copyOverlap(oldPressure, from, pressure, to);
    projection_ = Projection(cells, boxBoundary(box, scene_.domain.cells(), scene_.domain.boundary),
                             scene_.domain.inflowVelocity, scene_.solver.pressure, scratch_.get());
    projection_.setWarmStart(pressure);
    projection_.enforceBoundaries(f_);
}

void Solver::moveSolidsAndEmitters(float dt) {
    if (!scene_.animated()) return;
    ScopedTimer t(times_.emit);
    // Placed at the middle of the substep; a solid's (or an emitter's)
    // velocity from where it is half a substep either side (frame f is the
    // state at time f / fps).
    const double fps = scene_.time.fps;
    const double mid = f_.time + 0.5 * double(dt);
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
    solidSpeed_ = rasterizeMovingObstacles(f_, now.obstacles, before.obstacles, after.obstacles,
                                           float(2.0 * half));
}

void Solver::applyEmitters(float) {
    ScopedTimer t(times_.emit);
    plume::applyEmitters(f_, emitters_, frame_, f_.time);
    clearSolidScalars(f_, scene_.physics.ambientTemperature);
}

void Solver::burnFuel(float dt) {
    if (!f_.burns()) return;
    ScopedTimer t(times_.burn);
    burn(f_, scene_.physics, dt);
}

void Solver::advectVelocity(float dt) {
    ScopedTimer t(times_.advectVelocity);
    // Every component is traced through the same, old velocity field, sampled
    // before any moves; each then advects in place.
    ScratchArena::Lease scratch(*scratch_);
    advector_.setVelocity(f_, f_.dx, &scratch);
    for (int axis = 0; axis < 3; ++axis) {
        ScalarGrid* field[] = {&f_.component(axis)};
        advector_.advect(scene_.solver.advection, field, field, 1, dt, Advector::Limiter::Revert);
    }
}

void Solver::addBuoyancy(float dt) {
    ScopedTimer t(times_.buoyancy);
    plume::addBuoyancy(f_, scene_.physics, dt);
}

void Solver::addWind(float dt) {
    ScopedTimer t(times_.wind);
    plume::addWind(f_, scene_.physics.wind, dt);
}

void Solver::addTurbulence(float dt) {
    ScopedTimer t(times_.turbulence);
    plume::addTurbulence(f_, scene_.physics.turbulence, scene_.physics.turbulenceScale, f_.time,
                         dt);
}

void Solver::addVorticityConfinement(float dt) {
    ScopedTimer t(times_.vorticity);
    plume::addVorticityConfinement(f_, scene_.physics.vorticity, dt, *scratch_);
}

void Solver::diffuseVelocity(float dt) {
    ScopedTimer t(times_.viscosity);
    for (int axis = 0; axis < 3; ++axis)
        diffuseImplicit(f_.component(axis), scene_.physics.viscosity, dt, f_.dx);
}

SolveStats Solver::project(float dt) {
    ScopedTimer t(times_.project);
    return projection_.project(f_, dt, scene_.solver.tolerance, scene_.solver.maxIterations);
}

void Solver::advectScalars(float dt) {
    ScopedTimer t(times_.advectScalars);
    // Density and temperature (and fuel and flame, in a fire) share their
    // departure points and advect in place, one after another; away from the
    // smoke and the fire every field holds its background and is left to it.
    ScalarGrid* fields[Advector::kMaxFields] = {&f_.density, &f_.temperature, &f_.fuel, &f_.flame};
    const int count = f_.burns() ? 4 : 2;
    const float ambient = scene_.physics.ambientTemperature;
    const float background[Advector::kMaxFields] = {0.0f, ambient, 0.0f, 0.0f};
    {
        ScratchArena::Lease scratch(*scratch_);
        advector_.setVelocity(f_, f_.dx, &scratch);
        advector_.advect(scene_.solver.advection, fields, fields, count, dt,
                         Advector::Limiter::Clamp, background);
    }
    clearSolidScalars(f_, ambient);
}

void Solver::diffuseScalars(float dt) {
    ScopedTimer t(times_.diffuseScalars);
    diffuseImplicit(f_.density, scene_.physics.diffusion, dt, f_.dx);
    diffuseImplicit(f_.temperature, scene_.physics.diffusion, dt, f_.dx);
}

void Solver::dissipate(float dt) {
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
    parallelForSlabs(f_.n.z, [&](int k) {
        float* d = &f_.density(0, 0, k);
        float* T = &f_.temperature(0, 0, k);
        for (size_t n = 0; n < f_.density.strideZ(); ++n) {
            const float density = d[n] * keepDensity, heat = (T[n] - ambient) * keepHeat;
            d[n] = std::fabs(density) < kNegligible ? 0.0f : density;
            T[n] = std::fabs(heat) < kNegligible ? ambient : ambient + heat;
        }
    });
}

void Solver::checkFinite(int frame, int substep) const {
    const std::pair<const char*, const ScalarGrid*> grids[] = {{"velocity", &f_.u},
                                                               {"velocity", &f_.v},
                                                               {"velocity", &f_.w},
                                                               {"density", &f_.density},
                                                               {"temperature", &f_.temperature},
                                                               {"fuel", &f_.fuel},
                                                               {"flame", &f_.flame}};
    for (const auto& [name, grid] : grids)
        if (grid->size() > 0 && !allFinite(*grid))
            throw RunError("non-finite " + std::string(name) + " at frame " +
                           std::to_string(frame) + ", substep " + std::to_string(substep) +
                           " (the simulation blew up; lower time.cfl or raise time.max_substeps)");
}

}  // namespace plume
