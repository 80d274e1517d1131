// The scene loader's values: one TOML node checked against its KeySpec (kind,
// range, choices) and converted, every error at the node's own location.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include "scene/loader_reader.h"

namespace plume::loader {

namespace {

std::string quotedChoices(const std::vector<std::string_view>& choices) {
    std::string s;
    for (std::string_view c : choices) s += (s.empty() ? "\"" : ", \"") + std::string(c) + "\"";
    return s;
}

std::string elementCountPhrase(std::size_t n) {
    return std::to_string(n) + (n == 1 ? " element" : " elements");
}

}  // namespace

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

std::optional<double> SceneReader::number(const toml::node& node, const std::string& name,
                                          const std::string& what) {
    std::optional<double> v;
    if (const auto* i = node.as_integer())
        v = static_cast<double>(i->get());
    else if (const auto* f = node.as_floating_point())
        v = f->get();
    if (!v) {
        mustBe(node, name, what);
    } else if (!std::isfinite(*v)) {
        fail(node.source(), "'" + name + "' must be finite, got " + formatNumber(*v));
        v.reset();
    }
    return v;
}

std::optional<SchemaValue> SceneReader::convert(const KeySpec& spec, const toml::node& node,
                                                const std::string& name) {
    switch (spec.kind) {
        case ValueKind::Integer:
            return convertInteger(spec, node, name);
        case ValueKind::Real: {
            const std::optional<double> v = rangedNumber(spec, node, name);
            if (!v) return {};
            return *v;
        }
        case ValueKind::Vec3:
        case ValueKind::Scale:
        case ValueKind::FrameRange:
            return convertTriple(spec, node, name);
        case ValueKind::Text: {
            const auto* s = node.as_string();
            if (!s) {
                mustBe(node, name, "a string");
                return {};
            }
            return s->get();
        }
        case ValueKind::Bool: {
            const auto* b = node.as_boolean();
            if (!b) {
                mustBe(node, name, "true or false");
                return {};
            }
            return SchemaValue(std::in_place_type<bool>, b->get());
        }
        case ValueKind::Choice: {
            std::optional<std::string> c =
                convertChoice(spec, node, name, "one of " + quotedChoices(spec.choices));
            if (!c) return {};
            return *c;
        }
        case ValueKind::ChoiceList:
            return convertChoiceList(spec, node, name);
        case ValueKind::Points:
            return convertPoints(spec, node, name);
    }
    return {};
}

void SceneReader::mustBe(const toml::node& at, const std::string& name, const std::string& what,
                         const std::string& got) {
    fail(at.source(),
         "'" + name + "' must be " + what + ", got " + (got.empty() ? typeName(at) : got));
}

bool SceneReader::inRange(const KeySpec& spec, const toml::node& at, const std::string& shown,
                          double v) {
    if (spec.range.contains(v)) return true;
    fail(at.source(), shown + " = " + formatNumber(v) + " is out of range " + spec.range.str());
    return false;
}

std::optional<double> SceneReader::rangedNumber(const KeySpec& spec, const toml::node& node,
                                                const std::string& name) {
    std::optional<double> v = number(node, name, "a number");
    if (v && !inRange(spec, node, "'" + name + "'", *v)) v.reset();
    return v;
}

std::optional<SchemaValue> SceneReader::convertInteger(const KeySpec& spec, const toml::node& node,
                                                       const std::string& name) {
    const auto* i = node.as_integer();
    if (!i) {
        mustBe(node, name, "an integer");
        return {};
    }
    std::int64_t v = i->get();
    if (!inRange(spec, node, "'" + name + "'", static_cast<double>(v))) return {};
    if (spec.even && v % 2 != 0) {
        fail(node.source(), "'" + name + "' = " + std::to_string(v) +
                                " must be even for H.264 video; use " + std::to_string(v - 1) +
                                " or " + std::to_string(v + 1));
        return {};
    }
    return v;
}

// A Vec3 or Scale (three numbers; a scale also one for every axis) or a
// FrameRange (two integers, the first not after the last).
std::optional<SchemaValue> SceneReader::convertTriple(const KeySpec& spec, const toml::node& node,
                                                      const std::string& name) {
    const bool isVec = spec.kind != ValueKind::FrameRange;
    const bool isScale = spec.kind == ValueKind::Scale;
    // A scale may be one number for every axis.
    if (isScale && node.is_number()) {
        const std::optional<double> v = rangedNumber(spec, node, name);
        if (!v) return {};
        return Vec3f(float(*v));
    }
    const std::string what = isScale ? "a number or an array of 3 numbers"
                             : isVec ? "an array of 3 numbers"
                                     : "an array of 2 integers";
    const std::size_t count = isVec ? 3 : 2;
    const auto* array = node.as_array();
    if (!array) {
        mustBe(node, name, what);
        return {};
    }
    if (array->size() != count) {
        mustBe(node, name, what, elementCountPhrase(array->size()));
        return {};
    }
    double v[3] = {0, 0, 0};
    if (!readElements(spec, *array, name, what, isVec, v)) return {};
    if (isVec) return Vec3f(float(v[0]), float(v[1]), float(v[2]));
    std::array<int, 2> frames{int(v[0]), int(v[1])};
    if (frames[0] > frames[1]) {
        fail(node.source(), "'" + name + "' = [" + std::to_string(frames[0]) + ", " +
                                std::to_string(frames[1]) +
                                "]: the first frame comes after the last");
        return {};
    }
    return frames;
}

bool SceneReader::readElements(const KeySpec& spec, const toml::array& array,
                               const std::string& name, const std::string& what, bool isVec,
                               double (&v)[3]) {
    const std::string quotedName = "'" + name + "'";
    bool ok = true;
    for (std::size_t e = 0; e < array.size(); ++e) {
        const toml::node& element = *array.get(e);
        if (isVec ? !element.is_number() : !element.is_integer()) {
            fail(element.source(), quotedName + " must be " + what + ", element " +
                                       std::to_string(e + 1) + " is " + typeName(element));
            ok = false;
            continue;
        }
        const std::optional<double> x = number(element, name, what);
        if (!x || !inRange(spec, element, quotedName + " element " + std::to_string(e + 1), *x)) {
            ok = false;
            continue;
        }
        v[e] = *x;
    }
    return ok;
}

// One of the spec's choices; `what` as the message names the choices.
std::optional<std::string> SceneReader::convertChoice(const KeySpec& spec, const toml::node& at,
                                                      const std::string& name,
                                                      const std::string& what) {
    const auto* s = at.as_string();
    if (s && std::find(spec.choices.begin(), spec.choices.end(), s->get()) != spec.choices.end())
        return s->get();
    mustBe(at, name, what, s ? "\"" + s->get() + "\"" : typeName(at));
    return {};
}

// An array of points, each an array of 3 numbers in range.
std::optional<SchemaValue> SceneReader::convertPoints(const KeySpec& spec, const toml::node& node,
                                                      const std::string& name) {
    const std::string what = "an array of [x, y, z] arrays";
    const auto* array = node.as_array();
    if (!array) {
        mustBe(node, name, what);
        return {};
    }
    std::vector<Vec3f> points;
    for (std::size_t e = 0; e < array->size(); ++e) {
        const toml::node& element = *array->get(e);
        const std::string at = name + "[" + std::to_string(e + 1) + "]";
        const auto* point = element.as_array();
        if (!point || point->size() != 3) {
            mustBe(element, at, "an array of 3 numbers",
                   point ? elementCountPhrase(point->size()) : std::string());
            return {};
        }
        double v[3] = {0, 0, 0};
        if (!readElements(spec, *point, at, "an array of 3 numbers", true, v)) return {};
        points.push_back(Vec3f(float(v[0]), float(v[1]), float(v[2])));
    }
    return points;
}

// One choice as a string ("all"), or an array of them.
std::optional<SchemaValue> SceneReader::convertChoiceList(const KeySpec& spec,
                                                          const toml::node& node,
                                                          const std::string& name) {
    const std::string what = "one of " + quotedChoices(spec.choices) + " or an array of them";
    std::vector<std::string> list;
    if (const auto* array = node.as_array()) {
        for (const toml::node& element : *array) {
            std::optional<std::string> c = convertChoice(spec, element, name, what);
            if (!c) return {};
            list.push_back(*c);
        }
    } else {
        std::optional<std::string> c = convertChoice(spec, node, name, what);
        if (!c) return {};
        list.push_back(*c);
    }
    return list;
}

}  // namespace plume::loader
