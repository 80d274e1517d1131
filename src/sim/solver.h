// Solver: advances the smoke one frame at a time in CFL-sized substeps.
#pragma once

#include <cstdint>
#include <memory>

#include "core/box.h"
#include "scene/scene.h"
#include "sim/advection.h"
#include "sim/fields.h"
#include "sim/forces.h"
#include "sim/pressure/projection.h"

namespace plume {

// Wall-clock seconds spent in each stage of substep(), summed over substeps
// (for benchmarks), with the groups the benchmark reports.
struct StageTimes {
    double emit = 0, burn = 0, advectVelocity = 0, buoyancy = 0, wind = 0, turbulence = 0,
           vorticity = 0, viscosity = 0, project = 0, advectScalars = 0, diffuseScalars = 0,
           dissipate = 0;
    double forces() const { return buoyancy + wind + turbulence + vorticity + viscosity; }
    double scalars() const { return advectScalars + diffuseScalars + dissipate; }
    double total() const {
        return emit + burn + advectVelocity + forces() + project + scalars();
    }
};

struct FrameStats {
    int frame = 0;
    int substeps = 0;
    int pressureIterations = 0;  // summed over the frame's substeps
    float pressureResidual = 0;  // the largest final residual of the frame
    double simSeconds = 0;       // wall time
    std::uint64_t cells = 0;     // the most cells the solver held in a substep (its box)
};

// What a run needs to go on from the end of a frame bit for bit as if it had
// never stopped: the fields (with their time) and the pressure the next
// projection starts from.
struct SolverSnapshot {
    Fields fields;
    Grid3<double> pressure;  // Projection::warmStart, per cell
};

class Solver {
  public:
    explicit Solver(const Scene& scene);

    // Bytes a solver of this scene holds once it has run a substep: its
    // fields, their advection sources, the pressure solve's own grids, and
    // the scratch arena, as large as the hungriest stage's need (each counted
    // by the type that owns or borrows the buffers).
    static std::uint64_t bytesFor(const Scene& scene);
    // The same for a sparse solve holding a box of `cells`.
    static std::uint64_t bytesFor(const Scene& scene, Vec3i cells);
    // The cells a solve of this scene holds at its start: the domain, or for
    // a sparse solve the box around its emitters.
    static Vec3i startCells(const Scene& scene);
    // The arena's part of that.
    static std::uint64_t scratchBytesFor(const Scene& scene);
    static std::uint64_t scratchBytesFor(const Scene& scene, Vec3i cells);
    // Bytes the scratch arena holds now.
    std::uint64_t scratchBytes() const { return scratch_->capacity(); }

    // Simulates frame `frame` (1-based): from time (frame-1)/fps to frame/fps.
    FrameStats advanceFrame(int frame);

    // One substep of dt seconds, the solver's stages in order.
    SolveStats substep(float dt);

    Fields& fields() { return f_; }
    const Fields& fields() const { return f_; }
    Projection& projection() { return projection_; }
    const Projection& projection() const { return projection_; }
    const StageTimes& stageTimes() const { return times_; }
    void resetStageTimes() { times_ = {}; }

    // The solver's state, and back. restore() throws RunError for a snapshot
    // of another grid size.
    SolverSnapshot snapshot() const;
    void restore(const SolverSnapshot& snapshot);

    // Largest face speed in m/s.
    float maxSpeed() const;

    // Throws RunError naming the first field holding NaN or inf.
    void checkFinite(int frame, int substep) const;

    // The cells of the domain the solver holds: all of them, or the active
    // box of a sparse solve.
    const Box3i& activeBox() const { return box_; }

  private:
    // Sparse solves: the box the sources and the smoke need now, and moving
    // the fields to another box.
    Box3i neededBox(int margin) const;
    void fitActiveBox();
    void resizeBox(const Box3i& box);
    void moveSolidsAndEmitters(float dt);
    void applyEmitters(float dt);
    void burnFuel(float dt);
    void advectVelocity(float dt);
    void addBuoyancy(float dt);
    void addWind(float dt);
    void addTurbulence(float dt);
    void addVorticityConfinement(float dt);
    void diffuseVelocity(float dt);  // viscosity
    SolveStats project(float dt);
    void advectScalars(float dt);
    void diffuseScalars(float dt);
    void dissipate(float dt);

    Scene scene_;
    Box3i box_;  // what f_ covers, in domain cells
    Fields f_;
    // Scratch that advection, vorticity confinement and the pressure solve
    // borrow in turn (they never run at once): one block, the size of the
    // hungriest. Held by pointer so the projection's reference survives a move.
    std::unique_ptr<ScratchArena> scratch_;
    Projection projection_;
    Advector advector_;
    int frame_ = 0;
    StageTimes times_;
    // Keyframed scenes: the emitters where they are this substep, and the
    // fastest moving solid's speed (m/s), which the CFL rule counts.
    bool obstaclesMove_ = false;
    std::vector<EmitterSettings> emitters_;
    float solidSpeed_ = 0.0f;
};

}  // namespace plume
