// The solver's pipeline: a frame in CFL-sized substeps, each the list of its
// stages run on every island. The islands' bookkeeping is in
// solver_islands.cpp, what a solve holds in solver_memory.cpp.
#include "sim/solver.h"

#include <malloc.h>

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
#include "sim/dissipation.h"
#include "sim/emitters.h"
#include "sim/force_fields.h"
#include "sim/obstacles.h"
#include "sim/shaping.h"
#include "sim/smoke_color.h"

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

}  // namespace

Solver::Solver(const Scene& scene) : Solver(scene, nullptr) {}

Solver::Solver(const Scene& scene, const Processes* processes)
    : scene_(scene),
      scratch_(std::make_unique<ScratchArena>()),
      clock_(scene),
      obstaclesMove_(scene.obstaclesMove()),
      emitters_(scene.emitters) {
    if (scene.animated()) now_ = before_ = after_ = scene;
    if (processes && processes->count() > 1) {
        if (const std::string why = splitRefusal(scene); !why.empty()) throw InputError(why);
        processes_ = processes;
        owned_ = splitSlabs(scene.domain.cells().z, processes->count(), 1);
        halo_ = splitHalo(scene);
    }
    for (const Box3i& box : initialBoxes(scene)) islands_.push_back(makeIsland(box, Vec3f(0.0f)));
    if (obstaclesMove_) moveSolidsAndEmitters();
    for (Island& island : islands_) island.projection.enforceBoundaries(island.f);
    if (scene.hasSparks()) sparks_ = std::make_unique<Sparks>(scene);
}

float Solver::maxSpeed() const {
    float m = 0.0f;
    for (const Island& island : islands_)
        m = std::max({m, maxAbs(island.f.u), maxAbs(island.f.v), maxAbs(island.f.w)});
    // A split solve's parts hold their owners' values in the halo: the
    // largest of the parts' is the whole's.
    return split() ? processes_->max(m) : m;
}

FrameStats Solver::advanceFrame(int frame) {
    auto start = Clock::now();
    // What the last frame's writers freed (VDB trees: many small blocks)
    // goes back to the system before the scratch is touched again; glibc
    // keeps it otherwise, and the two would add up in the bake's peak.
    malloc_trim(0);
    frame_ = frame;
    FrameStats stats;
    stats.frame = frame;
    // The frame's length in the shot; each substep's in simulated time is
    // time_scale times its length in the shot (scene/shot_clock.h).
    const double frameDt = 1.0 / scene_.time.fps;
    const float cflDt = scene_.time.cfl * scene_.domain.dx();  // simulated seconds at 1 m/s
    double remaining = frameDt;
    int maxSteps = scene_.time.maxSubsteps;
    // Where the frame starts in the shot: without a time_scale, the
    // simulation's own clock.
    shotTime_ = clock_.identity() ? time() : clock_.frameStart(frame);
    // Substeps as large as the CFL limit allows, at most maxSubsteps per frame,
    // all of equal length within what is left of the frame.
    while (stats.substeps < maxSteps && remaining > 1e-12) {
        // Moving solids count: a fast obstacle takes more substeps rather
        // than jumping through the smoke.
        float speed = std::max(maxSpeed(), solidSpeed_);
        const double scale = clock_.maxScale(shotTime_, shotTime_ + remaining);
        int needed = speed > 0.0f ? int(std::ceil(remaining * scale * speed / cflDt)) : 1;
        int steps = std::clamp(needed, 1, maxSteps - stats.substeps);
        float shotDt = float(remaining / steps);
        float dt = clock_.simDt(shotTime_, shotDt);
        if (split()) checkSplitReach(speed * dt, frame);
        SolveStats s = substep(dt, shotDt);
        ++stats.substeps;
        std::uint64_t cells = 0;
        for (const Island& island : islands_) cells += std::uint64_t(island.box.volume());
        stats.cells = std::max(stats.cells, cells);
        stats.pressureIterations += s.iterations;
        stats.pressureResidual = std::max(stats.pressureResidual, s.residual);
        checkFinite(frame, stats.substeps);
        // A single planned step closes the frame: the float dt rounds, and the
        // sliver of time it leaves (1e-9 s) must not cost a substep of its own.
        remaining = steps == 1 ? 0.0 : remaining - shotDt;
        for (Island& island : islands_) island.f.time += dt;
    }
    // The scratch is idle until the next frame: while this one is written
    // (its VDB trees are the bake's largest transient) it holds no pages.
    scratch_->returnPages();
    for (Island& island : islands_) island.projection.returnScratchPages();
    serving_ = split() && processes_->rank() == 0;
    stats.simSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    return stats;
}

