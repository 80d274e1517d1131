#include "cli/commands.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "core/error.h"
#include "core/parallel.h"
#include "core/processes.h"
#include "core/report.h"
#include "io/scene_geometry.h"
#include "io/sequence.h"
#include "io/solver_state.h"
#include "render/camera.h"
#include "render/output/color_space.h"
#include "render/views/slice_view.h"
#include "run/cache_sequence.h"
#include "run/cache_source.h"
#include "run/flipbook_sink.h"
#include "run/frame_loop.h"
#include "run/frame_range.h"
#include "run/loop_blend.h"
#include "run/memory_check.h"
#include "run/resume.h"
#include "run/solver_source.h"
#include "scene/describe.h"
#include "scene/loader.h"
#include "scene/schema.h"
#include "scene/slice_spec.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

// Warnings go nowhere with --quiet, also those said before the frame loop
// shows its progress.
WarningSink quietWarnings(bool quiet) {
    if (!quiet) return {};
    return [](const std::string&) {};
}

// -o, the default <name>.mp4, or none with --no-video (or a --flipbook without -o:
// its frames are cells, not a shot to watch).
std::string videoPath(const RunOptions& opt, const std::string& name) {
    if (opt.noVideo) {
        if (!opt.output.empty())
            throw InputError("-o " + opt.output + ": error: --no-video writes no video");
        if (opt.outputs.pngDir.empty() && opt.outputs.exrDir.empty() &&
            opt.outputs.vdbDir.empty() && opt.outputs.deepDir.empty() &&
            opt.outputs.nvdbDir.empty() && opt.outputs.flipbookDir.empty())
            throw InputError("--no-video: error: nothing to write; add --png DIR or --exr DIR");
        return {};
    }
    if (!opt.outputs.flipbookDir.empty() && opt.output.empty()) return {};
    return opt.output.empty() ? name + ".mp4" : opt.output;
}

// --flipbook: every frame rendered as its cell (flipbook_sink.h).
void flipbookScene(const RunOptions& opt, Scene& scene) {
    if (!opt.outputs.flipbookDir.empty()) applyFlipbook(scene);
}

// A split bake's closing words: what its processes sent each other, and
// how much of the bake they spent exchanging it (waiting included).
void reportTraffic(const Processes& processes, std::chrono::steady_clock::time_point start) {
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const Processes::Traffic mine = processes.traffic();
    const std::vector<SlabRange> each = splitSlabs(processes.count(), processes.count(), 1);
    const std::vector<double> bytes = processes.allPartials(std::span(&mine.bytes, 1), each);
    const std::vector<double> seconds = processes.allPartials(std::span(&mine.seconds, 1), each);
    if (processes.rank() != 0) return;
    double total = 0, most = 0, sum = 0;
    for (size_t p = 0; p < bytes.size(); ++p)
        total += bytes[p], sum += seconds[p], most = std::max(most, seconds[p]);
    char line[200];
    std::snprintf(line, sizeof line,
                  "plume: %d processes exchanged %.1f MB; %.0f%% of the bake's %.1f s went on "
                  "exchanges and the waits in them (the most a process: %.0f%%)",
                  processes.count(), total / 1e6, 100.0 * sum / double(bytes.size()) / wall, wall,
                  100.0 * most / wall);
    printMessage(line);
}

