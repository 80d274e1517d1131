// Pressure projection: makes the face velocities divergence-free.
//
// Cells are fluid unless `solid` marks them. Domain sides: a wall is a
// no-through-flow boundary (face velocity 0, Neumann pressure), an inflow side
// imposes its velocity (Neumann), an open side has pressure 0 just outside
// (Dirichlet) and lets flow leave or enter. Faces touching a solid cell are 0.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "core/scratch_arena.h"
#include "scene/scene.h"
#include "sim/fields.h"
#include "sim/pressure/slab_part.h"
#include "sim/pressure/solve_stats.h"

namespace plume {

class PressureSolverImpl;  // the method's scratch memory, allocated once

class Projection {
  public:
    // The solve's vectors (right-hand side, CG's four) are borrowed from
    // `scratch` for the length of each project(), or from an arena of the
    // projection's own when none is given. `scratch` must outlive it.
    //
    // With a split `part` (slab_part.h) the grid's z-slabs are split among
    // processes and `cells` are this process's fields: x and y whole, z the
    // slabs [part.first, part.first + cells.z), its owned slabs and halo
    // slabs around them. Every process then calls project() together; it
    // reads the fields' solid mask on every local slab and the velocities
    // (and expansion) on the owned cells' faces, and sets every owned
    // cell's faces to the one-process projection's values, bit for bit, with
    // the same SolveStats on every process (closed fluid regions too).
    // z sides apply only where the grid's are among the fields' faces; a cut
    // between processes is no side. The warm start and pressure sum are
    // kept for the owned cells (0 elsewhere). Throws RunError for "sor".
    Projection(Vec3i cells, const std::array<Boundary, 6>& boundary, Vec3f inflowVelocity,
               PressureMethod method, ScratchArena* scratch = nullptr, SlabPart part = {});
    ~Projection();
    Projection(Projection&&) noexcept;
    Projection& operator=(Projection&&) noexcept;

    // Sets boundary face velocities (walls, inflow sides, solid faces).
    void enforceBoundaries(Fields& f) const;

    // Enforces boundaries, solves for pressure, subtracts its gradient.
    // Stops when |r|/|b| <= tolerance or after maxIterations.
    SolveStats project(Fields& f, float dt, float tolerance, int maxIterations);

    // The advection-reflection scheme's reflection (Zehnder et al. 2018):
    // subtracts the last project()'s pressure gradient from `f` once more,
    // so u = P u~ becomes 2 P u~ - u~ without a copy of u~ (nothing when that
    // solve subtracted none, or when it was reflected already). The kept
    // pressure stays the next solve's start, as after any project(): a resumed
    // bake starts from the same (starting from -p, nearer the reflected
    // gradient the next solve removes, would save only 1% of bench.toml's
    // iterations).
    void reflect(Fields& f);

    // Hands the pages of the solver's own scratch back between frames
    // (MultigridPreconditioner::returnPages).
    void returnScratchPages();

    // Forgets the pressure kept as the next solve's initial guess (benchmarks
    // and tests that want a cold start).
    void resetWarmStart();

    // The pressure kept as the next solve's initial guess, per cell (p * dt / dx,
    // m/s). Part of the solver's state: a resumed bake must start its next
    // solve from the same guess to reproduce an uninterrupted one bit for bit.
    Grid3<double> warmStart() const;
    // The same for slabs [z0, z1) of the fields' grid only, into `out`
    // (slab-major; 0 where no pressure is held): a split bake's writer
    // reads it a run of slabs at a time.
    void warmStartSlabs(int z0, int z1, double* out) const;
    void setWarmStart(const Grid3<double>& pressure);

    // The pressure view's: from now on, sums the pressure (p * dt / dx, m/s,
    // as warmStart) of every gradient project() and reflect() subtract,
    // starting from zero. A substep's pressure is that sum: one solve's, or
    // with advection-reflection the first solve's twice (it is subtracted
    // again by reflect) and the second's.
    void startPressureSum();
    // The sum per cell; zeros before startPressureSum.
    Grid3<double> pressureSum() const;

    // What a split solve has spent talking to the other processes since
    // this projection was made (zeros for one process).
    SplitCost splitCost() const;

    // Bytes a projection of this method keeps for `cells` (with a copy of
    // the solid mask when there are solids), and the scratch it borrows.
    static std::uint64_t bytesFor(Vec3i cells, PressureMethod method, bool solids);
    static std::uint64_t scratchBytesFor(Vec3i cells, PressureMethod method);

    // max |div u| * dx over fluid cells, in m/s (what a test compares with tolerance).
    static float maxDivergence(const Fields& f);
    // div u per cell in 1/s (0 in solid cells), for the divergence view;
    // out takes the fields' size.
    static void divergence(const Fields& f, ScalarGrid& out);

  private:
    Vec3i n_;
    std::array<Boundary, 6> boundary_;
    Vec3f inflow_;
    PressureMethod method_;
    SlabPart part_;
    // Whether the grid's z sides are among these fields' faces (always with
    // one process): boundary[kZMin], boundary[kZMax] apply only there.
    bool zMinHere_ = true, zMaxHere_ = true;
    std::unique_ptr<PressureSolverImpl> impl_;

    SolveStats projectSplit(Fields& f, float tolerance, int maxIterations);
};

}  // namespace plume
