// Solver: advances the smoke one frame at a time in CFL-sized substeps.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/box.h"
#include "core/processes.h"
#include "scene/scene.h"
#include "scene/shot_clock.h"
#include "sim/advection.h"
#include "sim/diffusion.h"
#include "sim/fields.h"
#include "sim/forces.h"
#include "sim/frame_feed.h"
#include "sim/guide.h"
#include "sim/pressure/projection.h"
#include "sim/pressure/slab_part.h"
#include "sim/sparks.h"

namespace plume {

// Wall-clock seconds spent in each stage of substep(), summed over substeps
// (for benchmarks), with the groups the benchmark reports.
struct StageTimes {
    double emit = 0, burn = 0, advectVelocity = 0, buoyancy = 0, wind = 0, turbulence = 0,
           fields = 0, vorticity = 0, flame = 0, shaping = 0, viscosity = 0, project = 0, advectScalars = 0,
           diffuseScalars = 0, dissipate = 0;
    double forces() const {
        return buoyancy + wind + turbulence + fields + vorticity + flame + shaping + viscosity;
    }
    double scalars() const { return advectScalars + diffuseScalars + dissipate; }
    double total() const { return emit + burn + advectVelocity + forces() + project + scalars(); }
};

struct FrameStats {
    int frame = 0;
    int substeps = 0;
    int pressureIterations = 0;  // summed over the frame's substeps
    float pressureResidual = 0;  // the largest final residual of the frame
    double simSeconds = 0;       // wall time
    std::uint64_t cells = 0;     // the most cells the solver held in a substep (its islands)
};

// What a run needs to go on from the end of a frame bit for bit as if it had
// never stopped: the fields (with their time), the pressure the next
// projection starts from, and the islands of a sparse solve.
struct SolverSnapshot {
    Fields fields;           // over the box that bounds every island
    Grid3<double> pressure;  // Projection::warmStart, per cell of that box
    // The boxes (domain cells) the solve holds, when more than one; fields
    // and pressure then hold each island's values in its box.
    std::vector<Box3i> islands;
    SparkList sparks;  // sim/sparks.h
    // The box of the state when fields hold only some slabs of it (a split
    // bake's process: Solver::heldWindow); empty: the fields' own.
    Box3i box;
};

// The tolerance advection-reflection's first projection stops at: 10 times
// solver.tolerance, at most 1e-3 (never looser than solver.tolerance). Only
// the second projection's velocity leaves the substep.
float firstReflectionTolerance(float tolerance);

// A box of the domain that a sparse solve holds, with its fields and its
// pressure solve: an island of smoke and the air around it. Islands never
// touch; each is solved as if alone, open to the still air at its sides.
struct Island {
    Box3i box;
    Fields f;
    Projection projection;
};

// What one process of a split solve holds once a frame is done: an island
// whole, gathered on process 0 for the frame's files and resume state.
struct GatheredIsland {
    Box3i box;
    Fields f;
    Grid3<double> pressure;
};

class Solver {
  public:
    explicit Solver(const Scene& scene);
    // [guide]: the frames the bake follows (sim/guide.h), from the caller
    // (run/solver_source.cpp reads them from the cache scene.guide names).
    void setGuide(std::unique_ptr<GuideFrames> guide) { guide_ = std::move(guide); }
    // One solve split across `processes` (sim/solver_split.cpp): each holds
    // the domain's z-slabs splitSlabs deals it and a halo, and the fields it
    // writes are one process's, bit for bit. Throws RunError naming what of
    // the scene does not split yet.
    Solver(const Scene& scene, const Processes* processes);
    // Why this scene's solve cannot split across processes yet; empty when it can.
    static std::string splitRefusal(const Scene& scene);

