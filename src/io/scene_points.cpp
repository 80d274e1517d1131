#include "io/scene_points.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "core/error.h"
#include "core/point_sequence.h"
#include "io/point_file.h"
#include "io/sequence.h"

namespace plume {

namespace {

// Whether a file name numbers frames: a run of '#' or a printf-style %d /
// %0Nd (io/sequence.h expands both).
bool namesFrames(const std::string& path) {
    const std::string name = std::filesystem::path(path).filename().string();
    if (name.find('#') != std::string::npos) return true;
    for (std::size_t pct = name.find('%'); pct != std::string::npos;
         pct = name.find('%', pct + 1)) {
        std::size_t p = pct + 1;
        while (p < name.size() && std::isdigit(static_cast<unsigned char>(name[p]))) ++p;
        if (p < name.size() && name[p] == 'd') return true;
    }
    return false;
}

// A message of io/sequence.h without its own "PATH: error: " lead, to
// follow the scene's location.
std::string bare(const std::string& message) {
    const std::size_t at = message.find(": error: ");
    return at == std::string::npos ? message : message.substr(at + 9);
}

// The points of a file in the domain's frame.
PointFrame readLocal(const std::string& path, Vec3f origin) {
    PointFrame points = readPlyPoints(path);
    for (Vec3f& p : points.position) p -= origin;
    return points;
}

// What a check of a file found (PointSequence::File).
PointSequence::File describe(const PointFrame& points, int frame, const std::string& path,
                             float radius) {
    PointSequence::File f;
    f.frame = frame;
    f.path = path;
    f.count = points.position.size();
    if (f.count == 0) return f;
    f.lo = Vec3f(INFINITY), f.hi = Vec3f(-INFINITY);
    for (std::size_t i = 0; i < f.count; ++i) {
        const float r = points.radius.empty() ? radius : points.radius[i];
        f.lo = vmin(f.lo, points.position[i] - Vec3f(r));
        f.hi = vmax(f.hi, points.position[i] + Vec3f(r));
        if (!points.velocity.empty()) f.maxSpeed = std::max(f.maxSpeed, length(points.velocity[i]));
    }
    return f;
}

void loadPoints(EmitterSettings& e, const std::string& display, const Scene& scene) {
    const SourceLocation where{scene.path, e.fileLine, e.fileColumn};
    const std::string prefix = display + ".file: ";
    const Vec3f origin = scene.domain.origin;
    std::vector<SequenceFile> found;
    const bool sequence = namesFrames(e.filePath);
    try {
        found = sequence ? expandSequence(e.filePath, "PLY")
                         : std::vector<SequenceFile>{{e.filePath, scene.time.startFrame}};
    } catch (const std::exception& error) {
        throw InputError(where, prefix + bare(error.what()));
    }
    // One file a frame from the first to the last: a gap is a lost file, not
    // a frame without particles (that is a file of no vertices).
    std::vector<PointSequence::File> files;
    for (std::size_t n = 0; n < found.size(); ++n) {
        const SequenceFile& f = found[n];
        if (n > 0 && f.frame == found[n - 1].frame)
            throw InputError(where, prefix + "'" + found[n - 1].path + "' and '" + f.path +
                                        "' are both frame " + std::to_string(f.frame));
        if (n > 0 && f.frame != found[n - 1].frame + 1)
            throw InputError(where, prefix + "no file for frame " +
                                        std::to_string(found[n - 1].frame + 1) + " of '" +
                                        e.filePath + "' (its files run from frame " +
                                        std::to_string(found.front().frame) + " to " +
                                        std::to_string(found.back().frame) + ")");
        try {
            files.push_back(describe(readLocal(f.path, origin), scene.time.frameIndex(f.frame),
                                     f.path, e.radius));
        } catch (const GeometryError& error) {
            throw InputError(where, prefix + error.what());
        }
    }
    // Read again as the bake reaches each frame: a file changed since is a
    // failure of the run, not of the scene.
    auto read = [origin](const std::string& path) {
        try {
            return readLocal(path, origin);
        } catch (const GeometryError& error) {
            throw RunError(std::string(error.what()) + " (it changed after the scene was checked)");
        }
    };
    e.points = std::make_shared<PointSequence>(std::move(files), !sequence, read);
}

}  // namespace

void loadScenePoints(Scene& scene) {
    for (std::size_t i = 0; i < scene.emitters.size(); ++i)
        if (scene.emitters[i].shape == Shape::Points)
            loadPoints(scene.emitters[i], "emitter[" + std::to_string(i + 1) + "]", scene);
}

}  // namespace plume
