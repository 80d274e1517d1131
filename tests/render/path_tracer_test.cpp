// The path tracer (render/path/path_tracer.h) against what is known exactly:
// a white furnace (a medium that only scatters, under a sky of radiance 1,
// looks like the sky whatever its density), Beer-Lambert through an
// absorbing slab, single scattering of a sun in a thin medium, and the same
// frame for any thread count.
#include "render/path/path_tracer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/parallel.h"
#include "render/light/in_scattering.h"
#include "render/path/medium.h"

namespace plume {
namespace {

constexpr int kN = 16;

struct Box {
    ScalarGrid density{kN, kN, kN};
    VolumeView volume;
    RenderSettings settings;
    WorkingSpace space;
    Medium medium;
    explicit Box(float rho, float albedo = 1.0f) {
        density.values().assign(density.values().size(), rho);
        volume.density = &density;
        volume.dx = 1.0f / kN;  // a unit cube at the origin
        settings.extinction = 4.0f;
        medium.build(volume, nullptr, settings, Vec3f(albedo), MediumFilter::Linear, space);
    }
};

CameraSettings lookingAtBox(float fov = 20.0f) {
    CameraSettings c;
    c.position = {0.5f, -3.0f, 0.5f};
    c.lookAt = {0.5f, 0.5f, 0.5f};
    c.up = {0, 0, 1};
    c.fov = fov;
    c.given = true;
    return c;
}

LinearImage trace(const Box& box, const Environment& env, std::span<const LightSettings> suns,
                  int samples, float phase = 0.0f, int w = 8, int h = 8, float fov = 20.0f) {
    const Camera camera(lookingAtBox(fov), w, h);
    const PathScene scene{.camera = &camera,
                          .medium = &box.medium,
                          .origin = Vec3f(0.0f),
                          .directional = suns,
                          .point = {},
                          .environment = &env,
                          .solids = nullptr,
                          .phase = phase,
                          .samples = samples,
                          .frame = 1};
    LinearImage image(w, h);
    tracePaths(scene, image);
    return image;
}

// The furnace: rgb plus the sky through the transmittance is the sky's 1
// at every pixel, for thin and thick, isotropic and forward-scattering media.
TEST(PathTracer, WhiteFurnaceLooksLikeTheSky) {
    const Environment sky(Vec3f(1.0f));
    for (float rho : {0.5f, 4.0f}) {
        for (float g : {0.0f, 0.6f}) {
            Box box(rho);
            const LinearImage image = trace(box, sky, {}, 256, g);
            double sum = 0.0;
            for (size_t i = 0; i < image.transmittance.size(); ++i)
                sum += image.rgb[i * 3 + 1] + image.transmittance[i];
            EXPECT_NEAR(sum / double(image.transmittance.size()), 1.0, 0.02)
                << "density " << rho << ", g " << g;
        }
    }
}

// Straight through the middle of the cube, the background shows by
// exp(-sigma L), and a black medium sends nothing.
TEST(PathTracer, TransmittanceIsBeerLambert) {
    Box box(0.5f, 0.0f);
    const Environment sky(Vec3f(1.0f));
    const LinearImage image = trace(box, sky, {}, 64, 0.0f, 1, 1, 0.5f);
    EXPECT_NEAR(image.transmittance[0], std::exp(-0.5f * 4.0f * 1.0f), 0.01f);
    EXPECT_NEAR(image.rgb[1], 0.0f, 1e-6f);
}

// A thin medium in a sun: what comes back is single scattering, sigma_s
// phase E over the path, within the few per cent the second bounce adds.
TEST(PathTracer, ThinMediumScattersTheSunOnce) {
    Box box(0.01f);
    const Environment dark(Vec3f(0.0f));
    LightSettings sun;
    sun.direction = normalize(Vec3f(1.0f, 0.0f, 0.0f));  // across the view
    sun.color = Vec3f(1.0f);
    sun.intensity = 1.0f;
    const LightSettings suns[] = {sun};
    const LinearImage image = trace(box, dark, suns, 4096, 0.0f, 1, 1, 0.5f);
    const float sigma = 0.01f * 4.0f;  // per metre, over a path of 1 m
    const float expected = sigma * 1.0f / (4.0f * std::numbers::pi_v<float>);
    EXPECT_NEAR(image.rgb[1] / expected, 1.0f, 0.05f);
}

// Paths are hashed from pixel, sample and frame: any thread count, the same bits.
TEST(PathTracer, SameFrameForAnyThreadCount) {
    Box box(2.0f, 0.9f);
    const Environment sky(Vec3f(0.3f, 0.4f, 0.5f));
    LightSettings sun;
    sun.direction = normalize(Vec3f(-0.4f, 0.5f, -0.75f));
    const LightSettings suns[] = {sun};
    const int before = threadCount();
    setThreadCount(1);
    const LinearImage one = trace(box, sky, suns, 8, 0.3f, 16, 16);
    setThreadCount(4);
    const LinearImage two = trace(box, sky, suns, 8, 0.3f, 16, 16);
    setThreadCount(before);
    EXPECT_EQ(one.rgb, two.rgb);
    EXPECT_EQ(one.transmittance, two.transmittance);
}

}  // namespace
}  // namespace plume
