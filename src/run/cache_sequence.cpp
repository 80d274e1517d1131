#include "run/cache_sequence.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "core/error.h"
#include "core/report.h"
#include "run/frame_range.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

// "cache/fluid_data_0001.vdb" -> "fluid_data": names the outputs of a sequence.
std::string sequenceName(const std::string& path) {
    std::string stem = fs::path(path).stem().string();
    while (!stem.empty() && std::isdigit(static_cast<unsigned char>(stem.back()))) stem.pop_back();
    while (!stem.empty() && (stem.back() == '_' || stem.back() == '.' || stem.back() == '-'))
        stem.pop_back();
    return stem.empty() ? "render" : stem;
}

// "24" or "29.97", for messages.
std::string fpsText(double fps) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", fps);
    return text;
}

bool overridden(const std::vector<std::string>& overrides, const std::string& key) {
    return std::any_of(overrides.begin(), overrides.end(), [&](const std::string& o) {
        return o.rfind(key + "=", 0) == 0 || o.rfind(key + " =", 0) == 0;
    });
}

}  // namespace

CacheSequence::CacheSequence(const std::string& pattern)
    : pattern_(pattern), files_(expandSequence(pattern)) {
    name_ = sequenceName(files_.front().path);
    info_ = readVdbInfo(files_.front().path);
}

const SequenceFile* CacheSequence::file(int number) const {
    auto it = std::lower_bound(files_.begin(), files_.end(), number,
                               [](const SequenceFile& f, int n) { return f.frame < n; });
    return it != files_.end() && it->frame == number ? &*it : nullptr;
}

bool CacheSequence::has(const std::string& grid) const {
    return std::find(info_.grids.begin(), info_.grids.end(), grid) != info_.grids.end();
}

std::vector<std::string> CacheSequence::velocityNames(const Scene& scene) const {
    std::vector<std::string> names = {scene.output.velocityName};
    for (const char* n : {"velocity", "vel", "v"})
        if (n != scene.output.velocityName) names.push_back(n);
    return names;
}

void CacheSequence::frameRange(const std::string& frames, int& first, int& last) const {
    first = firstFrame();
    last = lastFrame();
    if (!frames.empty()) {
        parseFrameRange(frames, 0, 1 << 30, first, last);
        if (first < firstFrame() || last > lastFrame())
            throw InputError("--frames " + frames + ": error: the sequence holds frames " +
                             std::to_string(firstFrame()) + "-" + std::to_string(lastFrame()));
    }
}

void CacheSequence::requireWhole(int first, int last, const std::string& why) const {
    for (int n = first; n <= last; ++n) {
        if (file(n)) continue;
        // The run of missing frames, and what holds on either side.
        int end = n;
        while (end + 1 <= last && !file(end + 1)) ++end;
        const std::string missing =
            end == n ? "frame " + std::to_string(n) + " is missing"
                     : "frames " + std::to_string(n) + "-" + std::to_string(end) + " are missing";
        std::string message = "'" + pattern_ + "': error: " + missing;
        if (!why.empty())
            message += " " + why;
        else if (n > first)
            message += " (render --frames " + std::to_string(first) + "-" + std::to_string(n - 1) +
                       (end < last ? " and " + std::to_string(end + 1) + "-" + std::to_string(last)
                                   : std::string()) +
                       " on either side)";
        throw InputError(message);
    }
}

