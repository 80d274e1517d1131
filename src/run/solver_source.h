// Frames from the solver: each one simulated, with upres's detail inline and
// a slice view's extra grids when the scene asks for them (render, bake).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "run/frame_source.h"
#include "run/slice_grids.h"
#include "scene/scene.h"
#include "sim/solver.h"
#include "sim/upres/upres.h"

namespace plume {

class FrameSinks;

class SolverSource : public FrameSource {
  public:
    // `processes`: a bake split across them (sim/solver_split.cpp); upres's
    // detail is then added by the first, from the frame gathered whole.
    explicit SolverSource(const Scene& scene, const Processes* processes = nullptr);

    // Continues from the resume state at statePath: the frames it holds are
    // not simulated again (run/resume.h). Returns how many there were.
    int resume(const std::string& statePath, FrameSinks& sinks);

    int firstIndex() const override { return done_ + 1; }
    void produce(Frame& frame, const char*& stage) override;
    VolumeView view() override;
    int endFrame(int signal) override { return solver_.endFrame(signal); }

  private:
    const Scene& scene_;
    Solver solver_;
    std::optional<Upres> upres_;
    std::optional<SolverSliceGrids> slice_;  // render.view other than shaded
    // The frame just made, for its writers and totals: read through it, a
    // split bake's process 0 takes the others' slabs as they come.
    std::unique_ptr<FrameFeed> feed_;
    int done_ = 0;
};

}  // namespace plume
