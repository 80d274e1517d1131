#include "render/output/six_way.h"

#include <numbers>

#include "render/camera.h"

namespace plume {

namespace {

// No light from around the scene: no sky, no visible background, no map.
Scene darkScene(const Scene& scene) {
    Scene dark = scene;
    dark.lights.clear();
    dark.render.ambient = Vec3f(0.0f);
    dark.render.backgroundTop = dark.render.backgroundBottom = Vec3f(0.0f);
    dark.environment = EnvironmentSettings{};
    dark.ground.enabled = false;
    dark.render.passes.clear();
    dark.render.transparent = true;
    dark.render.exposure = 1.0f;
    return dark;
}

void noEmission(Scene& scene) {
    scene.render.emission = 0.0f;
    scene.render.heatGlow = 0.0f;
    scene.render.fireLight = 0.0f;
}

}  // namespace

CameraAxes cameraAxesOf(const Scene& scene) {
    const CameraSettings settings =
        scene.camera.given
            ? scene.camera
            : frameBox(scene.domain.origin, scene.domain.origin + scene.domain.size, 1.0f);
    const Camera camera(settings, scene.render.width, scene.render.height);
    return CameraAxes{camera.right(), camera.up(), camera.forward() * -1.0f};
}

Vec3f sixWayDirection(SixWayLight light, const CameraAxes& axes) {
    switch (light) {
        case SixWayLight::Right:
            return axes.right * -1.0f;  // from the right, travelling left
        case SixWayLight::Top:
            return axes.up * -1.0f;
        case SixWayLight::Back:
            return axes.back;  // from behind the smoke toward the camera
        case SixWayLight::Left:
            return axes.right;
        case SixWayLight::Bottom:
            return axes.up;
        case SixWayLight::Front:
            break;
    }
    return axes.back * -1.0f;  // from the camera's side, away from it
}

Scene sixWayScene(const Scene& scene, SixWayLight light, const CameraAxes& axes) {
    Scene lit = darkScene(scene);
    noEmission(lit);
    LightSettings sun;
    sun.type = LightType::Directional;
    sun.direction = sixWayDirection(light, axes);
    sun.color = Vec3f(1.0f);
    // Irradiance pi: a white Lambertian surface facing it has radiance 1.
    sun.intensity = std::numbers::pi_v<float>;
    lit.lights.push_back(sun);
    return lit;
}

Scene emissionScene(const Scene& scene) {
    Scene glow = darkScene(scene);
    glow.render.fireLight = 0.0f;  // no light in, not even the flame's on the smoke
    return glow;
}

Scene motionScene(const Scene& scene) {
    Scene still = darkScene(scene);
    noEmission(still);
    still.render.passes = {"motion"};
    return still;
}

}  // namespace plume
