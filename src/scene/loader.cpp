// Scene files in (loader.h): parse, apply --set, walk the sections through
// SceneReader, and throw the first error in file order.
#include "scene/loader.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <tuple>

#include "core/error.h"
#include "core/input_file.h"
#include "scene/loader_reader.h"
#include "scene/overrides.h"
#include "scene/placement.h"
#include "scene/schema.h"

namespace plume {

namespace loader {

namespace {

// An emitter that gives fuel and says nothing of its density emits no smoke
// of its own, as Blender's Fire flow: its smoke is the soot its burning makes
// (physics.flame_smoke, in flame_smoke_color), so a first fire shows its
// flame instead of the grey ball of the emitter's smoke around it.
void fuelEmittersMakeNoSmoke(Scene& scene) {
    for (std::size_t i = 0; i < scene.emitters.size(); ++i) {
        EmitterSettings& e = scene.emitters[i];
        const bool densityKeyed = std::any_of(e.animation.tracks.begin(), e.animation.tracks.end(),
                                              [](const KeyTrack& t) { return t.key == "density"; });
        if (e.givesFuel() && !densityKeyed &&
            !scene.given.count("emitter[" + std::to_string(i + 1) + "].density"))
            e.density = 0.0f;
    }
}

// An emitter given a colour (or colour keys) makes the smoke carry colour
// (sim/smoke_color.h); beside it an emitter without one emits the grey
// render.albedo draws uncoloured smoke in, so its smoke looks as it would
// alone and mixes with the coloured by density.
void emitterColors(Scene& scene) {
    for (std::size_t i = 0; i < scene.emitters.size(); ++i) {
        EmitterSettings& e = scene.emitters[i];
        const bool keyed = std::any_of(e.animation.tracks.begin(), e.animation.tracks.end(),
                                       [](const KeyTrack& t) { return t.key == "color"; });
        e.colored = keyed || scene.given.count("emitter[" + std::to_string(i + 1) + "].color");
    }
    if (!scene.colored()) return;
    for (EmitterSettings& e : scene.emitters)
        if (!e.colored) e.color = Vec3f(scene.render.albedo);
}

}  // namespace

Scene SceneReader::read(const toml::table& root) {
    Scene scene;
    scene.path = path_;
    std::string stem = std::filesystem::path(path_).stem().string();
    if (!stem.empty()) scene.name = stem;

    checkTopLevel(root);
    for (const SectionSpec& section : sceneSections()) {
        const toml::node* node = root.get(section.name);
        if (!node) continue;
        const std::string name(section.name);

        // A single table: [domain], [camera], ...
        if (!section.isArray) {
            if (const toml::table* table = node->as_table()) {
                readTable(scene, *table, section, 0, name);
                if (section.name == "camera") scene.camera.given = true;
                if (section.name == "environment") placeEnvironment(scene.environment, *table);
                if (section.name == "camera" || section.name == "physics")
                    readKeys(*table, section, name, animationOf(scene, section.name, 0));
            } else {
                fail(node->source(), "'" + name + "' must be a table, got " + typeName(*node));
            }
            continue;
        }

        // An array of tables: [[emitter]], ...
        const toml::array* array = node->as_array();
        if (!array) {
            fail(node->source(), "'" + name + "' must be an array of tables ([[" + name +
                                     "]]), got " + typeName(*node));
            continue;
        }
        for (std::size_t i = 0; i < array->size(); ++i) {
            const toml::node& element = *array->get(i);
            std::string display = name + "[" + std::to_string(i + 1) + "]";
            appendElement(scene, section.name);
            int line = static_cast<int>(element.source().begin.line);
            if (section.name == "emitter") scene.emitters.back().line = line;
            if (section.name == "obstacle") scene.obstacles.back().line = line;
            if (section.name == "field") scene.fields.back().line = line;
            if (const toml::table* table = element.as_table()) {
                readTable(scene, *table, section, i, display);
                if (section.name == "emitter") placeFile(scene.emitters.back(), display, element);
                if (section.name == "obstacle") placeFile(scene.obstacles.back(), display, element);
                readKeys(*table, section, display, animationOf(scene, section.name, i));
            } else
                fail(element.source(),
                     "'" + display + "' must be a table, got " + typeName(element));
        }
    }
    if (errors_.empty()) {
        checkCrossFields(scene, root);
        checkFields(scene, root);
        checkEmittersInDomain(scene, root);
    }

    if (!errors_.empty()) {
        const Diagnostic& first = *std::min_element(
            errors_.begin(), errors_.end(), [](const Diagnostic& a, const Diagnostic& b) {
                return std::tie(a.source, a.line, a.column) < std::tie(b.source, b.line, b.column);
            });
        SourceLocation where{path_, int(first.line), int(first.column)};
        if (first.source > 0) where = {overrideSourceName(overrides_[first.source - 1])};
        throw InputError(where, first.text);
    }

    // Where output.color_space is given: its name is checked against the
    // OpenColorIO config when a run resolves it (render/output/color_space.h).
    if (const toml::node* space = root.at_path("output.color_space").node()) {
        const toml::source_region& at = space->source();
        const std::string file = at.path ? *at.path : path_;
        scene.output.colorSpaceAt =
            file.starts_with("--set ")
                ? file
                : SourceLocation{file, int(at.begin.line), int(at.begin.column)}.str();
    }
    // A guide's cache, beside the scene file as every file it names.
    if (scene.guide.on()) {
        const std::filesystem::path file(scene.guide.cache);
        scene.guide.cachePath = file.is_absolute()
                                    ? file.string()
                                    : (std::filesystem::path(path_).parent_path() / file).string();
        if (const toml::node* cache = root.at_path("guide.cache").node()) {
            const toml::source_region& at = cache->source();
            const std::string where = at.path ? *at.path : path_;
            scene.guide.cacheAt =
                where.starts_with("--set ")
                    ? where
                    : SourceLocation{where, int(at.begin.line), int(at.begin.column)}.str();
        }
    }
    // No [[light]]: the default key light; `light = []`, given empty: none.
    if (scene.lights.empty() && !root.contains("light")) scene.lights.push_back(defaultKeyLight());
    for (const auto& entry : given_) scene.given.insert(entry.first);
    fuelEmittersMakeNoSmoke(scene);
    emitterColors(scene);
    // Once, here: the solver and renderer see the domain's frame (placement.h).
    toDomainFrame(scene);
    return scene;
}

}  // namespace loader

namespace {

// toml++ descriptions are one line; make sure of it, since callers print one line.
std::string oneLine(std::string_view text) {
    std::string s(text);
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
}

}  // namespace

Scene parseScene(std::string_view text, const std::string& path,
                 const std::vector<std::string>& overrides) {
    toml::table root;
    try {
        root = toml::parse(text, std::string(path));
    } catch (const toml::parse_error& e) {
        const toml::source_position& at = e.source().begin;
        throw InputError(SourceLocation{path, int(at.line), int(at.column)},
                         oneLine(e.description()));
    }
    applyOverrides(root, overrides);
    return loader::SceneReader(path, overrides).read(root);
}

Scene loadScene(const std::string& path, const std::vector<std::string>& overrides) {
    auto cannotRead = [&](int error) {
        return InputError(path + ": error: cannot read scene file (" + std::strerror(error) + ")");
    };
    checkRegularFile(path, "scene file");  // before fopen: a FIFO would block it
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) throw cannotRead(errno);
    std::string text;
    char buffer[65536];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
    int error = std::ferror(file) ? errno : 0;
    std::fclose(file);
    if (error) throw cannotRead(error);
    return parseScene(text, path, overrides);
}

}  // namespace plume
