#include "scene/loader.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <tuple>

#include "core/error.h"
#include "scene/overrides.h"
#include "scene/schema.h"

namespace plume {

namespace {

std::string typeName(const toml::node& node) {
    switch (node.type()) {
        case toml::node_type::table:
            return "a table";
        case toml::node_type::array:
            return "an array";
        case toml::node_type::string:
            return "a string";
        case toml::node_type::integer:
            return "an integer";
        case toml::node_type::floating_point:
            return "a float";
        case toml::node_type::boolean:
            return "a boolean";
        case toml::node_type::date:
            return "a date";
        case toml::node_type::time:
            return "a time";
        case toml::node_type::date_time:
            return "a date-time";
        default:
            return "nothing";
    }
}

std::string quotedChoices(const std::vector<std::string_view>& choices) {
    std::string s;
    for (std::string_view c : choices) s += (s.empty() ? "\"" : ", \"") + std::string(c) + "\"";
    return s;
}

std::string elementCountPhrase(std::size_t n) {
    return std::to_string(n) + (n == 1 ? " element" : " elements");
}

// The default light when a scene has none: a warm key light from the upper
// left front, so smoke reads as a volume rather than a flat silhouette.
LightSettings defaultKeyLight() {
    LightSettings light;
    light.type = LightType::Directional;
    light.direction = {-0.4f, 0.5f, -0.75f};
    light.color = {1.0f, 0.95f, 0.88f};
    light.intensity = 3.0f;
    return light;
}

// Sections whose tables may hold [[SECTION.key]] keyframes.
bool hasAnimatableKeys(std::string_view section) {
    return std::any_of(sceneKeys().begin(), sceneKeys().end(),
                       [&](const KeySpec& k) { return k.section == section && k.animatable; });
}

// What a key table may set: "frame" and the section's animatable keys.
std::vector<std::string_view> keyTableNames(std::string_view section) {
    std::vector<std::string_view> names{"frame"};
    for (const KeySpec& k : sceneKeys())
        if (k.section == section && k.animatable) names.push_back(k.key);
    return names;
}

std::string joined(const std::vector<std::string_view>& names) {
    std::string s;
    for (std::string_view n : names) s += (s.empty() ? "" : ", ") + std::string(n);
    return s;
}

// Frames of keys: fractional allowed, from 0 (before the first frame) to far
// beyond any shot's length.
constexpr ValueRange kKeyFrames{0, 1e6};

// Adds one point to the track of `name`, made on its first point.
void addKeyPoint(Animation& animation, const KeySpec& spec, double frame,
                 const SchemaValue& value) {
    auto track = std::find_if(animation.tracks.begin(), animation.tracks.end(),
                              [&](const KeyTrack& t) { return t.key == spec.key; });
    if (track == animation.tracks.end()) {
        animation.tracks.push_back({std::string(spec.key), {}, {}});
        track = animation.tracks.end() - 1;
    }
    if (spec.kind == ValueKind::Real)
        track->real.push_back({frame, float(std::get<double>(value))});
    else
        track->vec.push_back({frame, std::get<Vec3f>(value)});  // Vec3, and Scale as [x, y, z]
}

// Builds a Scene from a parsed tree. Errors are collected, and the first in
// file order (then --set order) is thrown, so a user fixes them top-down.
class SceneReader {
  public:
    SceneReader(const std::string& path, const std::vector<std::string>& overrides)
        : path_(path), overrides_(overrides) {}

    Scene read(const toml::table& root);

  private:
    struct Diagnostic {
        std::size_t source;  // 0: the file; i + 1: the i-th --set
        std::uint32_t line, column;
        std::string text;
    };

