// Scene::atFrame and poseAt: every animated key of a scene set to its value at a frame,
// through the schema's setters, so any key the loader admits as animatable
// animates without code of its own here; and poseSurfacesAt: a mesh
// sequence's shape at a frame, from the sequence io made (core/shape_sequence.h).
#include <string_view>

#include "core/shape_sequence.h"
#include "scene/scene.h"
#include "scene/schema.h"

namespace plume {

namespace {

void applyAnimation(Scene& s, std::string_view section, std::size_t index, const Animation& a,
                    double frame) {
    for (const KeyTrack& track : a.tracks) {
        const KeySpec* spec = findKey(section, track.key);
        if (!spec || !spec->set) continue;  // the loader admits only animatable schema keys
        if (spec->kind == ValueKind::Vec3 || spec->kind == ValueKind::Scale)
            spec->set(s, index, evaluateKeys(track.vec, frame, a.interpolation, Vec3f{}));
        else
            spec->set(s, index, double(evaluateKeys(track.real, frame, a.interpolation, 0.0f)));
    }
}

}  // namespace

Scene Scene::atFrame(double frame) const {
    Scene s = *this;
    poseAt(frame, s);
    poseSurfacesAt(frame, s, true);
    return s;
}

void Scene::poseSurfacesAt(double frame, Scene& s, bool surfaces, double perShotSecond) const {
    auto pose = [&](const ShapeSettings& from, ShapeSettings& to) {
        if (!from.sequence) return;
        SolidPose solid = from.sequence->solidAt(frame);
        to.levelSet = std::move(solid.levelSet);
        to.surfaceVelocity = std::move(solid.velocity);
        if (to.surfaceVelocity && perShotSecond != 1.0) {  // slow motion: per simulated second
            auto scaled = std::make_shared<SurfaceVelocity>(*to.surfaceVelocity);
            for (Vec3f& v : scaled->velocity.values()) v = v * float(perShotSecond);
            to.surfaceVelocity = std::move(scaled);
        }
        if (surfaces) to.surface = from.sequence->surfaceAt(frame);
    };
    for (std::size_t i = 0; i < emitters.size(); ++i) pose(emitters[i], s.emitters[i]);
    for (std::size_t i = 0; i < obstacles.size(); ++i) pose(obstacles[i], s.obstacles[i]);
}

void Scene::poseAt(double frame, Scene& s) const {
    for (std::size_t i = 0; i < emitters.size(); ++i)
        applyAnimation(s, "emitter", i, emitters[i].animation, frame);
    for (std::size_t i = 0; i < obstacles.size(); ++i)
        applyAnimation(s, "obstacle", i, obstacles[i].animation, frame);
    for (std::size_t i = 0; i < lights.size(); ++i)
        applyAnimation(s, "light", i, lights[i].animation, frame);
    for (std::size_t i = 0; i < fields.size(); ++i)
        applyAnimation(s, "field", i, fields[i].animation, frame);
    applyAnimation(s, "camera", 0, camera.animation, frame);
    applyAnimation(s, "physics", 0, physicsAnimation, frame);
}

}  // namespace plume
