#include "scene/describe.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/error.h"
#include "scene/placement.h"
#include "scene/schema.h"

namespace plume {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string cellsText(const Scene& scene) {
    Vec3i n = scene.domain.cells();
    return std::to_string(n.x) + "x" + std::to_string(n.y) + "x" + std::to_string(n.z);
}

std::uint64_t cellCount(const Scene& scene) {
    Vec3i n = scene.domain.cells();
    return std::uint64_t(n.x) * std::uint64_t(n.y) * std::uint64_t(n.z);
}

// The keys of one table of a section as "key = value" lines.
void describeKeys(std::string& out, const Scene& scene, const SectionSpec& section,
                  std::size_t index, std::string_view linePrefix) {
    for (const KeySpec& spec : sceneKeys()) {
        if (spec.section != section.name || spec.alias) continue;
        const bool unused = spec.unused && spec.unused(scene, index);
        out += std::string(unused && linePrefix.empty() ? "# " : linePrefix) +
               std::string(spec.key) + " = " + formatTomlValue(spec, spec.get(scene, index)) + "\n";
    }
}

// The frames at which some track of an animation has a point, in order.
std::vector<double> keyFrames(const Animation& animation) {
    std::vector<double> frames;
    for (const KeyTrack& t : animation.tracks) {
        for (const Key<float>& k : t.real) frames.push_back(k.frame);
        for (const Key<Vec3f>& k : t.vec) frames.push_back(k.frame);
    }
    std::sort(frames.begin(), frames.end());
    frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
    return frames;
}

// A track's value at a frame where it has a point, if it has one there.
std::optional<SchemaValue> pointAt(const KeyTrack& track, double frame) {
    for (const Key<float>& k : track.real)
        if (k.frame == frame) return double(k.value);
    for (const Key<Vec3f>& k : track.vec)
        if (k.frame == frame) return k.value;
    return {};
}

// An element's keyframes as [[SECTION.key]] tables, one per frame, so that
// reading them back gives the same tracks.
void describeAnimation(std::string& out, const Animation& animation, std::string_view section) {
    for (double frame : keyFrames(animation)) {
        out += "[[" + std::string(section) + ".key]]\nframe = " + formatNumber(frame) + "\n";
        for (const KeyTrack& track : animation.tracks) {
            const KeySpec* spec = findKey(section, track.key);
            if (std::optional<SchemaValue> value = pointAt(track, frame); spec && value)
                out += track.key + " = " + formatTomlValue(*spec, *value) + "\n";
        }
    }
}

std::string escapePipes(std::string_view text) {
    std::string s;
    for (char c : text) s += c == '|' ? std::string("\\|") : std::string(1, c);
    return s;
}

std::string typeText(const KeySpec& spec) {
    switch (spec.kind) {
        case ValueKind::Integer:
            return "integer";
        case ValueKind::Real:
            return "float";
        case ValueKind::Vec3:
            return "[x, y, z] floats";
        case ValueKind::FrameRange:
            return "[first, last] integers";
        case ValueKind::Scale:
            return "float or [x, y, z] floats";
        case ValueKind::Text:
            return "string";
        case ValueKind::Choice:
            return "string";
        case ValueKind::Bool:
            return "boolean";
        case ValueKind::ChoiceList:
            return "array of strings";
        case ValueKind::Points:
            return "array of [x, y, z] floats";
    }
    return {};
}

std::string rangeText(const KeySpec& spec) {
    switch (spec.kind) {
        case ValueKind::Choice:
        case ValueKind::ChoiceList: {
            std::string s;
            for (std::string_view c : spec.choices)
                s += (s.empty() ? "`\"" : ", `\"") + std::string(c) + "\"`";
            return spec.kind == ValueKind::ChoiceList ? "each of " + s : s;
        }
        case ValueKind::Text:
            return "any";
        case ValueKind::Bool:
            return "`true`, `false`";
        case ValueKind::Vec3:
        case ValueKind::Scale:
        case ValueKind::FrameRange:
        case ValueKind::Points: {
            bool bounded = std::isfinite(spec.range.lo) || std::isfinite(spec.range.hi);
            std::string s = bounded ? "each in " + spec.range.str() : "finite";
            return spec.kind == ValueKind::FrameRange ? s + ", first <= last" : s;
        }
        default: {
            bool bounded = std::isfinite(spec.range.lo) || std::isfinite(spec.range.hi);
            std::string s = bounded ? spec.range.str() : "finite";
            return spec.even ? "even, " + s : s;
        }
    }
}

}  // namespace