// render and bake: the solver's frames, from the first (or after the resume
// state's) to --frames' last; frames before --frames are simulated, not written.
int simulate(const Scene& scene, const RunOptions& opt, const RunOutputs& outputs) {
    int first = 1, last = scene.time.frames;
    if (!opt.frames.empty()) {
        parseFrameRange(opt.frames, scene.time.startFrame, scene.time.lastFrameNumber(), first,
                        last);
        first = scene.time.frameIndex(first);
        last = scene.time.frameIndex(last);
    }
    if (outputs.pictures()) loopFrames(scene, !opt.frames.empty(), 1, first, last);
    // A bake into the folder its guide is read from would write over the guide as it reads it.
    if (scene.guide.on() && !outputs.vdbDir.empty()) {
        std::error_code ec;
        const fs::path guideDir = fs::weakly_canonical(
            fs::absolute(fs::path(scene.guide.cachePath)).parent_path(), ec);
        if (!ec && fs::weakly_canonical(fs::absolute(outputs.vdbDir), ec) == guideDir)
            throw InputError("--vdb " + outputs.vdbDir + ": error: it is the folder of the guide (" +
                             scene.guide.cache + "), which the bake reads: give another folder");
    }
    if (opt.processes != nullptr && opt.processes->count() > 1)
        if (const std::string why = Solver::splitRefusal(scene); !why.empty())
            throw InputError(why);  // before any folder is made
    checkMemory(scene, opt.processes != nullptr ? opt.processes->count() : 1);
    // A bake split across processes: the first writes every file and shows
    // the progress; the others simulate their parts beside it.
    const bool writes = opt.processes == nullptr || opt.processes->rank() == 0;
    FrameSinks sinks(scene, writes ? outputs : RunOutputs{}, first, last, opt.quiet || !writes,
                     scene.time.frames);
    if (!writes) sinks.silence();
    setThreadCount(opt.threads);
    const auto start = std::chrono::steady_clock::now();
    const int status = runFrameLoop(
        scene, sinks, last,
        [&](FrameSinks& s, const char*& stage) {
            stage = "setting up the solver";
            auto source = std::make_unique<SolverSource>(scene, opt.processes);
            stage = "reading the resume state";
            if (opt.resume) source->resume(outputs.statePath, s);
            return source;
        },
        writes ? outputs.statePath : std::string());
    if (status == 0 && opt.processes != nullptr && opt.processes->count() > 1 && !opt.quiet)
        reportTraffic(*opt.processes, start);
    return status;
}

// A bake of some frames into a folder that holds others of the same name
// leaves a cache of two bakes: say which frames are not this one's.
void warnOtherFrames(const Scene& scene, const RunOptions& opt) {
    std::error_code ec;
    if (!fs::is_directory(opt.outputs.vdbDir, ec)) return;
    int first = scene.time.startFrame, last = scene.time.lastFrameNumber();
    if (!opt.frames.empty()) parseFrameRange(opt.frames, first, last, first, last);
    std::vector<SequenceFile> files;
    try {
        files =
            expandSequence((fs::path(opt.outputs.vdbDir) / (scene.name + "_####.vdb")).string());
    } catch (const std::exception&) {
        return;  // none there
    }
    std::vector<int> others;
    for (const SequenceFile& f : files)
        if (f.frame < first || f.frame > last) others.push_back(f.frame);
    if (others.empty() || opt.resume) return;
    warn(opt.outputs.vdbDir + ": holds " + countOf(int(others.size()), "frame") + " (" +
         std::to_string(others.front()) + "-" + std::to_string(others.back()) +
         ") of an earlier bake beside the frames this one writes (" + std::to_string(first) + "-" +
         std::to_string(last) + "); the cache mixes the two");
}

// The scene with its mesh shapes turned into SDFs, ready to simulate.
Scene loadSceneWithGeometry(const RunOptions& opt) {
    Scene scene = loadScene(opt.scenePath, opt.overrides);
    loadSceneGeometry(scene);
    return scene;
}

}  // namespace

int runRender(const RunOptions& opt) {
    Scene scene = loadSceneWithGeometry(opt);
    flipbookScene(opt, scene);
    RunOutputs outputs = opt.outputs;
    outputs.videoPath = videoPath(opt, scene.name);
    return simulate(scene, opt, outputs);
}

int runBake(const RunOptions& opt) {
    if (opt.outputs.vdbDir.empty() && opt.outputs.nvdbDir.empty())
        throw InputError(
            "plume bake: error: --vdb (or --nvdb) is required (see plume bake --help)");
    Scene scene = loadSceneWithGeometry(opt);
    const ScopedWarningSink quiet(quietWarnings(opt.quiet));
    warnOtherFrames(scene, opt);
    RunOutputs outputs = opt.outputs;
    outputs.statePath =
        resumeStatePath(outputs.vdbDir.empty() ? outputs.nvdbDir : outputs.vdbDir, scene.name);
    return simulate(scene, opt, outputs);
}

