// The scene loader's camera and lights: the checks that span several keys (a
// view direction, an up off the view, a directional light's direction, a
// flipbook's sheet), and
// the light a scene without one gets.
#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "scene/loader_reader.h"
#include "scene/slice_spec.h"

namespace plume::loader {

// The default light when a scene has none: a warm key light from the upper
// left front, so smoke reads as a volume rather than a flat silhouette.
LightSettings defaultKeyLight() {
    LightSettings light;
    light.type = LightType::Directional;
    light.direction = {-0.4f, 0.5f, -0.75f};
    light.color = {1.0f, 0.95f, 0.88f};
    light.intensity = 3.0f;
    return light;
}

void SceneReader::checkCrossFields(const Scene& scene, const toml::table& root) {
    // A clash of several keys is reported at the one set last (a --set, or
    // the latest line), the one the user most likely just changed.
    auto whereGiven = [&](std::initializer_list<std::string> names, const toml::node* fallback) {
        std::optional<toml::source_region> latest;
        auto order = [&](const toml::source_region& r) {
            return std::tuple(sourceIndex(r), r.begin.line, r.begin.column);
        };
        for (const std::string& n : names)
            if (auto it = given_.find(n); it != given_.end())
                if (!latest || order(it->second) > order(*latest)) latest = it->second;
        if (latest) return *latest;
        return fallback ? fallback->source() : toml::source_region{};
    };

    // Camera: a view direction, and an up that is not along it
    if (scene.camera.given) {
        const CameraSettings& c = scene.camera;
        const toml::node* section = root.get("camera");
        Vec3f view = c.lookAt - c.position;
        if (length(view) == 0.0f) {
            fail(whereGiven({"camera.look_at", "camera.position"}, section),
                 "'camera.look_at' must differ from 'camera.position'");
        } else if (length(cross(normalize(view), normalize(c.up))) < 1e-4f) {
            fail(whereGiven({"camera.up", "camera.look_at", "camera.position"}, section),
                 "'camera.up' must not be parallel to the view direction (look_at - position)");
        }
    }

    // The field of view: as fov or as a lens, not both (in the table or its keys)
    if (scene.camera.given) {
        auto setAt = [&](const std::string& key) {
            std::vector<std::pair<std::string, toml::source_region>> at;
            if (auto it = given_.find("camera." + key); it != given_.end()) at.push_back(*it);
            for (const auto& [name, where] : keyGiven_)
                if (name.starts_with("camera.key[") && name.ends_with("]." + key))
                    at.push_back({name, where});
            return at;
        };
        const auto fov = setAt("fov"), lens = setAt("focal_length");
        if (!fov.empty() && !lens.empty()) {
            auto order = [&](const toml::source_region& r) {
                return std::tuple(sourceIndex(r), r.begin.line, r.begin.column);
            };
            // Reported at the later of the two, naming the earlier.
            const auto& f = fov.front();
            const auto& l = lens.front();
            const bool lensLater = order(l.second) > order(f.second);
            const auto& later = lensLater ? l : f;
            const auto& earlier = lensLater ? f : l;
            fail(later.second, "'" + later.first + "' and '" + earlier.first +
                                   "' both set the field of view: give fov or focal_length, "
                                   "not both");
        }
    }

    // A flipbook's cells: what is made so far, frames that fit, a frame
    // inside its padding, and the sheet's sides powers of two unless freed
    {
        const FlipbookSettings& f = scene.flipbook;
        const toml::node* section = root.get("flipbook");
        auto at = [&](std::initializer_list<std::string> names) {
            return whereGiven(names, section);
        };
        auto powerOfTwo = [](int n) { return n > 0 && (n & (n - 1)) == 0; };
        // The lightmaps and the motion are renders of the shaded smoke.
        if ((f.kind == FlipbookKind::SixWay || f.motion) && scene.render.view != RenderView::Shaded)
            fail(whereGiven({"render.view"}, root.get("render")),
                 std::string("'render.view': ") +
                     (f.motion ? "flipbook.motion" : "flipbook.kind = \"six_way\"") +
                     " renders the shaded smoke: it needs render.view = \"shaded\"");
        if (f.frames > f.columns * f.rows)
            fail(at({"flipbook.frames", "flipbook.columns", "flipbook.rows"}),
                 "'flipbook.frames' = " + std::to_string(f.frames) + ": more than the sheet's " +
                     std::to_string(f.columns) + " x " + std::to_string(f.rows) + " cells");
        if (f.imageSize() < 16)
            fail(at({"flipbook.padding", "flipbook.frame_size"}),
                 "'flipbook.padding' = " + std::to_string(f.padding) + ": leaves a frame of " +
                     std::to_string(f.imageSize()) + " px in a " + std::to_string(f.frameSize) +
                     " px cell; a frame is 16 px or more");
        if (f.powerOfTwo && (!powerOfTwo(f.sheetWidth()) || !powerOfTwo(f.sheetHeight())))
            fail(at({"flipbook.columns", "flipbook.rows", "flipbook.frame_size",
                     "flipbook.power_of_two"}),
                 "the flipbook's sheet is " + std::to_string(f.sheetWidth()) + " x " +
                     std::to_string(f.sheetHeight()) +
                     " px, not powers of two: give columns, rows and frame_size that make "
                     "them so, or flipbook.power_of_two = false");
    }

    // A loop: a blend the shot has the frames for, of the shaded smoke
    if (scene.loop.on()) {
        const LoopSettings& l = scene.loop;
        const toml::node* section = root.get("loop");
        auto at = [&](std::initializer_list<std::string> names) {
            return whereGiven(names, section);
        };
        if (l.mode == LoopMode::Periodic)
            fail(at({"loop.mode"}),
                 "'loop.mode' = \"periodic\": not yet; \"blend\" makes the loop");
        else if (l.overlap > l.frames)
            fail(at({"loop.overlap", "loop.frames"}),
                 "'loop.overlap' = " + std::to_string(l.overlap) + ": more than the loop's " +
                     std::to_string(l.frames) + " frames (loop.frames)");
        else if (l.frames + l.overlap > scene.time.frames)
            fail(at({"loop.frames", "loop.overlap"}),
                 "'loop.frames' = " + std::to_string(l.frames) + ": the loop and its overlap (" +
                     std::to_string(l.overlap) + ") take " +
                     std::to_string(l.frames + l.overlap) + " frames, and the shot has " +
                     std::to_string(scene.time.frames) +
                     " (time.frames or time.duration): shorten the loop or lengthen the shot");
        else if (scene.render.view != RenderView::Shaded)
            fail(whereGiven({"render.view"}, root.get("render")),
                 "'render.view': a loop blends the shaded smoke's frames: it needs render.view "
                 "= \"shaded\"");
    }

    // A slice view's plane: an axis and metres (where it lies against the
    // volume is the renderer's check: render-vdb's cache may lie anywhere)
    if (!scene.render.slice.empty()) {
        std::string why;
        const std::optional<SliceSpec> slice = parseSlice(scene.render.slice, &why);
        const auto where = whereGiven({"render.slice"}, root.get("render"));
        const std::string shown = "'render.slice' = \"" + scene.render.slice + "\": ";
        if (!slice) {
            fail(where, shown + why);
        } else if (path_ != "<defaults>") {  // render-vdb without a scene has no domain
            const float lo = scene.domain.origin[slice->axis];
            const float hi = lo + scene.domain.size[slice->axis];
            if (slice->position < lo || slice->position > hi)
                fail(where, shown + "the plane lies outside the domain, which spans " +
                                std::string(1, char('x' + slice->axis)) + " = " + formatFloat(lo) +
                                " to " + formatFloat(hi) + " m");
        }
    }

    // A flame view needs a fire (render-vdb's cache may hold one: checked there)
    if (scene.render.view == RenderView::Flame && !scene.burns() && path_ != "<defaults>")
        fail(whereGiven({"render.view"}, root.get("render")),
             "'render.view' = \"flame\": the scene burns nothing (no emitter gives fuel)");

    // A light's name is its layer's in the EXR's passes: a name compositors
    // take (Nuke's layers are letters, digits and _), none taken twice
    for (std::size_t i = 0; i < scene.lights.size(); ++i) {
        const std::string& name = scene.lights[i].name;
        if (name.empty()) continue;
        const std::string key = "light[" + std::to_string(i + 1) + "].name";
        const toml::array* lights = root.get("light") ? root.get("light")->as_array() : nullptr;
        const auto where = whereGiven({key}, lights ? lights->get(i) : nullptr);
        const std::string shown = "'" + key + "' = \"" + name + "\": ";
        const bool word =
            std::all_of(
                name.begin(), name.end(),
                [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }) &&
            !std::isdigit(static_cast<unsigned char>(name[0]));
        if (!word) {
            fail(where,
                 shown + "a layer name must be letters, digits and _, not starting with a digit");
            continue;
        }
        for (const char* pass : {"emission", "sky", "fire_light", "depth", "motion"})
            if (name == pass)
                fail(where, shown + "that is the name of the " + pass + " pass's layer");
        for (std::size_t j = 0; j < scene.lights.size(); ++j) {
            if (j == i) continue;
            const std::string other = scene.lights[j].name.empty()
                                          ? "light_" + std::to_string(j + 1)
                                          : scene.lights[j].name;
            if (other == name && (j < i || scene.lights[j].name.empty())) {
                fail(where, shown + "light " + std::to_string(j + 1) + "'s layer is named so too");
                break;
            }
        }
    }

    // Passes are layers of the shaded frame
    if (!scene.render.passes.empty() && scene.render.view != RenderView::Shaded)
        fail(whereGiven({"render.passes", "render.view"}, root.get("render")),
             "'render.passes' are layers of the shaded frame: they need render.view = \"shaded\"");

    // Directional lights need a direction
    for (std::size_t i = 0; i < scene.lights.size(); ++i) {
        const LightSettings& light = scene.lights[i];
        std::string name = "light[" + std::to_string(i + 1) + "].direction";
        if (light.type == LightType::Directional && length(light.direction) == 0.0f) {
            const toml::array* lights = root.get("light") ? root.get("light")->as_array() : nullptr;
            fail(whereGiven({name}, lights ? lights->get(i) : nullptr),
                 "'" + name + "' must not be zero for a directional light");
        }
    }
}

}  // namespace plume::loader