    // Bytes a solver of this scene holds once it has run a substep: its
    // fields, their advection sources, the pressure solve's own grids, and
    // the scratch arena, as large as the hungriest stage's need (each counted
    // by the type that owns or borrows the buffers).
    static std::uint64_t bytesFor(const Scene& scene);
    // The same for a sparse solve holding a box of `cells`.
    static std::uint64_t bytesFor(const Scene& scene, Vec3i cells);
    // The cells a solve of this scene holds at its start: the domain, or for
    // a sparse solve the boxes around its emitters (their sizes).
    static std::vector<Vec3i> startCells(const Scene& scene);
    // The size of the box around them all.
    static Vec3i startBounds(const Scene& scene);
    // The most cells one of `processes` holds of the domain in a split
    // bake: its slabs and the halo either side.
    static Vec3i splitPartCells(const Scene& scene, int processes);
    // Bytes a sparse solve holding boxes of these sizes takes: each box's
    // own, and one scratch arena, the largest box's.
    static std::uint64_t bytesFor(const Scene& scene, const std::vector<Vec3i>& boxes);
    // The arena's part of that.
    static std::uint64_t scratchBytesFor(const Scene& scene);
    static std::uint64_t scratchBytesFor(const Scene& scene, Vec3i cells);
    // Bytes the scratch arena holds now.
    std::uint64_t scratchBytes() const { return scratch_->capacity(); }

    // Simulates frame `frame` (1-based): from time (frame-1)/fps to frame/fps.
    FrameStats advanceFrame(int frame);

    // One substep of dt seconds, the solver's stages in order (dt of the
    // shot too: a test steps without frames).
    SolveStats substep(float dt);
    // The same, lasting shotDt seconds of the shot (scene/shot_clock.h).
    SolveStats substep(float dt, float shotDt);

    // The fields: the one island's, or with several, the box that bounds
    // them all, assembled once per substep on first use (still air between
    // the islands). Only the one island's may be written (a solver of
    // several islands throws std::logic_error).
    Fields& fields();
    const Fields& fields() const;
    // The projection of the one island (std::logic_error with several).
    Projection& projection();
    const Projection& projection() const;
    // The pressure the next projections start from, over the box fields()
    // covers (0 between islands).
    Grid3<double> warmStart() const;
    // The boxes the solve holds (domain cells), one per island, and each
    // island's fields and pressure (what a frame's files are written from,
    // with no box around them all).
    std::vector<Box3i> islandBoxes() const;
    std::vector<const Fields*> islandFields() const;
    std::vector<const Projection*> islandProjections() const;
    // Each island's pressure, the next projection's start (Projection::warmStart).
    std::vector<Grid3<double>> islandWarmStarts() const;
    // The frame just made, for its writers (sim/frame_feed.h): each island
    // and its warm start. Split across processes, only process 0 reads it,
    // every process's slabs in turn, while the others serve it in endFrame.
    std::unique_ptr<FrameFeed> feed() const;
    // Ends the frame on every process at once: process 0 says it is done
    // with it, the others serve its reads until then. Returns the interrupt
    // signal every process stops on after this frame (0: go on), the
    // largest of theirs (`signal`: this one's), so an interrupt that
    // reached any stops all after the same frame. One process: `signal`.
    int endFrame(int signal);
    // The sparks (sim/sparks.h), null when the scene has none.
    const SparkList* sparks() const { return sparks_ ? &sparks_->all() : nullptr; }
    const StageTimes& stageTimes() const { return times_; }
    void resetStageTimes() { times_ = {}; }

    // The solver's state, and back. restore() throws RunError for a snapshot
    // of another grid size.
    SolverSnapshot snapshot() const;
    void restore(const SolverSnapshot& snapshot);
    // The domain slabs (z) this process needs of a saved state: its own and
    // the halo, or all of them when the solve is not split.
    SlabRange heldWindow() const;
    // Fields of one cell with the domain, voxel size and fields of the
    // scene: what a state file is read into, taking the file's shape.
    Fields stateFields() const { return stillAir(Box3i::at({0, 0, 0}, {1, 1, 1}), Vec3f(0.0f)); }

    // For the pressure view: from the next substep on, each substep's
    // pressure is summed over its projections (Projection::startPressureSum).
    void keepPressure() { keepPressure_ = true; }
    // The last substep's pressure (p * dt / dx, m/s) over the box fields()
    // covers (0 between islands, and before keepPressure), and its length in
    // seconds: the pressure is that times dx / dt, per unit density.
    Grid3<double> substepPressure() const;
    float lastSubstepDt() const { return lastDt_; }

