#include "cli/commands.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <new>
#include <optional>

#include "cli/frame_sinks.h"
#include "cli/interrupt.h"
#include "cli/memory_check.h"
#include "cli/resume.h"
#include "cli/slice_grids.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/report.h"
#include "io/scene_geometry.h"
#include "io/sequence.h"
#include "io/solver_state.h"
#include "io/vdb_cache.h"
#include "render/camera.h"
#include "render/slice_view.h"
#include "scene/describe.h"
#include "scene/loader.h"
#include "scene/schema.h"
#include "scene/slice_spec.h"
#include "sim/solver.h"
#include "sim/upres/upres.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// Exit status after an interrupt: 128 + signal, as shells report it.
int interruptedStatus() { return 128 + interruptSignal(); }

// "cache/fluid_data_####.vdb" -> "fluid_data": names the video of a sequence.
std::string sequenceName(const std::string& pattern) {
    std::string stem = fs::path(pattern).stem().string();
    while (!stem.empty() &&
           (std::isdigit(static_cast<unsigned char>(stem.back())) || stem.back() == '#' ||
            stem.back() == '_' || stem.back() == '%' || stem.back() == 'd'))
        stem.pop_back();
    return stem.empty() ? "render" : stem;
}

// -o, the default <name>.mp4, or none with --no-video.
std::string videoPath(const RunOptions& opt, const std::string& name) {
    if (opt.noVideo) {
        if (!opt.output.empty())
            throw InputError("-o " + opt.output + ": error: --no-video writes no video");
        if (opt.outputs.pngDir.empty() && opt.outputs.exrDir.empty() && opt.outputs.vdbDir.empty())
            throw InputError("--no-video: error: nothing to write; add --png DIR or --exr DIR");
        return {};
    }
    return opt.output.empty() ? name + ".mp4" : opt.output;
}

// The frame loop of render and bake: simulate, write the fields, render,
// write the pictures. Out of memory, it says in words where and with what
// room (the resume state and the frames done are kept).
int simulate(const Scene& scene, const RunOptions& opt, const RunOutputs& outputs) {
    // --frames names frame numbers; the loop counts the solver's frames from 1.
    int first = 1, last = scene.time.frames;
    if (!opt.frames.empty()) {
        parseFrameRange(opt.frames, scene.time.startFrame, scene.time.lastFrameNumber(), first,
                        last);
        first = scene.time.frameIndex(first);
        last = scene.time.frameIndex(last);
    }
    checkMemory(scene);
    FrameSinks sinks(scene, outputs, first, last, opt.quiet);

    setThreadCount(opt.threads);
    int frame = 0;  // before the first
    const char* stage = "setting up the solver";
    try {
        Solver solver(scene);
        std::optional<Upres> upres;
        if (scene.upres.on()) upres.emplace(scene);
        std::optional<SolverSliceGrids> slice;  // render.view other than shaded
        if (scene.render.view != RenderView::Shaded) slice.emplace(scene, solver);
        stage = "reading the resume state";
        const int done = opt.resume ? restoreSolver(outputs.statePath, scene, solver, sinks) : 0;
        if (upres && done > 0) restoreUpres(outputs.statePath, scene, done, solver, *upres);
        stage = "opening the outputs";
        sinks.open(scene);
        for (frame = done + 1; frame <= last; ++frame) {
            Frame f = sinks.frame(frame);
            stage = "simulating";
            f.sim = solver.advanceFrame(frame);
            if (upres) {
                stage = "adding detail (upres)";
                const auto start = Clock::now();
                upres->advance(solver.islandFields(), frame);
                f.sim.simSeconds += std::chrono::duration<double>(Clock::now() - start).count();
                f.fine = &upres->fine();
                f.upres = &*upres;
            }
            stage = "writing the fields";
            sinks.writeFields(f, solver);
            stage = "rendering";
            if (slice)
                sinks.render(f, slice->view(solver), frame);
            else
                sinks.render(f, upres ? upres->view() : solver.fields().view(), frame);
            stage = "writing the pictures";
            sinks.writePictures(f);
            stage = "writing the frame's statistics and state";
            sinks.frameDone(f);
            if (sinks.interrupted(frame)) return interruptedStatus();
        }
        stage = "finishing the outputs";
        sinks.finish();
    } catch (const std::bad_alloc&) {
        std::string kept = sinks.kept();
        // The first frame after a resume: the state still holds the one before.
        if (kept.empty() && !outputs.statePath.empty() && frame > 1 &&
            fs::exists(outputs.statePath))
            kept = resumeStateKept(outputs.statePath, scene.time.frameNumber(frame - 1));
        throw outOfMemory(scene, scene.time.frameNumber(frame), stage, kept);
    }
    return 0;
}

