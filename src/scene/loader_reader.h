// The scene loader's reader of a parsed TOML tree, shared by the loader's
// files: loader.cpp (the walk over sections, the first error), loader_tables
// (tables and unknown keys), loader_values (one value against its KeySpec),
// loader_keys ([[SECTION.key]] animation), loader_shapes (emitters' and
// obstacles' files, emitters against the domain), loader_camera_lights (checks across keys, the
// default light), loader_fields (fields' checks across keys). Private to those files; includes toml++.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scene/scene.h"
#include "scene/schema.h"

namespace plume::loader {

// "a table", "an integer", ...: what a node is, for messages (loader_values.cpp).
std::string typeName(const toml::node& node);

// The default light when a scene has none (loader_camera_lights.cpp).
LightSettings defaultKeyLight();

// Sections whose tables may hold [[SECTION.key]] keyframes (loader_tables.cpp).
bool hasAnimatableKeys(std::string_view section);

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

    // loader_tables.cpp
    std::size_t sourceIndex(const toml::source_region& where) const;
    void fail(const toml::source_region& where, const std::string& message);
    void checkTopLevel(const toml::table& root);
    void checkUnknownKeys(const toml::table& table, std::string_view section,
                          const std::string& relPrefix, const std::string& display);
    void readTable(Scene& scene, const toml::table& table, const SectionSpec& section,
                   std::size_t index, const std::string& display);
    // loader_values.cpp
    std::optional<SchemaValue> convert(const KeySpec& spec, const toml::node& node,
                                       const std::string& name);
    std::optional<double> number(const toml::node& node, const std::string& name,
                                 const std::string& what);
    // "'NAME' must be WHAT, got GOT" at `at`; GOT, unless given, what `at` is.
    void mustBe(const toml::node& at, const std::string& name, const std::string& what,
                const std::string& got = {});
    // Fails with "SHOWN = V is out of range ..." where V is outside spec.range.
    bool inRange(const KeySpec& spec, const toml::node& at, const std::string& shown, double v);
    std::optional<double> rangedNumber(const KeySpec& spec, const toml::node& node,
                                       const std::string& name);
    std::optional<SchemaValue> convertInteger(const KeySpec& spec, const toml::node& node,
                                              const std::string& name);
    std::optional<SchemaValue> convertTriple(const KeySpec& spec, const toml::node& node,
                                             const std::string& name);
    bool readElements(const KeySpec& spec, const toml::array& array, const std::string& name,
                      const std::string& what, bool isVec, double (&v)[3]);
    std::optional<std::string> convertChoice(const KeySpec& spec, const toml::node& at,
                                             const std::string& name, const std::string& what);
    std::optional<SchemaValue> convertChoiceList(const KeySpec& spec, const toml::node& node,
                                                 const std::string& name);
    std::optional<SchemaValue> convertPoints(const KeySpec& spec, const toml::node& node,
                                             const std::string& name);
    // loader_keys.cpp
    void readKeys(const toml::table& table, const SectionSpec& section, const std::string& display,
                  Animation& animation);
    void readKey(const toml::table& key, const SectionSpec& section, const std::string& display,
                 double frame, Animation& animation);
    std::optional<double> keyFrame(const toml::table& key, const std::string& display,
                                   std::optional<double> previous);
    // loader_camera_lights.cpp
    void checkCrossFields(const Scene& scene, const toml::table& root);
    // loader_fields.cpp: what a field's keys must agree on
    void checkFields(const Scene& scene, const toml::table& root);
    // loader_shapes.cpp
    void placeFile(ShapeSettings& shape, const std::string& display, const toml::node& element);
    // [environment]'s file, resolved beside the scene file; required once
    // the table is there.
    void placeEnvironment(EnvironmentSettings& environment, const toml::node& table);
    void refusePlacement(const std::string& display);
    void checkEmittersInDomain(const Scene& scene, const toml::table& root);

    std::string path_;
    const std::vector<std::string>& overrides_;
    std::vector<Diagnostic> errors_;
    std::map<std::string, toml::source_region> given_;  // display name -> where it was set
    // The same for keyframes' values ("camera.key[2].fov"), for checks across keys.
    std::map<std::string, toml::source_region> keyGiven_;
};

}  // namespace plume::loader
