#include "cli/upres_command.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "cli/interrupt.h"
#include "cli/output_paths.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/report.h"
#include "io/scene_geometry.h"
#include "io/sequence.h"
#include "io/upres_cache.h"
#include "io/vdb_cache.h"
#include "scene/loader.h"
#include "sim/upres/upres.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string cells(Vec3i n) {
    return std::to_string(n.x) + "x" + std::to_string(n.y) + "x" + std::to_string(n.z);
}

// "B/bench_0001.vdb" -> "bench": the name the fine sequence keeps.
std::string sequenceStem(const std::string& path) {
    std::string stem = fs::path(path).stem().string();
    while (!stem.empty() && std::isdigit(static_cast<unsigned char>(stem.back()))) stem.pop_back();
    while (!stem.empty() && (stem.back() == '_' || stem.back() == '.' || stem.back() == '-'))
        stem.pop_back();
    return stem.empty() ? "upres" : stem;
}

// The base cache's files, every frame from the scene's first (a frame's fine
// smoke comes from the one before, so upres cannot start later or skip one).
std::vector<SequenceFile> baseSequence(const std::string& pattern, int startFrame) {
    std::vector<SequenceFile> files;
    try {
        files = expandSequence(pattern);
    } catch (const RunError& e) {
        throw InputError(std::string("plume upres: error: ") + e.what());
    }
    const std::string why = " (upres runs every frame from " + std::to_string(startFrame) +
                            (startFrame != 1 ? ", time.start_frame" : "") +
                            ": each frame's fine smoke comes from the one before)";
    if (files.front().frame != startFrame)
        throw InputError("'" + pattern + "': error: the sequence starts at frame " +
                         std::to_string(files.front().frame) + why);
    for (size_t i = 0; i < files.size(); ++i)
        if (files[i].frame != startFrame + int(i))
            throw InputError("'" + pattern + "': error: frame " +
                             std::to_string(startFrame + int(i)) + " is missing" + why);
    return files;
}

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

// The cache frame must be a base cache of this scene's domain: the scene's
// emitters run on the fine grid, placed by the scene.
void checkFits(const CacheFrame& c, const std::string& path, const Scene& scene) {
    auto fail = [&](const std::string& why) { throw InputError("'" + path + "': error: " + why); };
    if (c.upresFactor > 1)
        fail("already has upres (factor " + std::to_string(c.upresFactor) +
             "); upres reads a base cache");
    const Vec3i n = scene.domain.cells();
    const float dx = scene.domain.dx();
    if (!(c.n == n) || std::fabs(c.dx - dx) > 1e-5f * dx)
        fail("the cache is " + cells(c.n) + " cells of " + std::to_string(c.dx) +
             " m, the scene's domain " + cells(n) + " of " + std::to_string(dx) +
             " m; give the --scene (and --set) the cache was baked with");
    if (!c.hasVelocity)
        fail("has no velocity grid '" + scene.output.velocityName +
             "' (output.velocity_name); upres moves the smoke with it");
    if (scene.burns() != c.burns())
        fail(scene.burns() ? "holds no fuel and flame, and the scene burns"
                           : "holds fuel and flame, and the scene does not burn");
}

// Without a scene: a base cache with a velocity to move the smoke by.
void checkForeign(const CacheFrame& c, const std::string& path, const Scene& scene) {
    auto fail = [&](const std::string& why) { throw InputError("'" + path + "': error: " + why); };
    if (c.upresFactor > 1)
        fail("already has upres (factor " + std::to_string(c.upresFactor) +
             "); upres reads a base cache");
    if (!c.hasVelocity)
        fail("has no velocity grid '" + scene.output.velocityName +
             "' (--set output.velocity_name=...); upres moves the smoke with it");
}

// As the inline bake writes: the scene's output.vdb_precision, or when the
// scene does not set it, the base cache's (an exact cache gives an exact one).
CacheOptions cacheOptions(const Scene& scene, bool baseExact) {
    CacheOptions o;
    VdbPrecision precision = scene.output.vdbPrecision;
    if (!scene.given.count("output.vdb_precision") && baseExact) precision = VdbPrecision::Exact;
    o.halfFloats = precision == VdbPrecision::Half;
    if (precision == VdbPrecision::Exact) o.tolerance = 0;
    o.velocityName = scene.output.velocityName;
    o.worldOrigin = scene.domain.origin;
    o.fps = scene.time.fps;
    return o;
}