    // Largest face speed in m/s.
    float maxSpeed() const;

    // Throws RunError naming the first field holding NaN or inf.
    void checkFinite(int frame, int substep) const;

    // The cells of the domain the solver holds: all of them, or the box
    // that bounds a sparse solve's islands.
    Box3i activeBox() const;

  private:
    // A split solve (solver_split.cpp).
    bool split() const { return processes_ != nullptr && processes_->count() > 1; }
    // Slabs of halo either side of a process's own.
    static int splitHalo(const Scene& scene);
    // The part of `box` this process holds: its slabs and the halo, in z.
    Box3i heldBox(const Box3i& box) const;
    // Each process's slabs of `box` (domain z), held or owned; for face grids
    // along z the top face goes with the last slab.
    std::vector<SlabRange> ownedSlabs(const Box3i& box, bool zFaces) const;
    std::vector<SlabRange> heldSlabs(const Box3i& box, bool zFaces) const;
    // Fills the halo slabs with their owners' values.
    void exchangeVelocity(Island& island) const;
    void exchangeScalars(Island& island) const;
    template <typename T>
    void exchange(const Island& island, Grid3<T>& g) const;
    // The halo slabs of `values`, laid out as g (a part of `box`).
    template <typename T>
    void exchangeLike(const Box3i& box, const Grid3<T>& g, T* values) const;
    // The advector's forward steps exchanged between its passes, over the
    // slabs of `island` (Advector::exchangeStepsBy); nothing in one process.
    void exchangeStepsOf(const Island& island);
    // How implicit diffusion sweeps the island's part (nothing in one process).
    std::optional<DiffusionSplit> diffusionSplit(const Island& island) const;
    // Which sparks this process moves and bears (nothing in one process).
    std::optional<SparkSplit> sparkSplit() const;
    // Every island whole on process 0 (gathered_), after a frame: what
    // upres, --stats and the report read. gatherOnce asks the others
    // (process 0, once a frame, when something reads the whole frame).
    void gatherIslands() const;
    void gatherOnce() const;
    // Grid g of island i, every process's owned slabs to process 0's `take`
    // (solver_feed.cpp).
    void streamGrid(size_t i, FeedGrid g, const SlabRun& take) const;
    friend class SolverFeed;
    // Refuses a substep whose traces (`metres`: the fastest speed times the
    // substep) reach further than the halo holds.
    void checkSplitReach(float metres, int frame) const;
    // The box's slabs as its projection shares them (sim/pressure/slab_part.h).
    SlabPart partOf(const Box3i& box) const;
    // The box around every process's `box` (each the same on every process).
    Box3i unitedOverProcesses(const Box3i& box) const;

    // Islands (solver_islands.cpp). The boxes a solve starts with: the
    // domain, or a sparse solve's boxes around its emitters.
    static std::vector<Box3i> initialBoxes(const Scene& scene);
    // The boxes the sources and the smoke need now (grown by `margin`).
    void neededBoxes(int margin, std::vector<Box3i>& boxes);
    void fitIslands();
    void resizeBox(Island& island, const Box3i& box);
    void moveToIslands(const std::vector<Box3i>& boxes);
    // Fields over `box` of still air: moving at `velocity`, at ambient temperature.
    Fields stillAir(const Box3i& box, Vec3f velocity) const;
    // A new island of still air over `box`, its static solids placed.
    Island makeIsland(const Box3i& box, Vec3f velocity) const;
    // The state an island is made from: fields over a box of the domain, and
    // the pressure there (given, or the projection's warm start).
    struct StateOver {
        Box3i box;
        const Fields* fields;
        const Grid3<double>* pressure;
        const Projection* projection;
    };
    // A new island over `box` holding what the states hold where they
    // overlap it (their solid cells too with `solids`), at `time`.
    Island islandFrom(const Box3i& box, Vec3f velocity, const std::vector<StateOver>& from,
                      double time, bool solids) const;