// A cache with a flame grid is a fire (plume's, or Blender's Mantaflow's).
// Unless the scene or a --set says otherwise, render-vdb shows its flame as
// blackbody light of strength render.emission = kFireCacheEmission. A plume
// cache keeps plume's render.fire_temperature (1500 K per unit); another
// tool's gets kForeignFireKelvin per unit. Mantaflow's heat (its "temperature"
// grid) runs from flame_ignition (1.5) at a flame's edge to flame_max_temp (3)
// in its core: 1050 K (deep red) to 2100 K (orange). (Blender's Principled
// Volume defaults to 1000 K per unit, which puts most of a Mantaflow flame
// near 2900 K, the colour of a light bulb. At 700 K per unit plume's own
// flames, cooler in plume's units, hardly glow.)
// 0.4: a metre of Mantaflow's flame at its 2100 K core gives off luminance
// 1.5 (render/planck.h's T^4 law); the 32^3 hand-off fire's brightest pixels
// come out orange, not white (tests/blender, mantaflow_fire).
constexpr float kFireCacheEmission = 0.4f;
constexpr float kForeignFireKelvin = 700.0f;

void applyFireCacheDefaults(Scene& scene, const std::string& path, const std::string& grid) {
    const std::vector<std::string> names = listGrids(path);
    if (grid == "flame" || std::find(names.begin(), names.end(), "flame") == names.end()) return;
    if (!scene.given.count("render.emission")) scene.render.emission = kFireCacheEmission;
    if (!scene.given.count("render.fire_temperature") && !vdbCreator(path).starts_with("plume"))
        scene.render.fireTemperature = kForeignFireKelvin;
}

// The grid a slice view of a cache needs beyond density: "velocity" for
// speed, vorticity and streamlines, "pressure", "divergence"; "" for none.
std::string viewGridName(RenderView view) {
    if (view == RenderView::Pressure) return "pressure";
    if (view == RenderView::Divergence) return "divergence";
    if (view == RenderView::Speed || view == RenderView::Vorticity) return "velocity";
    return {};
}

std::string viewError(RenderView view, const std::string& path, const std::string& grid,
                      const std::vector<std::string>& names) {
    std::string held;
    for (const std::string& n : names) held += (held.empty() ? "" : ", ") + n;
    std::string message = "render.view = \"" + viewName(view) + "\": " + path + " has no " + grid +
                          " grid (it holds " + held + ")";
    if (grid == "pressure" || grid == "divergence")
        message += "; plume render shows the solver's " + grid;
    return message;
}

// A view of a grid the cache lacks is refused before anything is written.
void checkViewGrid(const std::string& path, std::string grid, const Scene& scene) {
    const std::vector<std::string> names = listGrids(path);
    auto holds = [&](const std::string& n) {
        return std::find(names.begin(), names.end(), n) != names.end();
    };
    if (grid == "velocity" || scene.render.viewVelocity) {
        if (!holds(scene.output.velocityName) && !holds("velocity") && !holds("vel") && !holds("v"))
            throw InputError(viewError(scene.render.view, path, "velocity", names));
    }
    if ((grid == "pressure" || grid == "divergence") && !holds(grid))
        throw InputError(viewError(scene.render.view, path, grid, names));
    if (scene.render.view == RenderView::Flame && !holds("flame"))
        throw InputError(viewError(scene.render.view, path, "flame", names));
    if (scene.render.view == RenderView::Temperature && !holds("temperature") && !holds("heat") &&
        !holds("temp") && !holds("flames") && !holds("flame"))
        throw InputError(viewError(scene.render.view, path, "temperature", names));
}

