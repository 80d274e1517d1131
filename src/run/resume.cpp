#include "run/resume.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/error.h"
#include "io/solver_state.h"
#include "io/upres_state.h"
#include "run/output_paths.h"
#include "scene/describe.h"

namespace plume {

std::string sceneHash(Scene scene) {
    scene.time.frames = 0;
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : describeScene(scene)) h = (h ^ c) * 1099511628211ull;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

ResumeStateSink::ResumeStateSink(std::string path, const Scene& scene)
    : path_(std::move(path)), sceneHash_(sceneHash(scene)), sceneName_(scene.name) {
    ensureWritableFile(path_);
}

void ResumeStateSink::consume(const Frame& frame) {
    const FrameResume& resume = frame.resume;
    if (!resume.feed) throw RunError(path_ + ": this command keeps no resume state");
    // The solver's fields come a run of slabs at a time through the feed (a
    // snapshot would copy them all at the moment the file's grids are built,
    // the bake's peak). Upres's part first, in the file of this frame's parity: stopped before
    // the solver's is written, the other file still holds the frame before.
    // The state counts frames as the solver does, from 1; messages name numbers.
    if (resume.upres)
        writeUpresState(upresStatePath(path_, frame.index), upresState(frame.index, *resume.upres));
    writeSolverState(path_, *resume.feed, true, frame.index, sceneHash_, sceneName_, resume.sparks);
    saved_ = frame.number;
}

UpresState ResumeStateSink::upresState(int frame, const UpresResume& upres) const {
    UpresState state;
    state.frame = frame;
    state.sceneHash = sceneHash_;
    state.time = upres.time;
    state.factor = upres.factor;
    state.box = upres.box;
    // Copies, for the one writer that takes them: a few fine grids per frame.
    for (const ScalarGrid* g : upres.fine) state.fine.push_back(*g);
    for (const ScalarGrid* g : upres.drift) state.drift.push_back(*g);
    return state;
}

std::string ResumeStateSink::keptOnInterrupt() const {
    return saved_ ? resumeStateKept(path_, *saved_) : std::string();
}

std::string ResumeStateSink::wrote() const {
    if (!saved_) return {};
    std::error_code ec;
    std::uintmax_t bytes = std::filesystem::file_size(path_, ec);
    for (const int parity : {0, 1})  // upres's part, in a file of each frame's parity
        if (const auto more = std::filesystem::file_size(upresStatePath(path_, parity), ec); !ec)
            bytes += more;
    char size[32];
    std::snprintf(size, sizeof size, "%.1f MB", double(bytes) / 1e6);
    return "the resume state to " + path_ + " (" + size +
           ": bake --resume goes on from it; delete it once the cache is final)";
}

std::string resumeStateKept(const std::string& path, int frame) {
    return path + " holds frame " + std::to_string(frame) + "; bake --resume goes on from there";
}

int restoreSolver(const std::string& path, const Scene& scene, Solver& solver,
                  const std::function<void(const std::string&)>& say) {
    // The run this one resumes may have been killed mid-write: its temporaries go.
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    removeStaleTemporaries(dir.empty() ? "." : dir.string());
    if (!std::filesystem::exists(path)) {
        say("plume: no saved state at '" + path + "'; baking from frame " +
            std::to_string(scene.time.startFrame));
        return 0;
    }
    // Shaped by the file; a split bake's process reads only its slabs.
    SolverSnapshot state{solver.stateFields(), {}, {}, {}, {}};
    const SolverState saved =
        readSolverState(path, state.fields, &state.pressure, solver.heldWindow());
    state.box = saved.box;
    state.islands = saved.islands;
    state.sparks = saved.sparks;
    if (saved.sceneHash != sceneHash(scene))
        throw InputError(scene.path + ": error: the scene changed since '" + path +
                         "' was saved; bake without --resume to start over");
    solver.restore(state);
    say("plume: resuming after frame " + std::to_string(scene.time.frameNumber(saved.frame)));
    return saved.frame;
}

void restoreUpres(const std::string& path, const Scene& scene, int frame, const Solver& solver,
                  Upres& upres) {
    const std::string file = upresStatePath(path, frame);
    UpresState state = readUpresState(file);
    if (state.frame != frame || state.sceneHash != sceneHash(scene) ||
        state.factor != upres.factor())
        throw RunError("'" + file + "' does not hold frame " + std::to_string(frame) +
                       " of this scene's upres; bake without --resume to start over");
    upres.restore(solver.fields(), state.box, state.time, std::move(state.fine),
                  std::move(state.drift));
}

}  // namespace plume
