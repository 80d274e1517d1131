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
        case ValueKind::ChoiceList: {
            // One choice as a string ("all"), or an array of them.
            const std::string what =
                "one of " + quotedChoices(spec.choices) + " or an array of them";
            auto choice = [&](const toml::node& at) -> std::optional<std::string> {
                const auto* s = at.as_string();
                if (s && std::find(spec.choices.begin(), spec.choices.end(), s->get()) !=
                             spec.choices.end())
                    return s->get();
                fail(at.source(), quotedName + " must be " + what + ", got " +
                                      (s ? "\"" + s->get() + "\"" : typeName(at)));
                return {};
            };
            std::vector<std::string> list;
            if (const auto* array = node.as_array()) {
                for (const toml::node& element : *array) {
                    std::optional<std::string> c = choice(element);
                    if (!c) return {};
                    list.push_back(*c);
                }
            } else {
                std::optional<std::string> c = choice(node);
                if (!c) return {};
                list.push_back(*c);
            }
            return list;
        }
    }
    return {};
}

}  // namespace plume::loader