// The scene with its mesh shapes turned into SDFs, ready to simulate.
Scene loadSceneWithGeometry(const RunOptions& opt) {
    Scene scene = loadScene(opt.scenePath, opt.overrides);
    loadSceneGeometry(scene);
    return scene;
}

}  // namespace

void parseFrameRange(const std::string& text, int firstFrame, int lastFrame, int& first,
                     int& last) {
    auto fail = [&](const std::string& why) {
        throw InputError("--frames " + text + ": error: " + why);
    };
    size_t dash = text.find('-');
    try {
        size_t used = 0;
        first = std::stoi(text.substr(0, dash), &used);
        if (used != (dash == std::string::npos ? text.size() : dash))
            fail("expected A-B, e.g. 1-24");
        last = first;
        if (dash != std::string::npos) {
            std::string tail = text.substr(dash + 1);
            last = std::stoi(tail, &used);
            if (used != tail.size()) fail("expected A-B, e.g. 1-24");
        }
    } catch (const std::logic_error&) {
        fail("expected A-B, e.g. 1-24");
    }
    if (first < firstFrame)
        fail("frames start at " + std::to_string(firstFrame) +
             (firstFrame != 1 ? " (time.start_frame)" : ""));
    if (last < first) fail("the last frame comes before the first");
    if (last > lastFrame)
        fail(firstFrame == 1
                 ? "the scene has " + std::to_string(lastFrame) + " frames (time.frames)"
                 : "the scene's frames are " + std::to_string(firstFrame) + "-" +
                       std::to_string(lastFrame) + " (time.start_frame, time.frames)");
}

int runRender(const RunOptions& opt) {
    Scene scene = loadSceneWithGeometry(opt);
    RunOutputs outputs = opt.outputs;
    outputs.videoPath = videoPath(opt, scene.name);
    return simulate(scene, opt, outputs);
}

int runBake(const RunOptions& opt) {
    Scene scene = loadSceneWithGeometry(opt);
    if (opt.outputs.vdbDir.empty()) throw InputError("plume bake: error: --vdb DIR is required");
    RunOutputs outputs = opt.outputs;
    outputs.statePath = resumeStatePath(outputs.vdbDir, scene.name);
    return simulate(scene, opt, outputs);
}

int runCheck(const RunOptions& opt) {
    if (opt.reference) {
        printOutput(opt.referenceFormat == "json" ? sceneReferenceJson() : sceneReference());
        return 0;
    }
    if (opt.scenePath.empty()) throw InputError("plume check: error: a scene file is required");
    Scene scene = loadSceneWithGeometry(opt);
    printOutput(describeScene(scene, estimateMemory(scene)));
    checkMemory(scene);
    return 0;
}