SolveStats Solver::substep(float dt) { return substep(dt, dt); }

SolveStats Solver::substep(float dt, float shotDt) {
    shotDt_ = shotDt;
    const SolveStats stats = step(dt);
    shotTime_ += shotDt;
    return stats;
}

ShotSpan Solver::shotSpan() const { return clock_.span(shotTime_, double(shotDt_)); }

SolveStats Solver::step(float dt) {
    lastDt_ = dt;
    assembled_ = Fields();  // what fields() assembled is out of date from here
    assembledStale_ = true;
    fitIslands();
    if (keepPressure_)
        for (Island& island : islands_) island.projection.startPressureSum();
    moveSolidsAndEmitters();
    // Each island on its own: no stage reads beyond its box.
    SolveStats stats;
    const bool reflects = scene_.solver.advection == AdvectionScheme::Reflection;
    for (Island& island : islands_) {
        Fields& f = island.f;
        applyEmitters(f, dt);
        burnFuel(f, dt);
        const SolveStats s =
            reflects ? advanceVelocityReflected(island, dt) : advanceVelocity(island, dt);
        advectScalars(island, dt);
        diffuseScalars(island, dt);
        dissipate(f, dt);
        if (split()) exchangeScalars(island);
        stats.iterations = std::max(stats.iterations, s.iterations);
        stats.residual = std::max(stats.residual, s.residual);
    }
    if (sparks_) {
        // Each island's fields here: a split solve's parts of them.
        std::vector<const Fields*> flow;
        for (const Island& island : islands_) flow.push_back(&island.f);
        const std::optional<SparkSplit> part = sparkSplit();
        sparks_->step(flow, emitters_, frame_, dt, part ? &*part : nullptr);
    }
    return stats;
}

SolveStats Solver::advanceVelocity(Island& island, float dt) {
    advectVelocity(island, dt);
    addForces(island, dt);
    return project(island, dt, scene_.solver.tolerance);
}

float firstReflectionTolerance(float tolerance) {
    return std::max(tolerance, std::min(10.0f * tolerance, 1e-3f));
}

// Advection-reflection (Zehnder, Narain and Thomaszewski 2018): half the
// step's advection, then its forces and a projection give u^1/2 = P u~; the
// other half advects u^1/2's reflection through u^1/2 and projects again.
// Advection moves energy into the velocity's gradient part, which a
// projection throws away; reflecting that part instead of dropping it hands
// the second half its opposite, and the two halves' losses mostly cancel
// (the KineticEnergy test's vortex keeps 0.996 of its energy, 0.84 with
// MacCormack). The forces come once, for the whole step: the reflection
// keeps their divergence-free part as it is and the second half adds none.
//
// Only the second projection's velocity leaves the substep, so only it needs
// solver.tolerance; the first stops at firstReflectionTolerance. What the
// first leaves is a gradient, reflected with its pressure and removed by the
// second up to its half step's advection: bench.toml's first solve takes 3.9
// MGPCG iterations instead of 4.7, the second 4.7 either way. At 100 times
// (1e-2: 2.6 iterations) what the advection keeps of it broke a mirror-
// symmetric plume's symmetry by 5e-4 (Solver.MirrorSymmetricSceneStaysSymmetric).
SolveStats Solver::advanceVelocityReflected(Island& island, float dt) {
    advectVelocity(island, 0.5f * dt);  // u~ = A(u; u, dt / 2)
    addForces(island, dt);
    const SolveStats first =
        project(island, dt, firstReflectionTolerance(scene_.solver.tolerance));  // u^1/2 = P u~
    advectReflected(island, 0.5f * dt);  // A(2 u^1/2 - u~; u^1/2, dt / 2)
    const SolveStats second = project(island, dt, scene_.solver.tolerance);
    // The second solve's residual is the substep's: what its velocity keeps.
    return {first.iterations + second.iterations, second.residual};
}

