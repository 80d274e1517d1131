#include "scene/scene.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume {

float DomainSettings::dx() const {
    float longest = std::max({size.x, size.y, size.z});
    return longest / static_cast<float>(resolution);
}

Vec3i DomainSettings::cells() const {
    float h = dx();
    auto count = [&](float extent) {
        return std::max(1, static_cast<int>(std::lround(extent / h)));
    };
    return {count(size.x), count(size.y), count(size.z)};
}

bool RenderSettings::wantsPass(std::string_view pass) const {
    for (const std::string& p : passes)
        if (p == pass || p == "all") return true;
    return false;
}

bool CameraSettings::byLens() const {
    if (focalLength > 0.0f) return true;
    for (const KeyTrack& track : animation.tracks)
        if (track.key == "focal_length") return true;
    return false;
}

float CameraSettings::halfHeight(float aspect) const {
    constexpr float kDegrees = std::numbers::pi_v<float> / 180.0f;
    if (focalLength <= 0.0f) return std::tan(0.5f * fov * kDegrees);
    // Blender's sensor fit Auto: the sensor's width spans the larger side.
    const float halfSensor = 0.5f * sensorWidth / focalLength;
    return aspect >= 1.0f ? halfSensor / aspect : halfSensor;
}

namespace {

template <typename Elements>
bool anyKeyed(const Elements& elements) {
    return std::any_of(elements.begin(), elements.end(), [](const auto& e) { return e.keyed(); });
}

}  // namespace

bool Scene::animated() const {
    return anyKeyed(emitters) || anyKeyed(obstacles) || anyKeyed(lights) || camera.keyed() ||
           forcesMove();
}

bool Scene::forcesMove() const {
    const bool windKeyed =
        std::any_of(physicsAnimation.tracks.begin(), physicsAnimation.tracks.end(),
                    [](const KeyTrack& t) { return t.key == "wind"; });
    return windKeyed || anyKeyed(fields);
}

bool Scene::obstaclesMove() const { return anyKeyed(obstacles); }

bool Scene::shownSolidsMove() const {
    return std::any_of(obstacles.begin(), obstacles.end(),
                       [](const ObstacleSettings& o) { return o.visible && o.keyed(); });
}

bool Scene::viewMoves() const { return shownSolidsMove() || anyKeyed(lights) || camera.keyed(); }

bool EmitterSettings::givesFuel() const {
    if (fuel > 0.0f) return true;
    for (const KeyTrack& track : animation.tracks)
        if (track.key == "fuel")
            for (const Key<float>& k : track.real)
                if (k.value > 0.0f) return true;
    return false;
}

bool Scene::burns() const {
    return std::any_of(emitters.begin(), emitters.end(),
                       [](const EmitterSettings& e) { return e.givesFuel(); });
}

bool Scene::colored() const {
    return std::any_of(emitters.begin(), emitters.end(),
                       [](const EmitterSettings& e) { return e.colored; });
}

bool Scene::hasSparks() const {
    if (sparks.rate > 0.0f && burns()) return true;
    return std::any_of(emitters.begin(), emitters.end(),
                       [](const EmitterSettings& e) { return e.sparks > 0.0f; });
}

bool Scene::smokeOnlyFromFire() const {
    if (sootOnly) return true;
    if (!burns()) return false;
    for (const EmitterSettings& e : emitters) {
        if (e.density > 0.0f) return false;
        for (const KeyTrack& track : e.animation.tracks)
            if (track.key == "density")
                for (const Key<float>& k : track.real)
                    if (k.value > 0.0f) return false;
    }
    return true;
}

}  // namespace plume