    std::size_t sourceIndex(const toml::source_region& where) const;
    void fail(const toml::source_region& where, const std::string& message);
    void checkTopLevel(const toml::table& root);
    void checkUnknownKeys(const toml::table& table, std::string_view section,
                          const std::string& relPrefix, const std::string& display);
    void readTable(Scene& scene, const toml::table& table, const SectionSpec& section,
                   std::size_t index, const std::string& display);
    std::optional<SchemaValue> convert(const KeySpec& spec, const toml::node& node,
                                       const std::string& name);
    std::optional<double> number(const toml::node& node, const std::string& name,
                                 const std::string& what);
    void readKeys(const toml::table& table, const SectionSpec& section, const std::string& display,
                  Animation& animation);
    void readKey(const toml::table& key, const SectionSpec& section, const std::string& display,
                 double frame, Animation& animation);
    std::optional<double> keyFrame(const toml::table& key, const std::string& display,
                                   std::optional<double> previous);
    void checkCrossFields(const Scene& scene, const toml::table& root);
    void placeFile(ShapeSettings& shape, const std::string& display, const toml::node& element);

    std::string path_;
    const std::vector<std::string>& overrides_;
    std::vector<Diagnostic> errors_;
    std::map<std::string, toml::source_region> given_;  // display name -> where it was set
};

std::size_t SceneReader::sourceIndex(const toml::source_region& where) const {
    if (where.path && *where.path != path_) {
        for (std::size_t i = 0; i < overrides_.size(); ++i)
            if (*where.path == overrideSourceName(overrides_[i])) return i + 1;
    }
    return 0;
}

void SceneReader::fail(const toml::source_region& where, const std::string& message) {
    errors_.push_back({sourceIndex(where), where.begin.line, where.begin.column, message});
}

void SceneReader::checkTopLevel(const toml::table& root) {
    for (auto&& [key, node] : root) {
        if (findSection(key.str())) continue;
        bool isTable = node.is_table() || node.is_array_of_tables();
        std::string what = isTable ? "unknown section '" : "unknown key '";
        fail(key.source(), what + std::string(key.str()) + "'" +
                               didYouMean("", suggestTopLevel(key.str(), isTable)));
    }
}

void SceneReader::checkUnknownKeys(const toml::table& table, std::string_view section,
                                   const std::string& relPrefix, const std::string& display) {
    for (auto&& [key, node] : table) {
        std::string rel = relPrefix + std::string(key.str());
        if (rel == "key" && hasAnimatableKeys(section)) continue;  // [[SECTION.key]]: readKeys
        bool isParent = std::any_of(sceneKeys().begin(), sceneKeys().end(), [&](const KeySpec& k) {
            return k.section == section && k.key.starts_with(rel + ".");
        });
        if (isParent && node.is_table()) {
            checkUnknownKeys(*node.as_table(), section, rel + ".", display);
        } else if (!findKey(section, rel)) {
            fail(key.source(), "unknown key '" + display + "." + rel + "'" +
                                   didYouMean(display, suggestKey(section, rel)));
        }
    }
}

std::optional<double> SceneReader::number(const toml::node& node, const std::string& name,
                                          const std::string& what) {
    std::optional<double> v;
    if (const auto* i = node.as_integer())
        v = static_cast<double>(i->get());
    else if (const auto* f = node.as_floating_point())
        v = f->get();
    if (!v) {
        fail(node.source(), "'" + name + "' must be " + what + ", got " + typeName(node));
    } else if (!std::isfinite(*v)) {
        fail(node.source(), "'" + name + "' must be finite, got " + formatNumber(*v));
        v.reset();
    }
    return v;
}

std::optional<SchemaValue> SceneReader::convert(const KeySpec& spec, const toml::node& node,
                                                const std::string& name) {
    const std::string quotedName = "'" + name + "'";
    auto outOfRange = [&](const toml::node& at, const std::string& shown, double v) {
        fail(at.source(), shown + " = " + formatNumber(v) + " is out of range " + spec.range.str());
    };
    switch (spec.kind) {
        case ValueKind::Integer: {
            const auto* i = node.as_integer();
            if (!i) {
                fail(node.source(), quotedName + " must be an integer, got " + typeName(node));
                return {};
            }
            std::int64_t v = i->get();
            if (!spec.range.contains(static_cast<double>(v))) {
                outOfRange(node, quotedName, static_cast<double>(v));
                return {};
            }
            if (spec.even && v % 2 != 0) {
                fail(node.source(), quotedName + " = " + std::to_string(v) +
                                        " must be even for H.264 video; use " +
                                        std::to_string(v - 1) + " or " + std::to_string(v + 1));
                return {};
            }
            return v;
        }
        case ValueKind::Real: {
            std::optional<double> v = number(node, name, "a number");
            if (!v) return {};
            if (!spec.range.contains(*v)) {
                outOfRange(node, quotedName, *v);
                return {};
            }
            return *v;
        }
        case ValueKind::Vec3:
        case ValueKind::Scale:
        case ValueKind::FrameRange: {
            bool isVec = spec.kind != ValueKind::FrameRange;
            bool isScale = spec.kind == ValueKind::Scale;
            // A scale may be one number for every axis.
            if (isScale && node.is_number()) {
                std::optional<double> v = number(node, name, "a number");
                if (!v) return {};
                if (!spec.range.contains(*v)) {
                    outOfRange(node, quotedName, *v);
                    return {};
                }
                return Vec3f(float(*v));
            }
            const std::string what = isScale ? "a number or an array of 3 numbers"
                                     : isVec ? "an array of 3 numbers"
                                             : "an array of 2 integers";
            std::size_t count = isVec ? 3 : 2;
            const auto* array = node.as_array();
            if (!array) {
                fail(node.source(), quotedName + " must be " + what + ", got " + typeName(node));
                return {};
            }
            if (array->size() != count) {
                fail(node.source(), quotedName + " must be " + what + ", got " +
                                        elementCountPhrase(array->size()));
                return {};
            }
            double v[3] = {0, 0, 0};
            bool ok = true;
            for (std::size_t e = 0; e < count; ++e) {
                const toml::node& element = *array->get(e);
                std::string shown = quotedName + " element " + std::to_string(e + 1);
                if (isVec ? !element.is_number() : !element.is_integer()) {
                    fail(element.source(), quotedName + " must be " + what + ", element " +
                                               std::to_string(e + 1) + " is " + typeName(element));
                    ok = false;
                    continue;
                }
                std::optional<double> x = number(element, name, what);
                if (!x) {
                    ok = false;
                    continue;
                }
                if (!spec.range.contains(*x)) {
                    outOfRange(element, shown, *x);
                    ok = false;
                    continue;
                }
                v[e] = *x;
            }
            if (!ok) return {};
            if (isVec) return Vec3f(float(v[0]), float(v[1]), float(v[2]));
            std::array<int, 2> frames{int(v[0]), int(v[1])};
            if (frames[0] > frames[1]) {
                fail(node.source(), quotedName + " = [" + std::to_string(frames[0]) + ", " +
                                        std::to_string(frames[1]) +
                                        "]: the first frame comes after the last");
                return {};
            }
            return frames;
        }
        case ValueKind::Text: {
            const auto* s = node.as_string();
            if (!s) {
                fail(node.source(), quotedName + " must be a string, got " + typeName(node));
                return {};
            }
            return s->get();
        }
        case ValueKind::Bool: {
            const auto* b = node.as_boolean();
            if (!b) {
                fail(node.source(), quotedName + " must be true or false, got " + typeName(node));
                return {};
            }
            return SchemaValue(std::in_place_type<bool>, b->get());
        }
        case ValueKind::Choice: {
            const auto* s = node.as_string();
            const std::string got = s ? "\"" + s->get() + "\"" : typeName(node);
            if (!s || std::find(spec.choices.begin(), spec.choices.end(), s->get()) ==
                          spec.choices.end()) {
                fail(node.source(), quotedName + " must be one of " + quotedChoices(spec.choices) +
                                        ", got " + got);
                return {};
            }
            return s->get();
        }
    }
    return {};
}

void SceneReader::readTable(Scene& scene, const toml::table& table, const SectionSpec& section,
                            std::size_t index, const std::string& display) {
    checkUnknownKeys(table, section.name, "", display);
    for (const KeySpec& spec : sceneKeys()) {
        if (spec.section != section.name) continue;

        // Find the node, following dotted keys through sub-tables
        const toml::node* node = &table;
        std::string_view rest = spec.key;
        while (node && !rest.empty()) {
            std::size_t dot = rest.find('.');
            const toml::table* t = node->as_table();
            node = t ? t->get(rest.substr(0, dot)) : nullptr;
            rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
        }
        if (!node) continue;

        // A key that is also a table of sub-keys ("domain.boundary")
        const std::string name = display + "." + std::string(spec.key);
        bool hasSubKeys =
            std::any_of(sceneKeys().begin(), sceneKeys().end(), [&](const KeySpec& k) {
                return k.section == spec.section && k.key.starts_with(std::string(spec.key) + ".");
            });
        if (hasSubKeys && node->is_table()) continue;
        if (hasSubKeys && !node->is_string()) {
            fail(node->source(),
                 "'" + name + "' must be a string or a table, got " + typeName(*node));
            continue;
        }

        if (std::optional<SchemaValue> value = convert(spec, *node, name)) {
            spec.set(scene, index, *value);
            given_[name] = node->source();
        }
    }
}

// [[SECTION.key]] tables inside one element (or [camera]), in file order:
// each adds a point at its frame to the track of every key it sets.
void SceneReader::readKeys(const toml::table& table, const SectionSpec& section,
                           const std::string& display, Animation& animation) {
    const toml::node* node = table.get("key");
    if (!node || !hasAnimatableKeys(section.name)) return;
    const toml::array* keys = node->as_array();
    if (!keys || !(keys->empty() || keys->is_array_of_tables())) {  // `key = []`: no keys
        fail(node->source(), "'" + display + ".key' must be an array of tables ([[" +
                                 std::string(section.name) + ".key]]), got " + typeName(*node));
        return;
    }
    std::optional<double> previous;  // the last good key's frame, for the order check
    for (std::size_t j = 0; j < keys->size(); ++j) {
        const toml::table& key = *keys->get(j)->as_table();
        const std::string keyDisplay = display + ".key[" + std::to_string(j + 1) + "]";
        std::optional<double> frame = keyFrame(key, keyDisplay, previous);
        if (!frame) continue;
        previous = frame;
        readKey(key, section, keyDisplay, *frame, animation);
    }
}

// A key table's frame: present, a finite number in range, after the previous key's.
std::optional<double> SceneReader::keyFrame(const toml::table& key, const std::string& display,
                                            std::optional<double> previous) {
    const toml::node* node = key.get("frame");
    if (!node) {
        fail(key.source(), "'" + display + "' needs a 'frame'");
        return {};
    }
    const std::string name = display + ".frame";
    std::optional<double> frame = number(*node, name, "a number");
    if (!frame) return {};
    if (!kKeyFrames.contains(*frame)) {
        fail(node->source(),
             "'" + name + "' = " + formatNumber(*frame) + " is out of range " + kKeyFrames.str());
        return {};
    }
    if (previous && *frame == *previous) {
        fail(node->source(), "'" + name + "' = " + formatNumber(*frame) +
                                 ": two keys at one frame (the previous key is at frame " +
                                 formatNumber(*previous) + ")");
        return {};
    }
    if (previous && *frame < *previous) {
        fail(node->source(), "'" + name + "' = " + formatNumber(*frame) +
                                 " comes before the previous key's frame " +
                                 formatNumber(*previous) + ": keys go in frame order");
        return {};
    }
    return frame;
}

// The values of one key table, each checked as the same key at top level.
void SceneReader::readKey(const toml::table& key, const SectionSpec& section,
                          const std::string& display, double frame, Animation& animation) {
    const std::vector<std::string_view> allowed = keyTableNames(section.name);
    for (auto&& [k, node] : key) {
        const std::string_view rel = k.str();
        if (rel == "frame") continue;
        const std::string name = display + "." + std::string(rel);
        const KeySpec* spec = findKey(section.name, rel);
        if (!spec) {
            fail(k.source(),
                 "unknown key '" + name + "'" + didYouMean(display, nearestName(rel, allowed)));
        } else if (!spec->animatable) {
            fail(k.source(), "'" + name + "' is not animatable; a key may set " + joined(allowed));
        } else if (std::optional<SchemaValue> value = convert(*spec, node, name)) {
            addKeyPoint(animation, *spec, frame, *value);
        }
    }
}

// A mesh's file: resolved beside the scene file, with where its key sits so
// io can report a bad mesh at the key. A mesh without a file is an error here.
void SceneReader::placeFile(ShapeSettings& shape, const std::string& display,
                            const toml::node& element) {
    auto it = given_.find(display + ".file");
    if (shape.shape != Shape::Mesh) return;
    if (it == given_.end()) {
        fail(element.source(), "'" + display + ".file' is required for shape = \"mesh\"");
        return;
    }
    namespace fs = std::filesystem;
    fs::path file(shape.file);
    shape.filePath =
        file.is_absolute() ? file.string() : (fs::path(path_).parent_path() / file).string();
    shape.fileLine = int(it->second.begin.line);
    shape.fileColumn = int(it->second.begin.column);
}

void SceneReader::checkCrossFields(const Scene& scene, const toml::table& root) {
    // A clash of several keys is reported at the one set last (a --set, or
    // the latest line), the one the user most likely just changed.
    auto whereGiven = [&](std::initializer_list<std::string> names, const toml::node* fallback) {
        std::optional<toml::source_region> latest;
        auto order = [&](const toml::source_region& r) {
            return std::tuple(sourceIndex(r), r.begin.line, r.begin.column);
        };
        for (const std::string& n : names)
            if (auto it = given_.find(n); it != given_.end())
                if (!latest || order(it->second) > order(*latest)) latest = it->second;
        if (latest) return *latest;
        return fallback ? fallback->source() : toml::source_region{};
    };

    // Camera: a view direction, and an up that is not along it
    if (scene.camera.given) {
        const CameraSettings& c = scene.camera;
        const toml::node* section = root.get("camera");
        Vec3f view = c.lookAt - c.position;
        if (length(view) == 0.0f) {
            fail(whereGiven({"camera.look_at", "camera.position"}, section),
                 "'camera.look_at' must differ from 'camera.position'");
        } else if (length(cross(normalize(view), normalize(c.up))) < 1e-4f) {
            fail(whereGiven({"camera.up", "camera.look_at", "camera.position"}, section),
                 "'camera.up' must not be parallel to the view direction (look_at - position)");
        }
    }

    // Directional lights need a direction
    for (std::size_t i = 0; i < scene.lights.size(); ++i) {
        const LightSettings& light = scene.lights[i];
        std::string name = "light[" + std::to_string(i + 1) + "].direction";
        if (light.type == LightType::Directional && length(light.direction) == 0.0f) {
            const toml::array* lights = root.get("light") ? root.get("light")->as_array() : nullptr;
            fail(whereGiven({name}, lights ? lights->get(i) : nullptr),
                 "'" + name + "' must not be zero for a directional light");
        }
    }
}

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
                if (section.name == "camera") {
                    scene.camera.given = true;
                    readKeys(*table, section, name, animationOf(scene, section.name, 0));
                }
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
    if (errors_.empty()) checkCrossFields(scene, root);

    if (!errors_.empty()) {
        const Diagnostic& first = *std::min_element(
            errors_.begin(), errors_.end(), [](const Diagnostic& a, const Diagnostic& b) {
                return std::tie(a.source, a.line, a.column) < std::tie(b.source, b.line, b.column);
            });
        SourceLocation where{path_, int(first.line), int(first.column)};
        if (first.source > 0) where = {overrideSourceName(overrides_[first.source - 1])};
        throw InputError(where, first.text);
    }

    if (scene.lights.empty()) scene.lights.push_back(defaultKeyLight());
    for (const auto& entry : given_) scene.given.insert(entry.first);
    return scene;
}

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
    return SceneReader(path, overrides).read(root);
}

Scene loadScene(const std::string& path, const std::vector<std::string>& overrides) {
    auto cannotRead = [&](int error) {
        return InputError(path + ": error: cannot read scene file (" + std::strerror(error) + ")");
    };
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