int runRenderVdb(const RunOptions& opt) {
    std::vector<SequenceFile> files = expandSequence(opt.pattern);
    Scene scene = opt.scenePath.empty() ? parseScene("", "<defaults>", opt.overrides)
                                        : loadScene(opt.scenePath, opt.overrides);
    std::string grid = opt.grid.empty() ? scene.render.grid : opt.grid;
    if (scene.name == "<defaults>" || opt.scenePath.empty()) scene.name = sequenceName(opt.pattern);
    RunOutputs outputs = opt.outputs;
    outputs.videoPath = videoPath(opt, scene.name);
    applyFireCacheDefaults(scene, files.front().path, grid);
    // --frames A-B picks files by frame number; the framing follows the whole
    // sequence, the keyed camera and render jitter each file's number, so a
    // frame is the same whichever range renders it.
    int first = files.front().frame, last = files.back().frame;
    if (!opt.frames.empty()) {
        const int seqFirst = first, seqLast = last;
        parseFrameRange(opt.frames, 0, 1 << 30, first, last);
        if (first < seqFirst || last > seqLast)
            throw InputError("--frames " + opt.frames + ": error: the sequence holds frames " +
                             std::to_string(seqFirst) + "-" + std::to_string(seqLast));
    }

    // Each file's box, from its grid metadata (the voxels are read once, to
    // render them). A grid whose dense box cannot fit is refused before any
    // output folder is made: a sparse grid with smoke far apart spans a huge box.
    std::vector<VolumeBounds> bounds;
    for (const SequenceFile& file : files) {
        bounds.push_back(readVdbBounds(file.path, grid, scene.domain.origin));
        if (file.frame >= first && file.frame <= last)
            checkVolumeMemory(scene, file.path, grid, bounds.back().voxels);
    }

    // A slice view of a grid the cache lacks, refused before any output folder is made.
    const RenderView view = scene.render.view;
    const std::string viewGrid = viewGridName(view);
    const bool viewsVelocity =
        viewGrid == "velocity" || (view != RenderView::Shaded && scene.render.viewVelocity);
    if (view != RenderView::Shaded) checkViewGrid(files.front().path, viewGrid, scene);

    // The sinks count frames from 1 at the scene's time.start_frame.
    FrameSinks sinks(scene, outputs, scene.time.frameIndex(first), scene.time.frameIndex(last),
                     opt.quiet);
    setThreadCount(opt.threads);

    // Without a camera from the scene, frame the whole sequence once so the
    // camera holds still while the smoke grows.
    if (!scene.camera.given) {
        Vec3f lo(1e30f), hi(-1e30f);
        for (const VolumeBounds& b : bounds) {
            lo = vmin(lo, b.worldMin);
            hi = vmax(hi, b.worldMax);
        }
        scene.camera = frameBox(lo, hi, float(scene.render.width) / float(scene.render.height));
        scene.camera.given = true;
    }

    // A slice view without a plane or a scene: the middle of the sequence's
    // box across the view, whichever frames this run renders.
    if (view != RenderView::Shaded && scene.render.slice.empty() && opt.scenePath.empty()) {
        Vec3f lo(1e30f), hi(-1e30f);
        for (const VolumeBounds& b : bounds) {
            lo = vmin(lo, b.worldMin);
            hi = vmax(hi, b.worldMax);
        }
        scene.render.slice = sliceText(defaultSlice(scene.camera, lo, hi));
    }

    sinks.open(scene);
    // Motion blur smears the smoke along the cache's velocity, when it has
    // one; speed, vorticity and streamlines show it.
    std::vector<std::string> velocityNames;
    if (scene.render.motionBlur > 0.0f || viewsVelocity)
        velocityNames = {scene.output.velocityName, "velocity", "vel", "v"};
    // Temperature and flame only colour a render that glows (render.emission,
    // set above for a fire cache) or a view of them: otherwise they are not
    // read at all.
    const bool withGlow = scene.render.emission > 0.0f || view == RenderView::Temperature ||
                          view == RenderView::Flame;
    for (const SequenceFile& file : files) {
        if (file.frame < first || file.frame > last) continue;
        // The scene's frame by the file's number, as render counts it: its
        // keyed camera and render jitter, whichever files the cache holds.
        const int index = scene.time.frameIndex(file.frame);
        Frame f = sinks.frame(index);
        if (f.written) {
            const auto start = Clock::now();
            // In the scene's frame: the cache's voxels sit in the world.
            // A cache's pressure or divergence (Mantaflow's caches hold a
            // pressure grid) is read as the volume's own grid.
            const bool ownGrid = view == RenderView::Pressure || view == RenderView::Divergence;
            LoadedVolume volume = readVdbVolume(file.path, ownGrid ? viewGrid : grid, velocityNames,
                                                withGlow, scene.domain.origin);
            f.renderSeconds = std::chrono::duration<double>(Clock::now() - start).count();
            VolumeView v = volume.view();
            if (view == RenderView::Pressure) v.pressure = v.density;
            if (view == RenderView::Divergence) v.divergence = v.density;
            if ((view == RenderView::Temperature && !volume.hasTemperature) ||
                (view == RenderView::Flame && !volume.hasFlame))
                throw InputError(viewError(view, file.path, viewName(view), volume.gridNames));
            sinks.render(f, v, index);
            sinks.writePictures(f);
        }
        sinks.frameDone(f);
        if (sinks.interrupted(index)) return interruptedStatus();
    }
    sinks.finish();
    return 0;
}

}  // namespace plume
