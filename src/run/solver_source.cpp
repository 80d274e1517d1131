#include "run/solver_source.h"

#include <chrono>
#include <cstdio>

#include "io/guide_cache.h"
#include "run/frame_sink.h"
#include "run/frame_sinks.h"
#include "run/resume.h"

namespace plume {

using Clock = std::chrono::steady_clock;

SolverSource::SolverSource(const Scene& scene, const Processes* processes)
    : scene_(scene), solver_(scene, processes) {
    const bool first = processes == nullptr || processes->rank() == 0;
    if (scene.upres.on() && first) upres_.emplace(scene);
    if (scene.render.view != RenderView::Shaded) slice_.emplace(scene, solver_);
    if (scene.guide.on()) solver_.setGuide(openGuideCache(scene));
}

int SolverSource::resume(const std::string& statePath, FrameSinks& sinks) {
    done_ = restoreSolver(statePath, scene_, solver_,
                          [&sinks](const std::string& line) { sinks.message(line); });
    if (upres_ && done_ > 0) restoreUpres(statePath, scene_, done_, solver_, *upres_);
    return done_;
}

void SolverSource::produce(Frame& f, const char*& stage) {
    stage = "simulating";
    f.sim = solver_.advanceFrame(f.index);
    if (upres_) {
        stage = "adding detail (upres)";
        const auto start = Clock::now();
        upres_->advance(solver_.islandFields(), f.index);
        f.sim.simSeconds += std::chrono::duration<double>(Clock::now() - start).count();
    }
    char did[160];
    std::snprintf(did, sizeof did, "%d substeps, %d pressure iterations, sim %.2f s",
                  f.sim.substeps, f.sim.pressureIterations, f.sim.simSeconds);
    f.did = did;
    // What the sinks asked for, as views of the solver's and upres's own.
    feed_.reset();
    if (f.asks(kResume | kTotals) || (f.asks(kGrids) && !upres_)) feed_ = solver_.feed();
    if (f.asks(kGrids | kFields)) {
        // Island by island: a sparse solve's smoke apart costs no box around it all.
        f.grids.islands = solver_.islandFields();
        f.grids.sparks = solver_.sparks();
        if (upres_)
            f.grids.fine = &upres_->fine();
        else
            f.grids.feed = feed_.get();
    }
    if (f.asks(kResume)) {
        f.resume.feed = feed_.get();
        f.resume.sparks = solver_.sparks();
        if (upres_)
            f.resume.upres = UpresResume{upres_->time(), upres_->factor(), upres_->box(),
                                         upres_->fineGrids(), upres_->driftGrids()};
    }
    // Read through the feed: a split bake's process 0 sums the others' slabs
    // as they arrive, without gathering the frame whole.
    if (f.asks(kTotals)) {
        f.totals = fieldTotals(*feed_);
        if (const SparkList* sparks = solver_.sparks()) f.totals.sparks = double(sparks->size());
    }
}

VolumeView SolverSource::view() {
    if (slice_) return slice_->view(solver_);
    VolumeView v = upres_ ? upres_->view() : solver_.fields().view();
    v.sparks = solver_.sparks();
    return v;
}

}  // namespace plume
