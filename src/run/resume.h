// bake --resume: the solver's state saved beside the cache after every frame,
// with the hash of the scene it belongs to, and restored from there. The
// state is the Solver's snapshot (sim/solver.h); the file is io's
// (io/solver_state.h).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "io/upres_state.h"
#include "run/frame_sink.h"
#include "scene/scene.h"
#include "sim/solver.h"
#include "sim/upres/upres.h"

namespace plume {

// A 64-bit FNV-1a hash of the resolved scene, so --resume refuses a changed
// scene. The frame count is left out: a bake may be extended.
std::string sceneHash(Scene scene);

// DIR/NAME.resume, rewritten after every simulated frame, written or not.
class ResumeStateSink : public FrameSink {
  public:
    ResumeStateSink(std::string path, const Scene& scene);
    Takes takes() const override { return Takes::EveryFrame; }
    unsigned needs() const override { return kResume; }
    std::vector<std::string> folders() const override { return {folderOfFile(path_)}; }
    // Writes frame.resume; RunError when the frame has none (not the solver's).
    void consume(const Frame& frame) override;
    std::string keptOnInterrupt() const override;
    // "the resume state to DIR/NAME.resume (4.7 MB: ...)": what the file is
    // for and how to drop it, since it is often larger than a frame.
    std::string wrote() const override;

  private:
    UpresState upresState(int frame, const UpresResume& upres) const;

    std::string path_, sceneHash_, sceneName_;
    std::optional<int> saved_;  // the number of the frame the file holds, once written
};

// "PATH holds frame N; bake --resume goes on from there": what a stopped bake keeps.
std::string resumeStateKept(const std::string& path, int frame);

// Restores solver from the state saved at path and returns the last frame it
// holds; 0 when nothing was saved there (and says so). Throws InputError when
// the scene changed since, RunError for an unreadable or mismatched state.
// `say` prints a line beside the progress (FrameSinks::message).
int restoreSolver(const std::string& path, const Scene& scene, Solver& solver,
                  const std::function<void(const std::string&)>& say);

// Restores upres from the state saved beside `path` for `frame` (the frame
// the solver's state holds). Throws RunError when it is missing or of another
// frame, scene or factor.
void restoreUpres(const std::string& path, const Scene& scene, int frame, const Solver& solver,
                  Upres& upres);

}  // namespace plume