void Solver::addForces(Island& island, float dt) {
    Fields& f = island.f;
    addBuoyancy(f, dt);
    addWind(f, dt);
    addTurbulence(f, dt);
    addForceFields(f, dt);
    addVorticityConfinement(f, dt);
    addFlameForces(f, dt);
    addShaping(f, dt);
    addGuide(f);
    diffuseVelocity(island, dt);
}

void Solver::addGuide(Fields& f) {
    if (!guide_ || !scene_.guide.on()) return;
    if (frame_ < scene_.guide.frames[0] || frame_ > scene_.guide.frames[1]) return;
    ScopedTimer t(times_.fields);
    // The substep's middle and length in shot frames: the guide's frames are the shot's.
    const double fps = scene_.time.fps;
    plume::addGuide(f, scene_.guide, *guide_, (shotTime_ + 0.5 * double(shotDt_)) * fps,
                    double(shotDt_) * fps);
}

void Solver::moveSolidsAndEmitters() {
    if (!scene_.animated()) return;
    ScopedTimer t(times_.emit);
    // Placed at the middle of the substep; a solid's (or an emitter's)
    // velocity from where it is half a substep either side (frame f is the
    // state at shot time f / fps), per second of simulated time: keys keep
    // their pace in the shot (scene/shot_clock.h).
    const double fps = scene_.time.fps;
    const double mid = shotTime_ + 0.5 * double(shotDt_);
    const double half = std::max(0.5 * double(shotDt_), 1e-3 / fps);
    const double simPerShot = clock_.identity() ? 1.0 : clock_.scale(mid);
    scene_.poseAt(mid * fps, now_);
    scene_.poseSurfacesAt(mid * fps, now_, false, 1.0 / simPerShot);  // mesh sequences
    scene_.poseAt((mid - half) * fps, before_);
    scene_.poseAt((mid + half) * fps, after_);
    // A moving emitter adds its own motion to the smoke it emits, so a
    // moving torch leaves a trail.
    emitters_ = now_.emitters;
    for (size_t e = 0; e < emitters_.size(); ++e) {
        const Vec3f motion = (after_.emitters[e].center - before_.emitters[e].center) /
                             float(2.0 * half * simPerShot);
        emitters_[e].velocity += motion * emitters_[e].inheritVelocity;
    }
    if (!obstaclesMove_) return;
    solidSpeed_ = 0.0f;
    for (Island& island : islands_)
        solidSpeed_ = std::max(solidSpeed_, rasterizeMovingObstacles(
                                                island.f, now_.obstacles, before_.obstacles,
                                                after_.obstacles, float(2.0 * half * simPerShot)));
}

void Solver::applyEmitters(Fields& f, float) {
    ScopedTimer t(times_.emit);
    plume::applyEmitters(f, emitters_, frame_, f.time, shotSpan());
    clearSolidScalars(f, scene_.physics.ambientTemperature);
}

void Solver::burnFuel(Fields& f, float dt) {
    if (!f.burns()) return;
    ScopedTimer t(times_.burn);
    burn(f, scene_.physics, dt);
}

