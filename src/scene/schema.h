// The scene-file schema: every key with its type, default, range and meaning,
// kept in one table that the loader, `plume check` and the reference all read.
// Defaults are not repeated here: they come from the Scene initializers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/vec.h"
#include "scene/scene.h"

namespace plume {

// What a key holds in the file.
enum class ValueKind {
    Integer,     // TOML integer
    Real,        // TOML float or integer
    Vec3,        // array of 3 numbers
    Scale,       // a number (every axis) or an array of 3 numbers
    FrameRange,  // array of 2 integers [first, last]
    Text,        // any string
    Bool,        // true or false
    Choice,      // one of KeySpec::choices
    ChoiceList,  // an array of KeySpec::choices (or one of them as a string)
    Points,      // an array of [x, y, z] arrays
};

// A key's value between the file and the Scene: Integer -> int64_t, Real -> double,
// Vec3 and Scale -> Vec3f, FrameRange -> array<int, 2>, Text and Choice -> string,
// Bool -> bool, ChoiceList -> vector<string>, Points -> vector<Vec3f>.
using SchemaValue = std::variant<std::int64_t, double, Vec3f, std::array<int, 2>, std::string, bool,
                                 std::vector<std::string>, std::vector<Vec3f>>;

// Closed or open interval, applied to each element of arrays.
struct ValueRange {
    double lo = -std::numeric_limits<double>::infinity();
    double hi = std::numeric_limits<double>::infinity();
    bool loOpen = false;
    bool hiOpen = false;

    bool contains(double v) const;
    std::string str() const;  // "[8, 1024]", "(0, inf)"
};

// Sections of a scene file; the array ones are written [[name]].
struct SectionSpec {
    std::string_view name;
    bool isArray = false;
    std::string_view doc;
};

// What a key's value means in the world, for moving a scene between the
// file's world and the domain's own frame (scene/placement.h): a position,
// or a height (z). FrameRange keys hold frame numbers.
enum class Placement { None, Point, Height };

struct KeySpec {
    std::string_view section;  // "domain", "emitter", ...
    std::string_view key;      // relative to the section; may be dotted ("boundary.x_min")
    ValueKind kind = ValueKind::Real;
    std::string_view doc;
    ValueRange range;                       // Integer, Real, Vec3, Scale and FrameRange elements
    std::vector<std::string_view> choices;  // Choice, ChoiceList
    bool singlePrecision = true;            // Real stored as float: print it as one
    bool even = false;                      // Integer that must be even (frame sizes)
    // An input-only shorthand that sets other keys ("render.background"):
    // describeScene skips it, and the keys it sets are applied after it.
    bool alias = false;
    // May vary over time through [[SECTION.key]] tables (Real, Vec3 or Scale keys).
    bool animatable = false;
    Placement placement = Placement::None;
    // For one of two ways to give a value (camera.fov or camera.focal_length):
    // true when the scene gives it the other way, so describeScene writes this
    // key as a comment and the description reads back without a clash.
    std::function<bool(const Scene&, std::size_t index)> unused;
    // Index selects the element for array sections and is ignored otherwise.
    std::function<SchemaValue(const Scene&, std::size_t index)> get;  // empty for aliases
    std::function<void(Scene&, std::size_t index, const SchemaValue&)> set;

    std::string dotted() const;  // "domain.resolution"
};

const std::vector<SectionSpec>& sceneSections();
// In section order; within a section, aliases come before the keys they set.
const std::vector<KeySpec>& sceneKeys();

const SectionSpec* findSection(std::string_view name);
const KeySpec* findKey(std::string_view section, std::string_view key);

// Adds a default-constructed element to an array section (emitter, obstacle, field, light).
void appendElement(Scene& scene, std::string_view section);
std::size_t elementCount(const Scene& scene, std::string_view section);
// The keyframes of element `index` of an array section, or of the camera or physics.
Animation& animationOf(Scene& scene, std::string_view section, std::size_t index);
const Animation& animationOf(const Scene& scene, std::string_view section, std::size_t index);

// Shortest text that reads back as the same value ("0.3", "1e-04", "48").
std::string formatNumber(double v);
std::string formatFloat(float v);
// As TOML: "0.3" prints as 0.3, integral floats keep a ".0", strings are quoted.
std::string formatTomlValue(const KeySpec& spec, const SchemaValue& value);

// Every section and key as one JSON document (`plume check --reference
// --reference-format json`): type, default, range, choices, animatable and
// meaning, for tools that build their own UI from the schema (the Blender add-on).
std::string sceneReferenceJson();

// Levenshtein distance, for "did you mean".
std::size_t editDistance(std::string_view a, std::string_view b);
// The candidate nearest to name when it is close enough to be a plausible typo; else "".
std::string_view nearestName(std::string_view name,
                             const std::vector<std::string_view>& candidates);

// For an unknown top-level name: the nearest section, else (when it is not a
// table) the key whose last part is nearest ("resolution" -> "domain.resolution").
std::string suggestTopLevel(std::string_view name, bool isTable);
// For an unknown key of a section: the nearest valid key, relative to the section.
std::string suggestKey(std::string_view section, std::string_view key);
// " (did you mean 'PREFIX.SUGGESTION'?)", or "" without a suggestion.
std::string didYouMean(std::string_view prefix, std::string_view suggestion);

}  // namespace plume
