#include "preview/preview_runs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <utility>

#include "core/error.h"
#include "io/png.h"
#include "io/scene_geometry.h"
#include "io/sequence.h"
#include "report/json_text.h"
#include "run/frame_loop.h"
#include "run/frame_range.h"
#include "run/frame_sinks.h"
#include "run/solver_source.h"
#include "scene/loader.h"

namespace plume {

namespace {

// Thrown by the sink when a newer save has made its run stale.
struct Cancelled {};

// Takes each rendered frame as PNG bytes into the runs.
class PreviewSink : public FrameSink {
  public:
    PreviewSink(PreviewRuns& runs, int generation) : runs_(runs), generation_(generation) {}
    Takes takes() const override { return Takes::Image; }
    void consume(const Frame& frame) override {
        runs_.addFrame(generation_, encodePng(*frame.image), frame.sim.simSeconds,
                       frame.renderSeconds, frame.sim.substeps, frame.sim.pressureIterations);
    }

  private:
    PreviewRuns& runs_;
    int generation_;
};

// The files a loaded scene reads: its own, each mesh or points file, and
// every file of a sequence (a frame added or removed counts as a change).
std::vector<std::string> filesOf(const Scene& scene, const std::string& scenePath) {
    std::vector<std::string> files{scenePath};
    auto add = [&](const std::string& path) {
        if (path.empty()) return;
        if (!isFramePattern(path)) {
            files.push_back(path);
            return;
        }
        try {
            for (const SequenceFile& f : expandSequence(path)) files.push_back(f.path);
        } catch (const std::exception&) {
            files.push_back(path);
        }
    };
    for (const EmitterSettings& e : scene.emitters) add(e.filePath);
    for (const ObstacleSettings& o : scene.obstacles) add(o.filePath);
    return files;
}

// An error as plume prints it: WHERE: error: WHAT, else plume's own.
std::string errorLine(const std::string& what) {
    return what.find(": error: ") == std::string::npos ? "plume: error: " + what : what;
}

}  // namespace

PreviewRuns::PreviewRuns(PreviewSettings settings) : settings_(std::move(settings)) {
    watched_ = {settings_.scenePath};
    worker_ = std::thread([this] { work(); });
}

PreviewRuns::~PreviewRuns() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    worker_.join();
}

void PreviewRuns::request(Clock::time_point savedAt) {
    {
        std::lock_guard lock(mutex_);
        ++wanted_;
        requested_ = std::min(savedAt, Clock::now());
    }
    wake_.notify_all();
}

std::vector<std::string> PreviewRuns::watchedFiles() const {
    std::lock_guard lock(mutex_);
    return watched_;
}

void PreviewRuns::addFrame(int generation, std::string png, double simSeconds,
                           double renderSeconds, int substeps, int iterations) {
    std::lock_guard lock(mutex_);
    if (stopping_ || generation != wanted_) throw Cancelled{};
    if (pngs_.empty())
        firstFrameSeconds_ = std::chrono::duration<double>(Clock::now() - requested_).count();
    pngs_.push_back(std::move(png));
    stats_.push_back({simSeconds, renderSeconds, substeps, iterations});
}

bool PreviewRuns::framePng(int generation, int frame, std::string& png) const {
    std::lock_guard lock(mutex_);
    if (generation != generation_ || frame < 1 || frame > int(pngs_.size())) return false;
    png = pngs_[size_t(frame - 1)];
    return true;
}

std::string PreviewRuns::takeNews() {
    std::lock_guard lock(mutex_);
    return std::exchange(news_, {});
}