void Solver::advectVelocity(Island& island, float dt) {
    ScopedTimer t(times_.advectVelocity);
    Fields& f = island.f;
    // Every component is traced through the same, old velocity field, sampled
    // before any moves; each then advects in place.
    ScratchArena::Lease scratch(*scratch_);
    advector_.setVelocity(f, f.dx, &scratch, f.partZ);
    exchangeStepsOf(island);
    for (int axis = 0; axis < 3; ++axis) {
        ScalarGrid* field[] = {&f.component(axis)};
        advector_.advect(scene_.solver.advection, field, field, 1, dt, Advector::Limiter::Revert);
    }
    // Advected right on the owned faces and a trace's blend from the halo's
    // ends; the forces read farther.
    if (split()) exchangeVelocity(island);
}

void Solver::advectReflected(Island& island, float dt) {
    ScopedTimer t(times_.advectVelocity);
    Fields& f = island.f;
    ScratchArena::Lease scratch(*scratch_);
    advector_.setVelocity(f, f.dx, &scratch, f.partZ);  // traced through u^1/2, sampled now
    // 2 u^1/2 - u~: its gradient subtracted once more.
    island.projection.reflect(f);
    if (split()) exchangeVelocity(island);  // reflected on the owned faces
    exchangeStepsOf(island);
    for (int axis = 0; axis < 3; ++axis) {
        ScalarGrid* field[] = {&f.component(axis)};
        advector_.advect(AdvectionScheme::MacCormack, field, field, 1, dt,
                         Advector::Limiter::Revert);
    }
}

void Solver::addBuoyancy(Fields& f, float dt) {
    ScopedTimer t(times_.buoyancy);
    plume::addBuoyancy(f, scene_.physics, dt);
}

void Solver::addWind(Fields& f, float dt) {
    ScopedTimer t(times_.wind);
    plume::addWind(f, wind(), dt);
}

void Solver::addForceFields(Fields& f, float dt) {
    if (scene_.fields.empty()) return;
    ScopedTimer t(times_.fields);
    // Keyed fields as posed at the middle of the substep, and the turbulence's
    // pattern there too.
    const std::vector<FieldSettings>& fields =
        scene_.forcesMove() ? now_.fields : scene_.fields;
    plume::addForceFields(f, fields, f.time + 0.5 * double(dt), dt, *scratch_);
}

void Solver::addTurbulence(Fields& f, float dt) {
    ScopedTimer t(times_.turbulence);
    plume::addTurbulence(f, scene_.physics.turbulence, scene_.physics.turbulenceScale, f.time, dt);
}

void Solver::addVorticityConfinement(Fields& f, float dt) {
    ScopedTimer t(times_.vorticity);
    plume::addVorticityConfinement(f, scene_.physics.vorticity, scene_.physics.flameVorticity, dt,
                                   *scratch_);
}

void Solver::addFlameForces(Fields& f, float dt) {
    if (!f.burns()) return;
    ScopedTimer t(times_.flame);
    const PhysicsSettings& p = scene_.physics;
    plume::addFlameDisturbance(f, p.flameDisturbance, p.flameDisturbanceScale, f.time, dt,
                               *scratch_);
    plume::addFlameShredding(f, p.flameShredding, dt, *scratch_);
}

void Solver::addShaping(Fields& f, float dt) {
    const ShapingSettings& s = scene_.shaping;
    if (!s.on()) return;
    ScopedTimer t(times_.shaping);
    plume::addDisturbance(f, s, f.time, dt, *scratch_);
    plume::addShredding(f, s.shredding, dt, *scratch_);
}

void Solver::diffuseVelocity(Island& island, float dt) {
    ScopedTimer t(times_.viscosity);
    Fields& f = island.f;
    const std::optional<DiffusionSplit> part = diffusionSplit(island);
    for (int axis = 0; axis < 3; ++axis)
        diffuseImplicit(f.component(axis), scene_.physics.viscosity, dt, f.dx, kDiffusionSweeps,
                        part ? &*part : nullptr);
}

