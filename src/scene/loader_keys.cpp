// The scene loader's keyframes: [[SECTION.key]] tables, each a frame and the
// animatable keys it sets, added to the element's Animation tracks.
#include <algorithm>

#include "scene/loader_reader.h"

namespace plume::loader {

namespace {

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

}  // namespace

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
            keyGiven_[name] = node.source();
        }
    }
}

}  // namespace plume::loader
