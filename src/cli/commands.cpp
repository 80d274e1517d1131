#include "cli/commands.h"

#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "cli/interrupt.h"
#include "cli/output_files.h"
#include "cli/progress.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/parallel.h"
#include "io/sequence.h"
#include "io/solver_state.h"
#include "io/vdb_cache.h"
#include "render/png.h"
#include "render/renderer.h"
#include "render/video_encoder.h"
#include "scene/describe.h"
#include "scene/loader.h"
#include "sim/solver.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// Exit status after an interrupt: 128 + signal, as shells report it.
int interruptedStatus() { return 128 + interruptSignal(); }

// A 64-bit FNV-1a hash of the resolved scene, so --resume refuses a changed
// scene. The frame count is left out: a bake may be extended.
std::string sceneHash(Scene scene) {
    scene.time.frames = 0;
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : describeScene(scene)) h = (h ^ c) * 1099511628211ull;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

// 4-digit frame numbers, as Blender's sequence import expects.
std::string frameDigits(int frame) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04d", frame);
    return buf;
}

// "cache/fluid_data_####.vdb" -> "fluid_data": names the video of a sequence.
std::string sequenceName(const std::string& pattern) {
    std::string stem = fs::path(pattern).stem().string();
    while (!stem.empty() && (std::isdigit(static_cast<unsigned char>(stem.back())) ||
                             stem.back() == '#' || stem.back() == '_' || stem.back() == '%' ||
                             stem.back() == 'd'))
        stem.pop_back();
    return stem.empty() ? "render" : stem;
}

double videoFps(const Scene& scene) {
    return scene.output.fps > 0 ? scene.output.fps : scene.time.fps;
}

// What one simulate-and-write run produces; render and bake differ only in this.
struct Sinks {
    std::string vdbDir, pngDir, videoPath, statsPath;
    bool resumeState = false;  // keep the solver state beside the cache (bake)
};

int simulate(const Scene& scene, const RunOptions& opt, const Sinks& sinks) {
    int first = 1, last = scene.time.frames;
    if (!opt.frames.empty()) parseFrameRange(opt.frames, scene.time.frames, first, last);
    checkMemory(scene);

    // Every output folder is proven writable before any simulation work.
    if (!sinks.vdbDir.empty()) ensureWritableDir(sinks.vdbDir);
    if (!sinks.pngDir.empty()) ensureWritableDir(sinks.pngDir);
    if (!sinks.videoPath.empty()) ensureWritableDir(parentDir(sinks.videoPath));
    if (!sinks.statsPath.empty()) ensureWritableDir(parentDir(sinks.statsPath));

    setThreadCount(opt.threads);
    Solver solver(scene);
    Progress progress(first, last, opt.quiet);

    // Resume after the last frame whose state was saved.
    const std::string hash = sceneHash(scene);
    const std::string statePath =
        sinks.resumeState ? resumeStatePath(sinks.vdbDir, scene.name) : std::string();
    int startFrame = 1;
    if (opt.resume) {
        if (!fs::exists(statePath)) {
            progress.message("plume: no saved state at '" + statePath + "'; baking from frame 1");
        } else {
            Grid3<double> pressure;
            SolverState state = readSolverState(statePath, solver.fields(), &pressure);
            solver.projection().setWarmStart(pressure);
            if (state.sceneHash != hash)
                throw InputError(scene.path + ": error: the scene changed since '" + statePath +
                                 "' was saved; bake without --resume to start over");
            startFrame = state.frame + 1;
            progress.message("plume: resuming after frame " + std::to_string(state.frame));
        }
    }

    std::unique_ptr<Renderer> renderer;
    std::unique_ptr<VideoEncoder> video;
    if (!sinks.videoPath.empty() || !sinks.pngDir.empty()) renderer = std::make_unique<Renderer>(scene);
    if (!sinks.videoPath.empty())
        video = std::make_unique<VideoEncoder>(sinks.videoPath, scene.render.width,
                                               scene.render.height, videoFps(scene), scene.output);
    CacheOptions cache;
    cache.halfFloats = scene.output.vdbPrecision == VdbPrecision::Half;
    cache.velocityName = scene.output.velocityName;

    std::vector<StatsRow> rows;
    auto writeStats = [&] {
        if (!sinks.statsPath.empty()) writeFileAtomically(sinks.statsPath, statsCsv(rows));
    };

    for (int frame = startFrame; frame <= last; ++frame) {
        FrameStats s = solver.advanceFrame(frame);
        StatsRow row{frame, s.substeps, s.pressureIterations, s.pressureResidual, s.simSeconds, 0, 0};
        if (frame >= first) {
            auto t = Clock::now();
            if (!sinks.vdbDir.empty())
                writeVdbFrame(cacheFramePath(sinks.vdbDir, scene.name, frame), solver.fields(),
                              frame, scene.name, cache);
            row.writeSeconds = secondsSince(t);
            if (renderer) {
                t = Clock::now();
                Image image = renderer->render(solver.fields().view(), frame);
                row.renderSeconds = secondsSince(t);
                t = Clock::now();
                if (!sinks.pngDir.empty())
                    writePng((fs::path(sinks.pngDir) / (scene.name + "_" + frameDigits(frame) + ".png")).string(), image);
                if (video) video->add(image);
                row.writeSeconds += secondsSince(t);
            }
        }
        if (!statePath.empty()) {
            const Grid3<double> pressure = solver.projection().warmStart();
            writeSolverState(statePath, solver.fields(), frame, hash, scene.name, &pressure);
        }
        rows.push_back(row);
        progress.frameDone(frame, s.substeps, s.pressureIterations, s.simSeconds, row.renderSeconds);
        if (interruptSignal()) {
            if (video) video->finish();
            writeStats();
            progress.message("plume: interrupted after frame " + std::to_string(frame) +
                             (video ? "; " + sinks.videoPath + " holds the frames done" : ""));
            return interruptedStatus();
        }
    }
    if (video) video->finish();
    writeStats();
    progress.finish();
    return 0;
}

}  // namespace

