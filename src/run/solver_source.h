// Frames from the solver: each one simulated, with upres's detail inline and
// a slice view's extra grids when the scene asks for them (render, bake).
#pragma once

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
    void writeVdb(const std::string& path, const Frame& frame, const std::string& sceneName,
                  const CacheOptions& options) const override;
    std::vector<const Fields*> fields() const override { return solver_.islandFields(); }
    // Read through the solver's feed: a split bake's process 0 sums the
    // others' slabs as they arrive, without gathering the frame whole.
    bool totals(FieldTotals& out) const override {
        out = fieldTotals(*solver_.feed());
        return true;
    }
    int endFrame(int signal) override { return solver_.endFrame(signal); }
    std::string describe(const Frame& frame) const override;

  private:
    const Scene& scene_;
    Solver solver_;
    std::optional<Upres> upres_;
    std::optional<SolverSliceGrids> slice_;  // render.view other than shaded
    int done_ = 0;
};

}  // namespace plume