// OUTDIR must not be the base cache's folder: its frames would overwrite the
// base cache (same names) as they are read.
void checkOutputDir(const std::string& outDir, const std::string& firstFile) {
    ensureWritableDir(outDir);
    std::error_code ec;
    if (fs::equivalent(outDir, fs::path(firstFile).parent_path().empty()
                                   ? fs::path(".")
                                   : fs::path(firstFile).parent_path(),
                       ec))
        throw InputError("-o " + outDir +
                         ": error: the base cache's folder; the fine frames would overwrite it");
}

}  // namespace

int runUpres(const RunOptions& opt) {
    if (opt.output.empty()) throw InputError("plume upres: error: -o OUTDIR is required");
    checkFactor(opt.factor);
    // With the scene the cache was baked from, the fine grid runs its
    // emitters (an exact cache gives the inline upres bit for bit). Without
    // one (Blender's or another tool's cache), plume's defaults and --set,
    // and the fine smoke's sources come from the cache itself.
    const bool withScene = !opt.scenePath.empty();
    std::string pattern = opt.pattern;
    std::replace(pattern.begin(), pattern.end(), '#', '0');
    Scene scene = withScene ? loadScene(opt.scenePath, opt.overrides)
                            : parseScene("", sequenceStem(pattern) + ".toml", opt.overrides);
    const std::vector<SequenceFile> files = baseSequence(opt.pattern, scene.time.startFrame);
    if (withScene) loadSceneGeometry(scene);
    scene.upres.factor = upresFactor(opt, scene);
    int first = files.front().frame, last = files.back().frame;
    if (!opt.frames.empty()) {
        try {
            parseFrameRange(opt.frames, first, last, first, last);
        } catch (const InputError&) {
            int a = 0, b = 0;
            parseFrameRange(opt.frames, 0, 1 << 30, a, b);  // a malformed range says so
            throw InputError("--frames " + opt.frames + ": error: the sequence holds frames " +
                             std::to_string(files.front().frame) + "-" +
                             std::to_string(files.back().frame));
        }
    }
    checkOutputDir(opt.output, files.front().path);
    const std::string name = sequenceStem(files.front().path);
    setThreadCount(opt.threads);

    const auto start = Clock::now();
    Upres upres(scene);
    upres.feedFromBase(!withScene);
    UpresInput in;
    CacheOptions options;
    int written = 0;
    for (const SequenceFile& file : files) {
        if (file.frame > last) break;
        auto t = Clock::now();
        const CacheFrame c = readVdbFrame(file.path, scene.output.velocityName);
        if (withScene)
            checkFits(c, file.path, scene);
        else
            checkForeign(c, file.path, scene);
        if (file.frame == files.front().frame) options = cacheOptions(scene, c.exact);
        assignFromCache(in, c, scene.domain.origin);
        const double read = secondsSince(t);
        t = Clock::now();
        upres.advance(in, scene.time.frameIndex(file.frame));  // the solver's count, from 1
        const double detail = secondsSince(t);
        double write = 0.0;
        if (file.frame >= first) {
            t = Clock::now();
            writeVdbFrame(cacheFramePath(opt.output, name, file.frame), in, upres.fine(),
                          file.frame, scene.name, options);
            write = secondsSince(t);
            ++written;
        }
        if (!opt.quiet) {
            char line[200];
            std::snprintf(line, sizeof line, "frame %d/%d: upres %.2f s, read %.2f s, write %.2f s%s",
                          file.frame, last, detail, read, write,
                          file.frame < first ? " (not written)" : "");
            printMessage(line);
        }
        if (interruptSignal() != 0) return 128 + interruptSignal();
    }
    if (!opt.quiet) {
        char line[300];
        std::snprintf(line, sizeof line, "upres x%d: wrote %d frames to %s in %.1f s",
                      scene.upres.factor, written, opt.output.c_str(), secondsSince(start));
        printMessage(line);
    }
    return 0;
}

}  // namespace plume