std::string PreviewRuns::stateJson() const {
    std::lock_guard lock(mutex_);
    std::string j = "{\"generation\":" + std::to_string(generation_) +
                    ",\"running\":" + (running_ ? "true" : "false") +
                    ",\"scene\":" + jsonString(sceneName_) +
                    ",\"frames\":" + std::to_string(pngs_.size()) +
                    ",\"total\":" + std::to_string(total_) + ",\"fps\":" + jsonNumber(fps_) +
                    ",\"width\":" + std::to_string(width_) +
                    ",\"height\":" + std::to_string(height_) + ",\"error\":" + jsonString(error_) +
                    ",\"first_frame_seconds\":" + jsonNumber(firstFrameSeconds_) +
                    ",\"all_frames_seconds\":" + jsonNumber(allFramesSeconds_) + ",\"stats\":{";
    auto column = [&](const char* name, auto get) {
        std::string c = jsonString(name) + ":[";
        for (size_t i = 0; i < stats_.size(); ++i) c += (i ? "," : "") + jsonNumber(get(stats_[i]));
        return c + "]";
    };
    j += column("sim_seconds", [](const FrameStats& s) { return s.sim; }) + ",";
    j += column("render_seconds", [](const FrameStats& s) { return s.render; }) + ",";
    j += column("substeps", [](const FrameStats& s) { return double(s.substeps); }) + ",";
    j += column("pressure_iterations", [](const FrameStats& s) { return double(s.iterations); });
    return j + "}}";
}

void PreviewRuns::work() {
    for (;;) {
        int generation = 0;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || wanted_ > generation_; });
            if (stopping_) return;
            generation = generation_ = wanted_;
            running_ = true;
            error_.clear();
            pngs_.clear();
            stats_.clear();
            firstFrameSeconds_ = allFramesSeconds_ = -1;
        }
        std::string error;
        try {
            runOnce(generation);
        } catch (const Cancelled&) {
        } catch (const std::exception& e) {
            error = errorLine(e.what());
        }
        std::lock_guard lock(mutex_);
        running_ = false;
        if (generation != wanted_ || stopping_) continue;
        error_ = error;
        if (error.empty()) {
            allFramesSeconds_ = std::chrono::duration<double>(Clock::now() - requested_).count();
            char line[160];
            std::snprintf(line, sizeof line,
                          "preview %d: %zu frames, the first %.2f s after the save, all in %.2f s",
                          generation, pngs_.size(), firstFrameSeconds_, allFramesSeconds_);
            news_ = line;
        } else {
            news_ = "preview " + std::to_string(generation) + ": " + error;
        }
    }
}

void PreviewRuns::runOnce(int generation) {
    // The scene as saved, then again with the preview's caps: the domain's
    // resolution, no upres, a small frame.
    const Scene saved = loadScene(settings_.scenePath, settings_.overrides);
    std::vector<std::string> overrides = settings_.overrides;
    if (saved.domain.resolution > settings_.resolution)
        overrides.push_back("domain.resolution=" + std::to_string(settings_.resolution));
    overrides.push_back("upres.factor=1");
    if (saved.render.width > settings_.width) {
        const int height = std::max(
            2, int(std::lround(double(saved.render.height) * settings_.width / saved.render.width)));
        overrides.push_back("render.width=" + std::to_string(settings_.width));
        overrides.push_back("render.height=" + std::to_string(height));
    }
    Scene scene = loadScene(settings_.scenePath, overrides);
    {
        std::lock_guard lock(mutex_);
        watched_ = filesOf(scene, settings_.scenePath);
    }
    loadSceneGeometry(scene);

    int first = 1, last = scene.time.frames;
    if (!settings_.frames.empty()) {
        parseFrameRange(settings_.frames, scene.time.startFrame, scene.time.lastFrameNumber(),
                        first, last);
        first = scene.time.frameIndex(first);
        last = scene.time.frameIndex(last);
    }
    {
        std::lock_guard lock(mutex_);
        if (generation != wanted_) throw Cancelled{};
        sceneName_ = scene.name;
        total_ = last - first + 1;
        fps_ = scene.time.fps;
        width_ = scene.render.width;
        height_ = scene.render.height;
    }
    FrameSinks sinks(scene, RunOutputs{}, first, last, /*quiet=*/true);
    sinks.add(std::make_unique<PreviewSink>(*this, generation));
    runFrameLoop(scene, sinks, last, [&](FrameSinks&, const char*& stage) {
        stage = "setting up the solver";
        return std::make_unique<SolverSource>(scene);
    });
}

}  // namespace plume