void CacheSequence::applyTo(Scene& scene, const std::string& sceneFile,
                            const std::vector<std::string>& overrides, bool startsScene) const {
    if (startsScene && sceneFile.empty() && !overridden(overrides, "time.start_frame"))
        scene.time.startFrame = firstFrame();
    // The frame rate the cache was baked at times everything after it: the
    // video, motion blur, upres's fine steps. --set time.fps alone overrides it.
    if (info_.fps > 0 && !overridden(overrides, "time.fps")) {
        if (!sceneFile.empty() && std::fabs(scene.time.fps - info_.fps) > 1e-3 * info_.fps)
            warn("'" + sceneFile + "' runs at " + fpsText(scene.time.fps) + " fps, the cache at " +
                 fpsText(info_.fps) + ": using the cache's (--set time.fps=" +
                 fpsText(scene.time.fps) + " to use the scene's)");
        scene.time.fps = info_.fps;
    }
    if (!sceneFile.empty() && !info_.sceneName.empty() && info_.sceneName != scene.name)
        warn("'" + sceneFile + "' is scene '" + scene.name + "', the cache was baked from '" +
             info_.sceneName + "': rendering it with that file's camera, lights and look");
    // Without its scene, the cache says whether its smoke is all soot, and
    // how slowly its time ran.
    if (sceneFile.empty()) scene.sootOnly = info_.sootOnly;
    if (sceneFile.empty() && !overridden(overrides, "physics.time_scale")) timeScaleOf(scene);
    // Outputs are named after the cache, whichever scene gives the look.
    scene.name = name_;
}

// A slow-motion cache records each frame's time_scale ("plume_time_scale",
// none at 1): one value for the whole scene when they agree, else a key a
// frame, so the shutter and upres's steps count in the cache's own time.
void CacheSequence::timeScaleOf(Scene& scene) const {
    if (!(info_.timeScale > 0)) return;
    std::vector<Key<float>> keys;
    for (const SequenceFile& f : files_) {
        const double s = f.path == files_.front().path ? info_.timeScale
                                                       : readVdbInfo(f.path).timeScale;
        keys.push_back({double(scene.time.frameIndex(f.frame)), float(s > 0 ? s : 1.0)});
    }
    const bool constant = std::all_of(keys.begin(), keys.end(), [&](const Key<float>& k) {
        return k.value == keys.front().value;
    });
    scene.physics.timeScale = keys.front().value;
    if (constant) return;
    scene.physicsAnimation.interpolation = Interpolation::Linear;
    scene.physicsAnimation.tracks.push_back({"time_scale", std::move(keys), {}});
}

// A cache with a flame grid is a fire. plume's own caches take the scene's
// look (the schema's defaults without --scene, as plume render draws them).
// Blender's Mantaflow keeps its heat (its "temperature" grid) in other units:
// from flame_ignition (1.5) at a flame's edge to flame_max_temp (3) in its
// core, at kForeignFireKelvin a unit 1050 K (deep red) to 2100 K (orange);
// kForeignFireEmission keeps its core orange, not white (tests/blender,
// mantaflow_fire).
constexpr float kForeignFireEmission = 0.4f;
constexpr float kForeignFireKelvin = 700.0f;

void CacheSequence::fireDefaults(Scene& scene, const std::string& grid) const {
    if (grid == "flame" || !has("flame") || info_.plume()) return;
    if (!scene.given.count("render.emission")) scene.render.emission = kForeignFireEmission;
    if (!scene.given.count("render.fire_temperature"))
        scene.render.fireTemperature = kForeignFireKelvin;
}

void CacheSequence::bounds(const Scene& scene, const std::string& grid, int first, int last,
                           Vec3f& lo, Vec3f& hi, std::vector<FileBounds>* boxes) const {
    lo = Vec3f(1e30f);
    hi = Vec3f(-1e30f);
    for (const SequenceFile& f : files_) {
        const bool inRange = f.frame >= first && f.frame <= last;
        VolumeBounds b;
        try {
            b = readVdbBounds(f.path, grid, scene.domain.origin);
        } catch (const RunError& e) {
            if (inRange) throw;
            warn(std::string(e.what()) + " (outside the frames rendered: its box is left out)");
            continue;
        }
        lo = vmin(lo, b.worldMin);
        hi = vmax(hi, b.worldMax);
        if (boxes && inRange) boxes->push_back({f.path, b});
    }
}

}  // namespace plume