std::string formatGiB(std::uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", double(bytes) / kGiB);
    return buf;
}

std::string describeScene(const Scene& domainScene, std::optional<MemoryEstimate> memory) {
    // As the file gives it: world positions, frame numbers (placement.h).
    Scene scene = domainScene;
    toFileFrame(scene);
    std::string out;
    out += "# plume scene '" + scene.name + "', resolved: every key, defaults filled in\n";
    out += "# grid " + cellsText(scene) + " = " + std::to_string(cellCount(scene)) +
           " cells, dx = " + formatFloat(scene.domain.dx()) + " m\n";
    if (memory) {
        auto amount = [](std::uint64_t bytes) {
            return bytes < std::uint64_t(kGiB) ? std::to_string(bytes >> 20) + " MiB"
                                               : formatGiB(bytes) + " GiB";
        };
        // A sparse solve holds boxes around the smoke, which only the smoke
        // decides: they start around the emitters and can grow to the domain.
        out += memory->sparse && memory->start < memory->most
                   ? "# memory estimate: about " + amount(memory->start) +
                         " for bake and render at first (the sparse solve's boxes around the "
                         "emitters), at most about " + amount(memory->most) +
                         " if the smoke fills the domain\n"
                   : "# memory estimate: about " + amount(memory->most) + " for bake and render\n";
    }

    // No lights is said before any table (a key after one would be the
    // table's): without it, reading this back would add the default key light.
    if (scene.lights.empty()) out += "light = []  # no lights, not even the default key light\n";

    for (const SectionSpec& section : sceneSections()) {
        const std::string name(section.name);
        out += "\n";
        if (section.isArray) {
            std::size_t count = elementCount(scene, section.name);
            if (count == 0) out += "# no [[" + name + "]]\n";
            for (std::size_t i = 0; i < count; ++i) {
                out += (i > 0 ? "\n[[" : "[[") + name + "]]\n";
                describeKeys(out, scene, section, i, "");
                describeAnimation(out, animationOf(scene, section.name, i), section.name);
            }
        } else if (section.name == "camera" && !scene.camera.given) {
            // Writing [camera] would turn automatic framing off.
            out += "# [camera] not given: the camera frames the domain automatically\n";
            describeKeys(out, scene, section, 0, "# ");
        } else {
            out += "[" + name + "]\n";
            describeKeys(out, scene, section, 0, "");
            if (section.name == "camera" || section.name == "physics")
                describeAnimation(out, animationOf(scene, section.name, 0), name);
        }
    }
    return out;
}

std::string sceneReference() {
    // Defaults come from a default Scene, with one default element per array.
    Scene defaults;
    for (const SectionSpec& section : sceneSections())
        if (section.isArray) appendElement(defaults, section.name);

    std::string out;
    out +=
        "Every key of a scene file, its type, default, allowed values and meaning. "
        "Unknown keys are errors; any key can be overridden on the command line with "
        "`--set section.key=value` (array elements as `emitter[1].density=2`). "
        "Keys marked animatable may also vary over time in `[[SECTION.key]]` tables "
        "(see Keyframes).\n";
    for (const SectionSpec& section : sceneSections()) {
        const std::string name(section.name);
        out += "\n### " + (section.isArray ? "[[" + name + "]]" : "[" + name + "]") + "\n\n";
        out += escapePipes(section.doc) + ".\n\n";
        out += "| key | type | default | range | meaning |\n|---|---|---|---|---|\n";
        for (const KeySpec& spec : sceneKeys()) {
            if (spec.section != section.name) continue;
            std::string def =
                spec.get ? "`" + formatTomlValue(spec, spec.get(defaults, 0)) + "`" : "none";
            out += "| `" + spec.dotted() + "` | " + typeText(spec) + " | " + def + " | " +
                   escapePipes(rangeText(spec)) + " | " + escapePipes(spec.doc) +
                   (spec.animatable ? " (animatable)" : "") + " |\n";
        }
    }
    return out;
}

}  // namespace plume