    // The substep's stages (substep() keeps the shot's clock around it).
    SolveStats step(float dt);
    // Keyed shapes posed at the middle of the substep's span of the shot.
    void moveSolidsAndEmitters();
    // The velocity's part of a substep: advection, forces and projection, or
    // advection-reflection's two halves (solver.advection = "reflection").
    SolveStats advanceVelocity(Island& island, float dt);
    SolveStats advanceVelocityReflected(Island& island, float dt);
    void addForces(Island& island, float dt);
    // The stages, each on one island's fields.
    void applyEmitters(Fields& f, float dt);
    void burnFuel(Fields& f, float dt);
    void advectVelocity(Island& island, float dt);
    // The reflection's second half: the projected velocity reflected, then
    // advected through itself as it was before the reflection.
    void advectReflected(Island& island, float dt);
    void addBuoyancy(Fields& f, float dt);
    void addWind(Fields& f, float dt);
    void addTurbulence(Fields& f, float dt);
    void addVorticityConfinement(Fields& f, float dt);
    void addFlameForces(Fields& f, float dt);   // disturbance and shredding
    void addShaping(Fields& f, float dt);       // [shaping]: the same for all smoke
    void addGuide(Fields& f);                   // [guide]: toward the guide's flow
    void addForceFields(Fields& f, float dt);   // [[field]] (sim/force_fields.h)
    // physics.wind and the fields as they are this substep: posed when keyed.
    Vec3f wind() const { return scene_.forcesMove() ? now_.physics.wind : scene_.physics.wind; }
    void diffuseVelocity(Island& island, float dt);  // viscosity
    SolveStats project(Island& island, float dt, float tolerance);
    void advectScalars(Island& island, float dt);
    void diffuseScalars(Island& island, float dt);
    void dissipate(Fields& f, float dt);
    double time() const { return islands_.front().f.time; }
    // The shot's span of the substep under way.
    ShotSpan shotSpan() const;

    Scene scene_;
    // Scratch that advection, vorticity confinement and the pressure solve
    // borrow in turn (they never run at once), island after island: one
    // block, the size of the hungriest. Held by pointer so the projections'
    // references survive a move.
    std::unique_ptr<ScratchArena> scratch_;
    std::vector<Island> islands_;  // one unless a sparse solve's smoke lies apart
    // fields() of several islands, made on first use after a substep.
    mutable Fields assembled_;
    mutable bool assembledStale_ = true;
    Advector advector_;
    ScalarGrid densityBefore_;  // the smoke's colour's scratch (sim/smoke_color.h)
    int frame_ = 0;
    float lastDt_ = 0.0f;  // lastSubstepDt
    // Shot time (scene/shot_clock.h) at the start of the substep under way, and
    // its length in the shot.
    ShotClock clock_;
    double shotTime_ = 0.0;
    float shotDt_ = 0.0f;
    std::unique_ptr<GuideFrames> guide_;  // with scene.guide
    bool keepPressure_ = false;
    StageTimes times_;
    // Keyframed scenes: the emitters where they are this substep, and the
    // fastest moving solid's speed (m/s), which the CFL rule counts.
    bool obstaclesMove_ = false;
    std::vector<EmitterSettings> emitters_;
    float solidSpeed_ = 0.0f;
    // The scene posed now and half a substep either side (Scene::poseAt):
    // copies made once, their keyed keys set anew each substep.
    Scene now_, before_, after_;
    std::unique_ptr<Sparks> sparks_;  // when the scene has sparks
    // A split solve: the processes, each one's domain z-slabs, the halo.
    const Processes* processes_ = nullptr;
    std::vector<SlabRange> owned_;
    int halo_ = 0;
    // Process 0's: the frame whole when something asked (gatherOnce), and
    // whether the others serve its reads (from the end of a frame to endFrame).
    mutable std::vector<GatheredIsland> gathered_;
    mutable bool gatheredFrame_ = false;
    bool serving_ = false;
};

}  // namespace plume
