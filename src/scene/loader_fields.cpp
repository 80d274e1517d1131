// The scene loader's force fields: what a [[field]]'s keys must agree on (a
// direction to blow along, an axis to turn about, a falloff whose maximum is
// beyond its minimum, a curve of at least two points, a drag that slows), each at the key's own
// location, or the table's when the key is a default.
#include <string>

#include "scene/loader_reader.h"

namespace plume::loader {

void SceneReader::checkFields(const Scene& scene, const toml::table& root) {
    const toml::array* tables = root.get("field") ? root.get("field")->as_array() : nullptr;
    for (std::size_t i = 0; i < scene.fields.size(); ++i) {
        const FieldSettings& field = scene.fields[i];
        const std::string display = "field[" + std::to_string(i + 1) + "]";
        const toml::node* table = tables ? tables->get(i) : nullptr;
        auto at = [&](const std::string& key) {
            if (auto it = given_.find(display + "." + key); it != given_.end()) return it->second;
            return table ? table->source() : toml::source_region{};
        };
        const bool wind = field.type == FieldType::Wind;
        if (wind && length(field.direction) == 0.0f)
            fail(at("direction"), "'" + display +
                                      ".direction' must not be [0, 0, 0]: a wind "
                                      "blows some way");
        const bool usesAxis =
            field.type == FieldType::Vortex ||
            (!wind && (field.shape == FieldShape::Tube || field.shape == FieldShape::Cone));
        if (usesAxis && length(field.axis) == 0.0f)
            fail(at("axis"), "'" + display + ".axis' must not be [0, 0, 0]");
        if (field.type == FieldType::Drag && field.strength < 0.0f)
            fail(at("strength"), "'" + display + ".strength' = " + formatFloat(field.strength) +
                                     ": a drag's strength must be 0 or more");
        if (field.falloffMax > 0.0f && field.falloffMax <= field.falloffMin)
            fail(at("falloff.max"),
                 "'" + display + ".falloff.max' = " + formatFloat(field.falloffMax) +
                     " must be above falloff.min = " + formatFloat(field.falloffMin) +
                     " (or 0: no limit)");
        if (field.type == FieldType::Curve && field.points.size() < 2)
            fail(at("points"), "'" + display +
                                   ".points' must give at least 2 points for a "
                                   "curve, got " +
                                   std::to_string(field.points.size()));
    }
}

}  // namespace plume::loader
