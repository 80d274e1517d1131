#include "cli/upres_command.h"

#include <filesystem>
#include <memory>
#include <optional>

#include "core/error.h"
#include "core/parallel.h"
#include "core/report.h"
#include "io/scene_geometry.h"
#include "io/vdb_cache.h"
#include "run/cache_sequence.h"
#include "run/frame_loop.h"
#include "run/upres_source.h"
#include "scene/loader.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

// --factor: 2 to 4, as upres.factor (1, off, would write the base again).
void checkFactor(int factor) {
    if (factor != 0 && (factor < 2 || factor > 4))
        throw InputError("--factor " + std::to_string(factor) +
                         ": error: expected 2 to 4 (fine cells per base cell along an axis)");
}

// --factor, else the scene's upres.factor, else 2.
int upresFactor(const RunOptions& opt, const Scene& scene) {
    if (opt.factor != 0) return opt.factor;
    return scene.upres.factor > 1 ? scene.upres.factor : 2;
}

// OUTDIR must not be the base cache's folder: its frames would overwrite the
// base cache (same names) as they are read. Checked before OUTDIR is made.
void checkOutputDir(const std::string& outDir, const std::string& firstFile) {
    std::error_code ec;
    const fs::path base = fs::path(firstFile).parent_path().empty()
                              ? fs::path(".")
                              : fs::path(firstFile).parent_path();
    if (fs::weakly_canonical(outDir, ec) == fs::weakly_canonical(base, ec))
        throw InputError("-o " + outDir +
                         ": error: the base cache's folder; the fine frames would overwrite it");
}

}  // namespace

int runUpres(const RunOptions& opt) {
    if (opt.output.empty()) throw InputError("plume upres: error: -o OUTDIR is required");
    checkFactor(opt.factor);
    const ScopedWarningSink quiet(opt.quiet ? WarningSink([](const std::string&) {})
                                            : WarningSink());
    std::optional<CacheSequence> found;
    try {
        found.emplace(opt.pattern);
    } catch (const RunError& e) {
        throw InputError(std::string("plume upres: error: ") + e.what());
    }
    const CacheSequence& cache = *found;
    // With the scene the cache was baked from, the fine grid runs its
    // emitters (an exact cache gives the inline upres bit for bit). Without
    // one (Blender's or another tool's cache), plume's defaults and --set,
    // and the fine smoke's sources come from the cache itself.
    const bool withScene = !opt.scenePath.empty();
    Scene scene = withScene ? loadScene(opt.scenePath, opt.overrides)
                            : parseScene("", cache.name() + ".toml", opt.overrides);
    cache.applyTo(scene, opt.scenePath, opt.overrides, /*startsScene=*/true);
    // Every frame from the scene's first: a frame's fine smoke comes from the
    // one before, so upres cannot start later or skip one.
    const int start = scene.time.startFrame;
    const std::string why = "(upres runs every frame from " + std::to_string(start) +
                            (start != 1 ? ", time.start_frame" : "") +
                            ": each frame's fine smoke comes from the one before)";
    if (cache.firstFrame() != start)
        throw InputError("'" + opt.pattern + "': error: the sequence starts at frame " +
                         std::to_string(cache.firstFrame()) + " " + why);
    int first = 0, last = 0;
    cache.frameRange(opt.frames, first, last);
    cache.requireWhole(start, last, why);
    if (withScene) loadSceneGeometry(scene);
    scene.upres.factor = upresFactor(opt, scene);

    // The first frame, read and checked before any output folder is made.
    const std::string& firstPath = cache.files().front().path;
    CacheFrame firstFrame = readVdbFrame(firstPath, scene.output.velocityName);
    checkUpresInput(firstFrame, firstPath, scene, withScene);
    // As the inline bake writes: the scene's output.vdb_precision, or when
    // the scene does not set it, the base cache's (an exact cache gives an
    // exact one).
    if (!scene.given.count("output.vdb_precision") && firstFrame.exact)
        scene.output.vdbPrecision = VdbPrecision::Exact;
    checkOutputDir(opt.output, firstPath);

    RunOutputs outputs = opt.outputs;
    outputs.vdbDir = opt.output;
    const int lastIndex = scene.time.frameIndex(last);
    FrameSinks sinks(scene, outputs, scene.time.frameIndex(first), lastIndex, opt.quiet);
    setThreadCount(opt.threads);
    return runFrameLoop(scene, sinks, lastIndex, [&](FrameSinks&, const char*& stage) {
        stage = "setting up upres";
        return std::make_unique<UpresSource>(cache, scene, withScene, std::move(firstFrame));
    });
}

}  // namespace plume
