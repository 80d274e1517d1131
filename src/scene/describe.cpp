#include "scene/describe.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.h"
#include "scene/schema.h"

namespace plume {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string gib(std::uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", double(bytes) / kGiB);
    return buf;
}

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
        out += std::string(linePrefix) + std::string(spec.key) + " = " +
               formatTomlValue(spec, spec.get(scene, index)) + "\n";
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
        case ValueKind::Text:
            return "string";
        case ValueKind::Choice:
            return "string";
    }
    return {};
}

std::string rangeText(const KeySpec& spec) {
    switch (spec.kind) {
        case ValueKind::Choice: {
            std::string s;
            for (std::string_view c : spec.choices)
                s += (s.empty() ? "`\"" : ", `\"") + std::string(c) + "\"`";
            return s;
        }
        case ValueKind::Text:
            return "any";
        case ValueKind::Vec3:
        case ValueKind::FrameRange: {
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

// Peak memory of a bake plus render, kept in one place so `plume check` and the
// refusal to start agree. Deliberately generous: running out of memory an hour
// into a bake is worse than a refusal that is a little early.
std::uint64_t estimateMemoryBytes(const Scene& scene) {
    const std::uint64_t cells = cellCount(scene);
    // Solver, in floats per cell: staggered velocity and its advection buffer
    // (2 x 3), density and temperature with their buffers and MacCormack scratch
    // (3 x 2), solid and boundary masks (2), pressure and divergence (2), the
    // Poisson matrix as grids (4), CG vectors r, z, p, Ap (4), the multigrid
    // hierarchy (~1/7 of the fine levels' 4 grids, rounded up with vorticity
    // scratch: 6). About 30.
    constexpr std::uint64_t kSolverFloatsPerCell = 30;
    const std::uint64_t solver = cells * kSolverFloatsPerCell * sizeof(float);
    // Renderer: one float transmittance grid per light, plus a coarse
    // occupancy grid (1/8 of the cells) for empty-space skipping.
    const std::uint64_t lights = std::max<std::size_t>(scene.lights.size(), 1);
    const std::uint64_t transmittance = cells * lights * sizeof(float) + cells / 8 * sizeof(float);
    // Image: RGBA float accumulation.
    const std::uint64_t image = std::uint64_t(scene.render.width) * scene.render.height * 16;
    // Baseline: program, libraries, encoder buffers, thread stacks.
    constexpr std::uint64_t kBaseline = 64ull << 20;
    return solver + transmittance + image + kBaseline;
}

std::uint64_t machineMemoryBytes() {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) return 0;
    return std::uint64_t(pages) * std::uint64_t(pageSize);
}

void checkMemory(const Scene& scene) {
    std::uint64_t need = estimateMemoryBytes(scene), have = machineMemoryBytes();
    if (have == 0 || need <= have) return;  // unknown machine size: let it try
    throw InputError(scene.path + ": error: scene needs about " + gib(need) + " GiB (" +
                     cellsText(scene) + " cells) but this machine has " + gib(have) +
                     " GiB; lower domain.resolution");
}

std::string describeScene(const Scene& scene) {
    std::string out;
    out += "# plume scene '" + scene.name + "', resolved: every key, defaults filled in\n";
    out += "# grid " + cellsText(scene) + " = " + std::to_string(cellCount(scene)) +
           " cells, dx = " + formatFloat(scene.domain.dx()) + " m\n";
    const std::uint64_t bytes = estimateMemoryBytes(scene);
    out +=
        "# memory estimate: about " +
        (bytes < std::uint64_t(kGiB) ? std::to_string(bytes >> 20) + " MiB" : gib(bytes) + " GiB") +
        " for bake and render\n";

    for (const SectionSpec& section : sceneSections()) {
        const std::string name(section.name);
        out += "\n";
        if (section.isArray) {
            std::size_t count = elementCount(scene, section.name);
            if (count == 0) out += "# no [[" + name + "]]\n";
            for (std::size_t i = 0; i < count; ++i) {
                out += (i > 0 ? "\n[[" : "[[") + name + "]]\n";
                describeKeys(out, scene, section, i, "");
            }
        } else if (section.name == "camera" && !scene.camera.given) {
            // Writing [camera] would turn automatic framing off.
            out += "# [camera] not given: the camera frames the domain automatically\n";
            describeKeys(out, scene, section, 0, "# ");
        } else {
            out += "[" + name + "]\n";
            describeKeys(out, scene, section, 0, "");
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
        "`--set section.key=value` (array elements as `emitter[1].density=2`).\n";
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
                   escapePipes(rangeText(spec)) + " | " + escapePipes(spec.doc) + " |\n";
        }
    }
    return out;
}

}  // namespace plume
