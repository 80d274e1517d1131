// The scene loader's shapes: an emitter's or obstacle's mesh path, resolved
// beside the scene file; a `file` on a shape that reads none; an emitter
// that can emit nothing for lying wholly outside the domain.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <tuple>
#include <vector>

#include "scene/loader_reader.h"
#include "scene/shapes.h"

namespace plume::loader {

namespace {

const char* shapeName(Shape shape) {
    return shape == Shape::Sphere ? "sphere"
           : shape == Shape::Box  ? "box"
           : shape == Shape::Mesh ? "mesh"
                                  : "points";
}

std::string vecText(Vec3f v) {
    return "[" + formatFloat(v.x) + ", " + formatFloat(v.y) + ", " + formatFloat(v.z) + "]";
}

Vec3f absMax(Vec3f a, Vec3f b) {
    return {std::max(std::fabs(a.x), std::fabs(b.x)), std::max(std::fabs(a.y), std::fabs(b.y)),
            std::max(std::fabs(a.z), std::fabs(b.z))};
}

// A box that holds an analytic shape (sphere, box) at every moment between
// two of its poses, `a` and `b`: keyed values move monotonically from key to
// key (core/animation.h), so the centre stays between the two and the scale
// below the larger of each; a turning shape is bounded by its sphere.
void sweptBounds(const ShapeSettings& a, const ShapeSettings& b, Vec3f& lo, Vec3f& hi) {
    ShapeSettings reach = a;  // about the origin, at the larger scale
    reach.center = Vec3f(0.0f);
    reach.scale = absMax(a.scale, b.scale);
    Vec3f half;
    if (a.rotation == b.rotation) {
        Vec3f ignored;
        PlacedShape(reach).worldBounds(ignored, half);
    } else {
        const Vec3f s = reach.scale;
        const float r = a.shape == Shape::Sphere
                            ? a.radius * std::max({s.x, s.y, s.z})
                            : length(Vec3f(a.size.x * s.x, a.size.y * s.y, a.size.z * s.z)) * 0.5f;
        half = Vec3f(r);
    }
    lo = vmin(a.center, b.center) - half;
    hi = vmax(a.center, b.center) + half;
}

}  // namespace

// A points emitter's points are world positions, as Blender and Houdini
// write them: a center, rotation, scale or size (or keys on them) would be
// ignored, so each is an error at its key.
void SceneReader::refusePlacement(const std::string& display) {
    for (const char* name : {"center", "rotation", "scale", "size"}) {
        const std::string key = display + "." + name;
        std::optional<std::pair<std::string, toml::source_region>> at;
        if (auto g = given_.find(key); g != given_.end()) at = *g;
        for (const auto& [k, region] : keyGiven_)
            if (!at && k.starts_with(display + ".key[") && k.ends_with(std::string("].") + name))
                at = std::pair(k, region);
        if (at)
            fail(at->second, "'" + at->first +
                                 "' is not read for shape = \"points\": the points file's "
                                 "positions are world positions");
    }
}

// A mesh's file: resolved beside the scene file, with where its key sits so
// io can report a bad mesh at the key. A mesh without a file is an error
// here, and so is a file on a shape that reads none (it would be ignored).
void SceneReader::placeFile(ShapeSettings& shape, const std::string& display,
                            const toml::node& element) {
    auto it = given_.find(display + ".file");
    const bool reads = shape.shape == Shape::Mesh || shape.shape == Shape::Points;
    if (!reads) {
        if (it == given_.end() || shape.file.empty()) return;  // plume check prints file = ""
        // At the later of the two keys, the one the user most likely just set.
        toml::source_region where = it->second;
        auto order = [&](const toml::source_region& r) {
            return std::tuple(sourceIndex(r), r.begin.line, r.begin.column);
        };
        if (auto s = given_.find(display + ".shape");
            s != given_.end() && order(s->second) > order(where))
            where = s->second;
        const bool emitter = display.starts_with("emitter");
        fail(where, "'" + display + ".file' is read only for shape = \"mesh\"" +
                        (emitter ? " or \"points\"" : "") + "; " + display + " is a " +
                        shapeName(shape.shape) +
                        " (set shape = \"mesh\" to use the file, or drop the file)");
        return;
    }
    if (it == given_.end()) {
        fail(element.source(),
             "'" + display + ".file' is required for shape = \"" + shapeName(shape.shape) + "\"");
        return;
    }
    namespace fs = std::filesystem;
    fs::path file(shape.file);
    shape.filePath =
        file.is_absolute() ? file.string() : (fs::path(path_).parent_path() / file).string();
    shape.fileLine = int(it->second.begin.line);
    shape.fileColumn = int(it->second.begin.column);
    // A mesh's file is in world metres (as Blender exports it): without a
    // center of its own it stays where the file puts it.
    if (shape.shape == Shape::Mesh && !given_.contains(display + ".center"))
        shape.center = Vec3f(0.0f);
}

void SceneReader::placeEnvironment(EnvironmentSettings& environment, const toml::node& table) {
    auto it = given_.find("environment.file");
    if (it == given_.end()) {
        fail(table.source(),
             "'environment.file' is required in [environment]: a latitude-longitude .exr or "
             ".hdr image");
        return;
    }
    if (environment.file.empty()) return;  // plume check prints file = "": no environment
    namespace fs = std::filesystem;
    fs::path file(environment.file);
    environment.filePath =
        file.is_absolute() ? file.string() : (fs::path(path_).parent_path() / file).string();
    environment.fileLine = int(it->second.begin.line);
    environment.fileColumn = int(it->second.begin.column);
}

// An emitter wholly outside the domain emits nothing: surely a mistake of
// units or centre. A keyed one is refused only when it lies outside at every
// key and on the way between them. A mesh is checked once io has read it.
void SceneReader::checkEmittersInDomain(const Scene& scene, const toml::table& root) {
    if (path_ == "<defaults>") return;  // render-vdb or encode without a scene: no domain
    const Vec3f domainLo = scene.domain.origin, domainHi = domainLo + scene.domain.size;
    const toml::array* elements = root.get("emitter") ? root.get("emitter")->as_array() : nullptr;
    for (std::size_t i = 0; i < scene.emitters.size(); ++i) {
        const EmitterSettings& e = scene.emitters[i];
        if (e.shape == Shape::Points) refusePlacement("emitter[" + std::to_string(i + 1) + "]");
        if (e.shape == Shape::Mesh || e.shape == Shape::Points) continue;

        // Its poses at every key of any of its keyed values (one when none is keyed).
        std::vector<double> frames;
        for (const KeyTrack& track : e.animation.tracks) {
            for (const auto& k : track.vec) frames.push_back(k.frame);
            for (const auto& k : track.real) frames.push_back(k.frame);
        }
        std::sort(frames.begin(), frames.end());
        frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
        std::vector<EmitterSettings> poses;
        for (double f : frames) poses.push_back(scene.atFrame(f).emitters[i]);
        if (poses.empty()) poses.push_back(e);

        bool meets = false;
        for (std::size_t p = 0; p < poses.size() && !meets; ++p) {
            Vec3f lo, hi;
            sweptBounds(poses[p], poses[std::min(p + 1, poses.size() - 1)], lo, hi);
            meets = hi.x > domainLo.x && hi.y > domainLo.y && hi.z > domainLo.z &&
                    lo.x < domainHi.x && lo.y < domainHi.y && lo.z < domainHi.z;
        }
        if (meets) continue;

        // Reported at its centre: the table's, else its first keyed one, else its header.
        const std::string display = "emitter[" + std::to_string(i + 1) + "]";
        std::string name = display + ".center";
        std::optional<toml::source_region> where;
        if (auto it = given_.find(name); it != given_.end()) where = it->second;
        auto order = [&](const toml::source_region& r) {
            return std::tuple(sourceIndex(r), r.begin.line, r.begin.column);
        };
        if (!where) {  // the first keyed centre in the file ("key[10]" sorts before "key[2]")
            for (const auto& [key, at] : keyGiven_)
                if (key.starts_with(display + ".key[") && key.ends_with("].center") &&
                    (!where || order(at) < order(*where)))
                    where = at, name = key;
        }
        if (!where && elements && i < elements->size()) where = elements->get(i)->source();
        const bool keyed = !frames.empty();
        fail(where.value_or(toml::source_region{}),
             "'" + name + "' = " + vecText(keyed ? poses.front().center : e.center) +
                 ": the emitter lies wholly outside the domain " + vecText(domainLo) + " to " +
                 vecText(domainHi) + (keyed ? " at every key and between them" : "") +
                 " (check its center, " + (e.shape == Shape::Sphere ? "radius" : "size") +
                 " and scale)");
    }
}

}  // namespace plume::loader
