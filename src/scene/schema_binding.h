// How a scene key is bound to the Scene member it sets (scene/schema_keys.cpp,
// scene/schema_view_keys.cpp): the ranges, the parts of a Scene, the value
// conversions, key(), and what a key is beyond its value. Only the key tables
// include this.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "scene/schema.h"

namespace plume::binding {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Common ranges.
constexpr ValueRange kAny{};                    // finite, any sign
constexpr ValueRange kNonNegative{0, kInf};     // rates, colours, amounts
constexpr ValueRange kPositive{0, kInf, true};  // lengths
constexpr ValueRange kUnit{0, 1};

// The struct a key lives in, for scene s and (array sections) element i.
template <typename T>
using PartOf = T& (*)(Scene&, std::size_t);

inline DomainSettings& domainPart(Scene& s, std::size_t) { return s.domain; }
inline TimeSettings& timePart(Scene& s, std::size_t) { return s.time; }
inline PhysicsSettings& physicsPart(Scene& s, std::size_t) { return s.physics; }
inline SolverSettings& solverPart(Scene& s, std::size_t) { return s.solver; }
inline UpresSettings& upresPart(Scene& s, std::size_t) { return s.upres; }
inline ShapingSettings& shapingPart(Scene& s, std::size_t) { return s.shaping; }
inline GuideSettings& guidePart(Scene& s, std::size_t) { return s.guide; }
inline SparksSettings& sparksPart(Scene& s, std::size_t) { return s.sparks; }
inline EmitterSettings& emitterPart(Scene& s, std::size_t i) { return s.emitters.at(i); }
inline ShapeSettings& emitterShapePart(Scene& s, std::size_t i) { return s.emitters.at(i); }
inline ShapeSettings& obstacleShapePart(Scene& s, std::size_t i) { return s.obstacles.at(i); }
inline CameraSettings& cameraPart(Scene& s, std::size_t) { return s.camera; }
inline LightSettings& lightPart(Scene& s, std::size_t i) { return s.lights.at(i); }
inline RenderSettings& renderPart(Scene& s, std::size_t) { return s.render; }
inline GroundSettings& groundPart(Scene& s, std::size_t) { return s.ground; }
inline EnvironmentSettings& environmentPart(Scene& s, std::size_t) { return s.environment; }
inline ObstacleSettings& obstaclePart(Scene& s, std::size_t i) { return s.obstacles.at(i); }
inline FieldSettings& fieldPart(Scene& s, std::size_t i) { return s.fields.at(i); }
inline OutputSettings& outputPart(Scene& s, std::size_t) { return s.output; }
inline FlipbookSettings& flipbookPart(Scene& s, std::size_t) { return s.flipbook; }
inline LoopSettings& loopPart(Scene& s, std::size_t) { return s.loop; }

// Conversions between a struct member and a SchemaValue. Enums are stored as
// the index of their name in the key's choices, which follow the enum order.
template <typename M>
SchemaValue toValue(const M& m, const std::vector<std::string_view>& choices) {
    if constexpr (std::is_same_v<M, bool>)
        return SchemaValue(std::in_place_type<bool>, m);
    else if constexpr (std::is_same_v<M, int>)
        return std::int64_t{m};
    else if constexpr (std::is_same_v<M, float> || std::is_same_v<M, double>)
        return double(m);
    else if constexpr (std::is_same_v<M, Vec3f> || std::is_same_v<M, std::array<int, 2>>)
        return m;
    else if constexpr (std::is_same_v<M, std::string> ||
                       std::is_same_v<M, std::vector<std::string>> ||
                       std::is_same_v<M, std::vector<Vec3f>>)
        return m;
    else {
        static_assert(std::is_enum_v<M>);
        return std::string(choices.at(static_cast<std::size_t>(m)));
    }
}

template <typename M>
void fromValue(M& m, const SchemaValue& v, const std::vector<std::string_view>& choices) {
    if constexpr (std::is_same_v<M, bool>)
        m = std::get<bool>(v);
    else if constexpr (std::is_same_v<M, int>)
        m = static_cast<int>(std::get<std::int64_t>(v));
    else if constexpr (std::is_same_v<M, float> || std::is_same_v<M, double>)
        m = static_cast<M>(std::get<double>(v));
    else if constexpr (std::is_same_v<M, Vec3f> || std::is_same_v<M, std::array<int, 2>> ||
                       std::is_same_v<M, std::string> ||
                       std::is_same_v<M, std::vector<std::string>> ||
                       std::is_same_v<M, std::vector<Vec3f>>)
        m = std::get<M>(v);
    else {
        const std::string& name = std::get<std::string>(v);
        auto it = std::find(choices.begin(), choices.end(), name);
        m = static_cast<M>(it - choices.begin());
    }
}

template <typename M>
constexpr ValueKind kindOf() {
    if constexpr (std::is_same_v<M, bool>)
        return ValueKind::Bool;
    else if constexpr (std::is_same_v<M, int>)
        return ValueKind::Integer;
    else if constexpr (std::is_same_v<M, float> || std::is_same_v<M, double>)
        return ValueKind::Real;
    else if constexpr (std::is_same_v<M, Vec3f>)
        return ValueKind::Vec3;
    else if constexpr (std::is_same_v<M, std::array<int, 2>>)
        return ValueKind::FrameRange;
    else if constexpr (std::is_same_v<M, std::string>)
        return ValueKind::Text;
    else if constexpr (std::is_same_v<M, std::vector<std::string>>)
        return ValueKind::ChoiceList;
    else if constexpr (std::is_same_v<M, std::vector<Vec3f>>)
        return ValueKind::Points;
    else
        return ValueKind::Choice;
}

// One key bound to a struct member.
template <typename T, typename M>
inline KeySpec key(std::string_view section, std::string_view name, PartOf<T> part, M T::*member,
            ValueRange range, std::string_view doc, std::vector<std::string_view> choices = {}) {
    KeySpec k;
    k.section = section;
    k.key = name;
    k.kind =
        choices.empty() || kindOf<M>() == ValueKind::ChoiceList ? kindOf<M>() : ValueKind::Choice;
    k.doc = doc;
    k.range = range;
    k.choices = choices;
    k.singlePrecision = !std::is_same_v<M, double>;
    k.get = [part, member, choices](const Scene& s, std::size_t i) {
        return toValue(part(const_cast<Scene&>(s), i).*member, choices);
    };
    k.set = [part, member, choices](Scene& s, std::size_t i, const SchemaValue& v) {
        fromValue(part(s, i).*member, v, choices);
    };
    return k;
}

// `interpolation`: how a section's keys ([[SECTION.key]]) blend between frames.
// The Animation is not a plain member of the part, so the key is bound by hand.
template <typename T>
inline KeySpec interpolationKey(std::string_view section, PartOf<T> part) {
    static const std::vector<std::string_view> choices{"linear", "smooth"};  // Interpolation
    KeySpec k;
    k.section = section;
    k.key = "interpolation";
    k.kind = ValueKind::Choice;
    k.doc = "between keys: straight lines, or a cubic through them that never overshoots";
    k.choices = choices;
    k.get = [part](const Scene& s, std::size_t i) {
        return toValue(part(const_cast<Scene&>(s), i).animation.interpolation, choices);
    };
    k.set = [part](Scene& s, std::size_t i, const SchemaValue& v) {
        fromValue(part(s, i).animation.interpolation, v, choices);
    };
    return k;
}

// `physics.interpolation`: how [[physics.key]] blends, for the Scene's
// physicsAnimation (physics keys are not a member of PhysicsSettings).
inline KeySpec physicsInterpolationKey() {
    static const std::vector<std::string_view> choices{"linear", "smooth"};  // Interpolation
    KeySpec k;
    k.section = "physics";
    k.key = "interpolation";
    k.kind = ValueKind::Choice;
    k.doc =
        "between [[physics.key]] keys: straight lines, or a cubic through them that never "
        "overshoots";
    k.choices = choices;
    k.get = [](const Scene& s, std::size_t) {
        return toValue(s.physicsAnimation.interpolation, choices);
    };
    k.set = [](Scene& s, std::size_t, const SchemaValue& v) {
        fromValue(s.physicsAnimation.interpolation, v, choices);
    };
    return k;
}

// What a key is beyond its value, said where the key is made.
// May vary over time through [[SECTION.key]] tables (Scene::atFrame applies them).
inline KeySpec animated(KeySpec k) {
    k.animatable = true;
    return k;
}
// A frame size: even, for yuv420p.
inline KeySpec even(KeySpec k) {
    k.even = true;
    return k;
}
// A world position or height, which domain.origin moves (scene/placement.h).
inline KeySpec placedAt(KeySpec k, Placement placement) {
    k.placement = placement;
    return k;
}
// Not read (written as a comment) for the scenes and elements `unused` names.
inline KeySpec unusedWhen(KeySpec k, bool (*unused)(const Scene&, std::size_t)) {
    k.unused = unused;
    return k;
}
// The field of view is fov or a lens: the one not taken is not written.
inline bool byLens(const Scene& s, std::size_t) { return s.camera.byLens(); }
inline bool byFov(const Scene& s, std::size_t) { return !s.camera.byLens(); }
// ortho_width is an orthographic camera's alone.
inline bool perspective(const Scene& s, std::size_t) { return !s.camera.orthographic(); }
inline bool pointsEmitter(const Scene& s, std::size_t i) { return s.emitters.at(i).shape == Shape::Points; }

}  // namespace plume::binding
