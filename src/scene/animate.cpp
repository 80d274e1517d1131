// Scene::atFrame and poseAt: every animated key of a scene set to its value at a frame,
// through the schema's setters, so any key the loader admits as animatable
// animates without code of its own here.
#include <string_view>

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
    return s;
}

void Scene::poseAt(double frame, Scene& s) const {
    for (std::size_t i = 0; i < emitters.size(); ++i)
        applyAnimation(s, "emitter", i, emitters[i].animation, frame);
    for (std::size_t i = 0; i < obstacles.size(); ++i)
        applyAnimation(s, "obstacle", i, obstacles[i].animation, frame);
    for (std::size_t i = 0; i < lights.size(); ++i)
        applyAnimation(s, "light", i, lights[i].animation, frame);
    applyAnimation(s, "camera", 0, camera.animation, frame);
    applyAnimation(s, "physics", 0, physicsAnimation, frame);
}

}  // namespace plume
