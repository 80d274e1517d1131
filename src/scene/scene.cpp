#include "scene/scene.h"

#include <algorithm>
#include <cmath>

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

bool Scene::animated() const {
    auto any = [](const auto& elements) {
        return std::any_of(elements.begin(), elements.end(),
                           [](const auto& e) { return !e.animation.empty(); });
    };
    return any(emitters) || any(obstacles) || any(lights) || !camera.animation.empty();
}

bool Scene::burns() const {
    for (const EmitterSettings& e : emitters) {
        if (e.fuel > 0.0f) return true;
        for (const KeyTrack& track : e.animation.tracks)
            if (track.key == "fuel")
                for (const Key<float>& k : track.real)
                    if (k.value > 0.0f) return true;
    }
    return false;
}

bool Scene::smokeOnlyFromFire() const {
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