SolveStats Solver::project(Island& island, float dt, float tolerance) {
    ScopedTimer t(times_.project);
    const SolveStats stats =
        island.projection.project(island.f, dt, tolerance, scene_.solver.maxIterations);
    if (split()) exchangeVelocity(island);  // projected on the owned faces
    return stats;
}

void Solver::advectScalars(Island& island, float dt) {
    ScopedTimer t(times_.advectScalars);
    Fields& f = island.f;
    // Density and temperature (and fuel and flame, in a fire) share their
    // departure points and advect in place, one after another; away from the
    // smoke and the fire every field holds its background and is left to it.
    ScalarGrid* fields[Advector::kMaxFields] = {&f.density, &f.temperature, &f.fuel, &f.flame};
    const int count = f.burns() ? 4 : 2;
    const float ambient = scene_.physics.ambientTemperature;
    const float background[Advector::kMaxFields] = {0.0f, ambient, 0.0f, 0.0f};
    const unsigned sides = stillAirSides(island.box, scene_.domain.cells(), scene_.domain.boundary);
    {
        ScratchArena::Lease scratch(*scratch_);
        advector_.setVelocity(f, f.dx, &scratch, f.partZ);
        exchangeStepsOf(island);
        if (f.colored()) densityBefore_ = f.density;
        advector_.advect(scene_.solver.advection, fields, fields, count, dt,
                         Advector::Limiter::Clamp, background, sides);
    }
    // The smoke's colour moves with it (sim/smoke_color.h).
    if (f.colored()) advectColor(advector_, f, scratch_.get(), f, densityBefore_, dt, sides);
    clearSolidScalars(f, ambient);
}

void Solver::diffuseScalars(Island& island, float dt) {
    ScopedTimer t(times_.diffuseScalars);
    Fields& f = island.f;
    const std::optional<DiffusionSplit> part = diffusionSplit(island);
    const float nu = scene_.physics.diffusion;
    diffuseImplicit(f.density, nu, dt, f.dx, kDiffusionSweeps, part ? &*part : nullptr);
    diffuseImplicit(f.temperature, nu, dt, f.dx, kDiffusionSweeps, part ? &*part : nullptr);
    if (f.colored())
        for (ScalarGrid& c : f.color)
            diffuseImplicit(c, nu, dt, f.dx, kDiffusionSweeps, part ? &*part : nullptr);
}

void Solver::dissipate(Fields& f, float dt) {
    ScopedTimer t(times_.dissipate);
    plume::dissipate(f, scene_.physics, dt);
}

void Solver::checkFinite(int frame, int substep) const {
    if (split()) {
        // Every process learns whether any part blew up, then each names it.
        bool finite = true;
        for (const Island& island : islands_)
            for (const ScalarGrid* g : {&island.f.u, &island.f.v, &island.f.w, &island.f.density})
                finite = finite && (g->size() == 0 || allFinite(*g));
        if (processes_->all(finite)) return;
        if (finite)  // another process's part: every process stops
            throw RunError("non-finite fields at frame " + std::to_string(frame) +
                           " (the simulation blew up; lower time.cfl or raise time.max_substeps)");
    }
    for (const Island& island : islands_) {
        const Fields& f = island.f;
        const std::pair<const char*, const ScalarGrid*> grids[] = {{"velocity", &f.u},
                                                                   {"velocity", &f.v},
                                                                   {"velocity", &f.w},
                                                                   {"density", &f.density},
                                                                   {"temperature", &f.temperature},
                                                                   {"fuel", &f.fuel},
                                                                   {"flame", &f.flame},
                                                                   {"color", &f.color[0]},
                                                                   {"color", &f.color[1]},
                                                                   {"color", &f.color[2]}};
        for (const auto& [name, grid] : grids)
            if (grid->size() > 0 && !allFinite(*grid))
                throw RunError(
                    "non-finite " + std::string(name) + " at frame " + std::to_string(frame) +
                    ", substep " + std::to_string(substep) +
                    " (the simulation blew up; lower time.cfl or raise time.max_substeps)");
    }
}

}  // namespace plume
