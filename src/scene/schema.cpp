#include "scene/schema.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "scene/flame_units.h"
#include "scene/schema_keys.h"

namespace plume {


bool ValueRange::contains(double v) const {
    bool aboveLo = loOpen ? v > lo : v >= lo;
    bool belowHi = hiOpen ? v < hi : v <= hi;
    return aboveLo && belowHi;
}

std::string ValueRange::str() const {
    bool openLo = loOpen || std::isinf(lo), openHi = hiOpen || std::isinf(hi);
    return std::string(openLo ? "(" : "[") + formatNumber(lo) + ", " + formatNumber(hi) +
           (openHi ? ")" : "]");
}

std::string KeySpec::dotted() const { return std::string(section) + "." + std::string(key); }

const std::vector<SectionSpec>& sceneSections() {
    static const std::vector<SectionSpec> sections = {
        {"domain", false, "The simulation box: size, resolution, what happens at each side"},
        {"time", false, "Frame rate, length and substep control"},
        {"physics", false, "Forces and dissipation; every rate is per second"},
        {"solver", false, "Pressure projection and advection"},
        {"upres", false,
         "Detail: density, temperature, fuel and flame on a grid `factor` times finer than "
         "the velocity's, stirred by wavelet turbulence where the base grid cannot resolve "
         "its own energy"},
        {"shaping", false,
         "Shaping for all smoke, as the flame's own physics.flame_disturbance and "
         "flame_shredding are for fire: block disturbance that breaks smooth smoke into "
         "puffs, and shredding that tears its hot edge; in metres and seconds, the same "
         "at any resolution"},
        {"guide", false,
         "A bake that follows another bake's motion (a preview at a few cells, or Blender's "
         "cache): the guide's flow, blurred by `blur` metres, taken by `weight` a frame, the "
         "finer grid's own detail left on it"},
        {"sparks", false,
         "Sparks and embers: points the flame (and emitter.sparks) throws, carried by the "
         "flow, cooling until they wink out; the cache's `sparks` points"},
        {"emitter", true, "Sources of smoke and heat, one [[emitter]] table each"},
        {"obstacle", true, "Solid shapes the smoke flows around, one [[obstacle]] table each"},
        {"field", true,
         "Force fields, one [[field]] table each: wind, vortex, turbulence, attract, drag or a "
         "curve the smoke follows, within a shape and weakened with distance as Blender's "
         "fields are. They act where the solver simulates: a sparse solve's boxes around the "
         "smoke (solver.sparse = false: the whole domain)"},
        {"camera", false, "The view; without [camera] plume frames the whole domain automatically"},
        {"light", true,
         "Lights, one [[light]] table each; without any, one warm directional key light "
         "(direction [-0.4, 0.5, -0.75], intensity 3) is added; `light = []`, before any "
         "table, for no light at all"},
        {"ground", false, "A ground plane under the smoke; off unless enabled"},
        {"environment", false,
         "Light from a latitude-longitude image around the scene, in place of the sky "
         "(render.ambient) and the background"},
        {"render", false, "Image size and the look of the smoke"},
        {"output", false, "Video encoding and VDB cache format"},
        {"flipbook", false,
         "The texture sheet --flipbook DIR writes for game engines: frames sampled evenly from "
         "the shot, each rendered frame_size square on a transparent background, frame 0 at "
         "the top left, row by row, with a JSON sidecar (TexturePacker's layout, as Pixi reads "
         "it); the run's other frames (--png, --exr, a video with -o) are then the cells' too"},
        {"loop", false,
         "The shot's last frames made to play in a loop: the pictures (--png, --exr, the "
         "video, --flipbook) are those frames, the last of them blended into the frames before "
         "the first; the cache holds the frames the loop is made of, unblended"},
    };
    return sections;
}

const std::vector<KeySpec>& sceneKeys() {
    static const std::vector<KeySpec> keys = buildSceneKeys();
    return keys;
}

const SectionSpec* findSection(std::string_view name) {
    for (const SectionSpec& s : sceneSections())
        if (s.name == name) return &s;
    return nullptr;
}

const KeySpec* findKey(std::string_view section, std::string_view key) {
    for (const KeySpec& k : sceneKeys())
        if (k.section == section && k.key == key) return &k;
    return nullptr;
}

void appendElement(Scene& scene, std::string_view section) {
    if (section == "emitter")
        scene.emitters.emplace_back();
    else if (section == "obstacle")
        scene.obstacles.emplace_back();
    else if (section == "light")
        scene.lights.emplace_back();
    else if (section == "field")
        scene.fields.emplace_back();
}

std::size_t elementCount(const Scene& scene, std::string_view section) {
    if (section == "emitter") return scene.emitters.size();
    if (section == "obstacle") return scene.obstacles.size();
    if (section == "light") return scene.lights.size();
    if (section == "field") return scene.fields.size();
    return 0;
}

Animation& animationOf(Scene& scene, std::string_view section, std::size_t index) {
    if (section == "emitter") return scene.emitters.at(index).animation;
    if (section == "obstacle") return scene.obstacles.at(index).animation;
    if (section == "light") return scene.lights.at(index).animation;
    if (section == "field") return scene.fields.at(index).animation;
    if (section == "physics") return scene.physicsAnimation;
    return scene.camera.animation;
}

const Animation& animationOf(const Scene& scene, std::string_view section, std::size_t index) {
    return animationOf(const_cast<Scene&>(scene), section, index);
}

std::string formatNumber(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    // Whole numbers in full ("100000", not "1e+05"): they are counts and sizes.
    if (v == std::trunc(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string formatFloat(float v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

namespace {

// A TOML float literal: keep a decimal point or exponent so it reads back as a float.
std::string tomlFloat(std::string s) {
    if (s.find_first_of(".einf") == std::string::npos) s += ".0";
    return s;
}

// A double-quoted string with quotes and backslashes escaped and control
// characters as \uXXXX, so it stays one line: a TOML basic string (which
// escapes DEL too) or a JSON string (which need not).
std::string quoted(std::string_view s, bool escapeDelete) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20 || (escapeDelete && c == 0x7f)) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string tomlString(std::string_view s) { return quoted(s, true); }

}  // namespace

std::string formatTomlValue(const KeySpec& spec, const SchemaValue& value) {
    switch (spec.kind) {
        case ValueKind::Integer:
            return std::to_string(std::get<std::int64_t>(value));
        case ValueKind::Real: {
            double v = std::get<double>(value);
            return tomlFloat(spec.singlePrecision ? formatFloat(static_cast<float>(v))
                                                  : formatNumber(v));
        }
        case ValueKind::Vec3:
        case ValueKind::Scale: {
            Vec3f v = std::get<Vec3f>(value);
            return "[" + tomlFloat(formatFloat(v.x)) + ", " + tomlFloat(formatFloat(v.y)) + ", " +
                   tomlFloat(formatFloat(v.z)) + "]";
        }
        case ValueKind::FrameRange: {
            auto f = std::get<std::array<int, 2>>(value);
            return "[" + std::to_string(f[0]) + ", " + std::to_string(f[1]) + "]";
        }
        case ValueKind::Text:
        case ValueKind::Choice:
            return tomlString(std::get<std::string>(value));
        case ValueKind::Bool:
            return std::get<bool>(value) ? "true" : "false";
        case ValueKind::ChoiceList: {
            std::string s = "[";
            for (const std::string& e : std::get<std::vector<std::string>>(value))
                s += (s.size() > 1 ? ", " : "") + tomlString(e);
            return s + "]";
        }
        case ValueKind::Points: {
            std::string s = "[";
            for (const Vec3f& p : std::get<std::vector<Vec3f>>(value))
                s += (s.size() > 1 ? ", [" : "[") + tomlFloat(formatFloat(p.x)) + ", " +
                     tomlFloat(formatFloat(p.y)) + ", " + tomlFloat(formatFloat(p.z)) + "]";
            return s + "]";
        }
    }
    return {};
}

namespace {

std::string jsonString(std::string_view s) { return quoted(s, false); }

// A bound as JSON: infinities as null (JSON has no inf).
std::string jsonBound(double v) { return std::isfinite(v) ? formatNumber(v) : "null"; }

const char* kindName(ValueKind kind) {
    switch (kind) {
        case ValueKind::Integer:
            return "integer";
        case ValueKind::Real:
            return "float";
        case ValueKind::Vec3:
            return "vec3";
        case ValueKind::Scale:
            return "scale";
        case ValueKind::FrameRange:
            return "frame_range";
        case ValueKind::Text:
            return "string";
        case ValueKind::Bool:
            return "boolean";
        case ValueKind::Choice:
            return "choice";
        case ValueKind::ChoiceList:
            return "choice_list";
        case ValueKind::Points:
            return "points";
    }
    return "";
}

// The default as JSON: TOML's numbers, arrays, strings and booleans are JSON's too.
std::string jsonDefault(const KeySpec& spec, const SchemaValue& value) {
    if (spec.kind == ValueKind::Text || spec.kind == ValueKind::Choice)
        return jsonString(std::get<std::string>(value));
    if (spec.kind == ValueKind::ChoiceList) {
        std::string s = "[";
        for (const std::string& e : std::get<std::vector<std::string>>(value))
            s += (s.size() > 1 ? ", " : "") + jsonString(e);
        return s + "]";
    }
    std::string s = formatTomlValue(spec, value);
    return s.find_first_of("in") == std::string::npos || s == "true" ? s : "null";
}

}  // namespace

std::string sceneReferenceJson() {
    // Defaults come from a default Scene, with one default element per array.
    Scene defaults;
    for (const SectionSpec& section : sceneSections())
        if (section.isArray) appendElement(defaults, section.name);

    std::string out = "{\n  \"sections\": [";
    bool first = true;
    for (const SectionSpec& section : sceneSections()) {
        out += first ? "\n" : ",\n";
        first = false;
        out += "    {\"name\": " + jsonString(section.name) +
               ", \"array\": " + (section.isArray ? "true" : "false") +
               ", \"doc\": " + jsonString(section.doc) + "}";
    }
    out += "\n  ],\n  \"keys\": [";
    first = true;
    for (const KeySpec& spec : sceneKeys()) {
        out += first ? "\n" : ",\n";
        first = false;
        out += "    {\"section\": " + jsonString(spec.section) +
               ", \"key\": " + jsonString(spec.key) + ", \"type\": \"" + kindName(spec.kind) + "\"";
        out += ", \"default\": " + (spec.get ? jsonDefault(spec, spec.get(defaults, 0)) : "null");
        out += ", \"min\": " + jsonBound(spec.range.lo) + ", \"max\": " + jsonBound(spec.range.hi);
        out += std::string(", \"min_open\": ") + (spec.range.loOpen ? "true" : "false") +
               ", \"max_open\": " + (spec.range.hiOpen ? "true" : "false");
        out += ", \"choices\": [";
        for (std::size_t i = 0; i < spec.choices.size(); ++i)
            out += (i ? ", " : "") + jsonString(spec.choices[i]);
        out += std::string("], \"animatable\": ") + (spec.animatable ? "true" : "false") +
               ", \"alias\": " + (spec.alias ? "true" : "false") +
               ", \"doc\": " + jsonString(spec.doc) + "}";
    }
    // The numbers behind the fire keys another renderer needs (scene/flame_units.h).
    out += "\n  ],\n  \"constants\": {";
    const struct {
        const char* name;
        float value;
        const char* doc;
    } constants[] = {
        {"flame_density", kFlameDensity,
         "density a flame of 1 adds to the smoke: Density = render.extinction * (density + "
         "this * flame)"},
        {"cycles_blackbody_per_emission", kCyclesBlackbodyPerEmission,
         "Cycles' Principled Volume Blackbody Intensity per unit of render.emission * flame"},
    };
    first = true;
    for (const auto& c : constants) {
        out += first ? "\n" : ",\n";
        first = false;
        out += "    " + jsonString(c.name) + ": {\"value\": " + formatFloat(c.value) +
               ", \"doc\": " + jsonString(c.doc) + "}";
    }
    return out + "\n  }\n}\n";
}

std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string_view nearestName(std::string_view name,
                             const std::vector<std::string_view>& candidates) {
    std::string_view best;
    std::size_t bestDistance = std::numeric_limits<std::size_t>::max();
    for (std::string_view c : candidates) {
        std::size_t d = editDistance(name, c);
        if (d < bestDistance) bestDistance = d, best = c;
    }
    // A typo changes a few letters; beyond that the suggestion would be noise.
    std::size_t limit = std::max<std::size_t>(2, std::max(name.size(), best.size()) / 3);
    return bestDistance <= limit ? best : std::string_view();
}

std::string suggestTopLevel(std::string_view name, bool isTable) {
    std::vector<std::string_view> sections;
    for (const SectionSpec& s : sceneSections()) sections.push_back(s.name);
    std::string_view section = nearestName(name, sections);
    if (!section.empty() || isTable) return std::string(section);
    // A key written outside its section: match its last part.
    std::vector<std::string_view> leaves;
    for (const KeySpec& k : sceneKeys()) leaves.push_back(k.key.substr(k.key.rfind('.') + 1));
    std::string_view leaf = nearestName(name, leaves);
    for (const KeySpec& k : sceneKeys())
        if (!leaf.empty() && k.key.substr(k.key.rfind('.') + 1) == leaf) return k.dotted();
    return {};
}

std::string suggestKey(std::string_view section, std::string_view key) {
    std::vector<std::string_view> keys;
    for (const KeySpec& k : sceneKeys())
        if (k.section == section) keys.push_back(k.key);
    return std::string(nearestName(key, keys));
}

std::string didYouMean(std::string_view prefix, std::string_view suggestion) {
    if (suggestion.empty()) return {};
    std::string full = prefix.empty() ? std::string(suggestion)
                                      : std::string(prefix) + "." + std::string(suggestion);
    return " (did you mean '" + full + "'?)";
}

}  // namespace plume
