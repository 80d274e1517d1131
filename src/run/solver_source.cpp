#include "run/solver_source.h"

#include <chrono>
#include <cstdio>

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
    f.solver = &solver_;
    if (upres_) {
        stage = "adding detail (upres)";
        const auto start = Clock::now();
        upres_->advance(solver_.islandFields(), f.index);
        f.sim.simSeconds += std::chrono::duration<double>(Clock::now() - start).count();
        f.fine = &upres_->fine();
        f.upres = &*upres_;
    }
}

VolumeView SolverSource::view() {
    if (slice_) return slice_->view(solver_);
    VolumeView v = upres_ ? upres_->view() : solver_.fields().view();
    v.sparks = solver_.sparks();
    return v;
}

void SolverSource::writeVdb(const std::string& path, const Frame& frame,
                            const std::string& sceneName, const CacheOptions& given) const {
    CacheOptions options = given;
    options.sparks = solver_.sparks();
    // Island by island: a sparse solve's smoke apart costs no box around it all.
    if (upres_)
        writeVdbFrame(path, solver_.islandFields(), upres_->fine(), frame.number, sceneName,
                      options);
    else
        writeVdbFrame(path, *solver_.feed(), frame.number, sceneName, options);
}

std::string SolverSource::describe(const Frame& f) const {
    char text[160];
    std::snprintf(text, sizeof text, "%d substeps, %d pressure iterations, sim %.2f s",
                  f.sim.substeps, f.sim.pressureIterations, f.sim.simSeconds);
    return text;
}

}  // namespace plume
