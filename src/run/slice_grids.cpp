#include "run/slice_grids.h"

#include "core/parallel.h"
#include "sim/pressure/projection.h"

namespace plume {

SolverSliceGrids::SolverSliceGrids(const Scene& scene, Solver& solver)
    : view_(scene.render.view) {
    if (view_ == RenderView::Pressure) solver.keepPressure();
}

VolumeView SolverSliceGrids::view(const Solver& solver) {
    const Fields& f = solver.fields();
    VolumeView v = f.view();
    if (view_ == RenderView::Pressure) {
        // The substep's pressure, p * dt / dx (m/s) per cell over fields()'s box.
        const Grid3<double> q = solver.substepPressure();
        const float dt = solver.lastSubstepDt();
        const double toPascal = dt > 0.0f ? double(kAirDensity) * f.dx / dt : 0.0;
        pressure_ = ScalarGrid(q.nx(), q.ny(), q.nz());
        parallelForSlabs(q.nz(), [&](int k) {
            for (int j = 0; j < q.ny(); ++j)
                for (int i = 0; i < q.nx(); ++i) pressure_(i, j, k) = float(q(i, j, k) * toPascal);
        });
        v.pressure = &pressure_;
    } else if (view_ == RenderView::Divergence) {
        Projection::divergence(f, divergence_);
        v.divergence = &divergence_;
    }
    return v;
}

}  // namespace plume
