// The scene loader's tables: where a node came from (the file or a --set),
// unknown keys and sections with suggestions, and a table's keys read through
// the schema.
#include <algorithm>

#include "scene/loader_reader.h"
#include "scene/overrides.h"

namespace plume::loader {

// Sections whose tables may hold [[SECTION.key]] keyframes.
bool hasAnimatableKeys(std::string_view section) {
    return std::any_of(sceneKeys().begin(), sceneKeys().end(),
                       [&](const KeySpec& k) { return k.section == section && k.animatable; });
}

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

}  // namespace plume::loader