int runCheck(const RunOptions& opt) {
    if (opt.reference) {
        printOutput(opt.referenceFormat == "json" ? sceneReferenceJson() : sceneReference());
        return 0;
    }
    if (opt.scenePath.empty()) throw InputError("plume check: error: a scene file is required");
    Scene scene = loadSceneWithGeometry(opt);
    workingSpace(scene);  // output.color_space names a space of the OpenColorIO config
    printOutput(describeScene(scene, estimateMemory(scene)));
    checkMemory(scene);
    return 0;
}

int runRenderVdb(const RunOptions& opt) {
    const ScopedWarningSink quiet(quietWarnings(opt.quiet));
    const CacheSequence cache(opt.pattern);
    Scene scene = opt.scenePath.empty() ? parseScene("", "<defaults>", opt.overrides)
                                        : loadScene(opt.scenePath, opt.overrides);
    cache.applyTo(scene, opt.scenePath, opt.overrides);
    // The scene's solids are drawn as render draws them, meshes too.
    if (!opt.scenePath.empty()) loadObstacleGeometry(scene);
    const std::string grid = opt.grid.empty() ? scene.render.grid : opt.grid;
    cache.fireDefaults(scene, grid);
    flipbookScene(opt, scene);
    RunOutputs outputs = opt.outputs;
    outputs.videoPath = videoPath(opt, scene.name);
    // --frames A-B picks files by frame number; the framing follows the whole
    // sequence, the keyed camera and render jitter each file's number, so a
    // frame is the same whichever range renders it.
    int first = 0, last = 0;
    cache.frameRange(opt.frames, first, last);
    if (outputs.pictures()) {
        // The loop's frames by the cache's numbers, from its first file on.
        int from = first - cache.firstFrame() + 1;
        loopFrames(scene, !opt.frames.empty(), 1, from, last - cache.firstFrame() + 1);
        first = from + cache.firstFrame() - 1;
    }
    cache.requireWhole(first, last);

    // Each file's box from its metadata (the voxels are read once, to render
    // them). A grid whose dense box cannot fit is refused before any output
    // folder is made: a sparse grid with smoke far apart spans a huge box.
    Vec3f lo, hi;
    std::vector<CacheSequence::FileBounds> boxes;
    cache.bounds(scene, grid, first, last, lo, hi, &boxes);
    for (const CacheSequence::FileBounds& b : boxes)
        checkVolumeMemory(scene, b.path, grid, b.bounds.voxels);
    checkViewGrid(cache, scene);

    // The sinks count frames from 1 at the scene's time.start_frame.
    const int firstIndex = scene.time.frameIndex(first), lastIndex = scene.time.frameIndex(last);
    FrameSinks sinks(scene, outputs, firstIndex, lastIndex, opt.quiet,
                     scene.time.frameIndex(cache.lastFrame()));
    setThreadCount(opt.threads);

    // Without a camera: a scene's domain from the front, as render frames it
    // (the renderer's own framing); without a scene, the whole sequence's box.
    // Either is one framing for the shot, held while the smoke grows.
    if (!scene.camera.given && opt.scenePath.empty()) {
        scene.camera = frameBox(lo, hi, float(scene.render.width) / float(scene.render.height));
        scene.camera.given = true;
    }
    // A slice view without a plane or a scene: the middle of the sequence's
    // box across the view, whichever frames this run renders.
    if (scene.render.view != RenderView::Shaded && scene.render.slice.empty() &&
        opt.scenePath.empty())
        scene.render.slice = sliceText(defaultSlice(scene.camera, lo, hi));

    return runFrameLoop(scene, sinks, lastIndex, [&](FrameSinks&, const char*&) {
        return std::make_unique<CacheSource>(cache, scene, grid, firstIndex);
    });
}

}  // namespace plume