void parseFrameRange(const std::string& text, int lastFrame, int& first, int& last) {
    auto fail = [&](const std::string& why) {
        throw InputError("--frames " + text + ": error: " + why);
    };
    size_t dash = text.find('-');
    try {
        size_t used = 0;
        first = std::stoi(text.substr(0, dash), &used);
        if (used != (dash == std::string::npos ? text.size() : dash)) fail("expected A-B, e.g. 1-24");
        last = first;
        if (dash != std::string::npos) {
            std::string tail = text.substr(dash + 1);
            last = std::stoi(tail, &used);
            if (used != tail.size()) fail("expected A-B, e.g. 1-24");
        }
    } catch (const std::logic_error&) {
        fail("expected A-B, e.g. 1-24");
    }
    if (first < 1) fail("frames start at 1");
    if (last < first) fail("the last frame comes before the first");
    if (last > lastFrame)
        fail("the scene has " + std::to_string(lastFrame) + " frames (time.frames)");
}

int runRender(const RunOptions& opt) {
    Scene scene = loadScene(opt.scenePath, opt.overrides);
    Sinks sinks;
    sinks.videoPath = opt.output.empty() ? scene.name + ".mp4" : opt.output;
    sinks.vdbDir = opt.vdbDir;
    sinks.pngDir = opt.pngDir;
    sinks.statsPath = opt.statsPath;
    return simulate(scene, opt, sinks);
}

int runBake(const RunOptions& opt) {
    Scene scene = loadScene(opt.scenePath, opt.overrides);
    if (opt.vdbDir.empty()) throw InputError("plume bake: error: --vdb DIR is required");
    Sinks sinks;
    sinks.vdbDir = opt.vdbDir;
    sinks.statsPath = opt.statsPath;
    sinks.resumeState = true;
    return simulate(scene, opt, sinks);
}

int runCheck(const RunOptions& opt) {
    if (opt.reference) {
        std::fputs(sceneReference().c_str(), stdout);
        return 0;
    }
    if (opt.scenePath.empty()) throw InputError("plume check: error: a scene file is required");
    Scene scene = loadScene(opt.scenePath, opt.overrides);
    std::fputs(describeScene(scene).c_str(), stdout);
    checkMemory(scene);
    return 0;
}

int runRenderVdb(const RunOptions& opt) {
    std::vector<SequenceFile> files = expandSequence(opt.pattern);
    Scene scene = opt.scenePath.empty() ? parseScene("", "<defaults>", opt.overrides)
                                        : loadScene(opt.scenePath, opt.overrides);
    std::string grid = opt.grid.empty() ? scene.render.grid : opt.grid;
    if (scene.name == "<defaults>" || opt.scenePath.empty()) scene.name = sequenceName(opt.pattern);
    std::string videoPath = opt.output.empty() ? scene.name + ".mp4" : opt.output;
    ensureWritableDir(parentDir(videoPath));
    if (!opt.pngDir.empty()) ensureWritableDir(opt.pngDir);
    setThreadCount(opt.threads);

    // Without a camera from the scene, frame the whole sequence once so the
    // camera holds still while the smoke grows.
    if (!scene.camera.given) {
        Vec3f lo(1e30f), hi(-1e30f);
        for (const SequenceFile& file : files) {
            LoadedVolume v = readVdbVolume(file.path, grid);
            VolumeView view = v.view();
            lo = vmin(lo, view.worldMin());
            hi = vmax(hi, view.worldMax());
        }
        scene.camera = frameBox(lo, hi, float(scene.render.width) / float(scene.render.height));
        scene.camera.given = true;
    }

    Renderer renderer(scene);
    VideoEncoder video(videoPath, scene.render.width, scene.render.height, videoFps(scene), scene.output);
    Progress progress(files.front().frame, files.back().frame, opt.quiet);
    int index = 0;
    for (const SequenceFile& file : files) {
        auto t = Clock::now();
        LoadedVolume volume = readVdbVolume(file.path, grid);
        // Jitter follows the position in the sequence, so a re-render is identical.
        Image image = renderer.render(volume.view(), ++index);
        double renderSeconds = secondsSince(t);
        if (!opt.pngDir.empty())
            writePng((fs::path(opt.pngDir) / (scene.name + "_" + frameDigits(file.frame) + ".png")).string(), image);
        video.add(image);
        progress.frameDone(file.frame, 0, 0, 0.0, renderSeconds);
        if (interruptSignal()) {
            video.finish();
            progress.message("plume: interrupted; " + videoPath + " holds the frames done");
            return interruptedStatus();
        }
    }
    video.finish();
    progress.finish();
    return 0;
}

}  // namespace plume
