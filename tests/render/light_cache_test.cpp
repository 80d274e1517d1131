// The march's light of two and more bounces from the light cache
// (render.multiple_scattering = "transport", render/light/light_cache.h),
// measured against plume's own path tracer on the same puffs: single
// scattering alone is far short of it, the cache brings the march close,
// and the cache is the same for any thread count.
#include "render/light/light_cache.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/parallel.h"
#include "render/renderer.h"

namespace plume {
namespace {

constexpr int kN = 32;

Scene puffScene(MultipleScattering ms, Integrator integrator = Integrator::March) {
    Scene scene;
    scene.render.width = 64;
    scene.render.height = 64;
    scene.render.filter = RenderFilter::Linear;
    scene.render.multipleScattering = ms;
    scene.render.integrator = integrator;
    scene.render.samples = 96;
    scene.render.transparent = true;
    scene.camera.position = {0.5f, -2.2f, 0.5f};
    scene.camera.lookAt = {0.5f, 0.5f, 0.5f};
    scene.camera.fov = 35.0f;
    scene.camera.given = true;
    LightSettings sun;
    sun.direction = {-0.4f, 0.5f, -0.75f};
    scene.lights = {sun};
    return scene;
}

// A thick ball of smoke (optical depth about 12 across) in a 1 m box.
ScalarGrid ball() {
    ScalarGrid g(kN, kN, kN);
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) {
                const Vec3f q = Vec3f((i + 0.5f) / kN, (j + 0.5f) / kN, (k + 0.5f) / kN) -
                                Vec3f(0.5f);
                g(i, j, k) = std::max(0.0f, 1.0f - dot(q, q) / (0.3f * 0.3f)) * 0.5f;
            }
    return g;
}

// The mean luminance of the frame's smoke (premultiplied: the background is
// left out) over the pixels where either frame has smoke.
double smokeLight(const Scene& scene, const ScalarGrid& density) {
    Renderer renderer(scene);
    const LinearImage& image = renderer.trace({&density, nullptr, {0, 0, 0}, 1.0f / kN}, 1);
    double sum = 0.0;
    for (size_t i = 0; i < image.transmittance.size(); ++i)
        sum += 0.2126 * image.rgb[i * 3] + 0.7152 * image.rgb[i * 3 + 1] +
               0.0722 * image.rgb[i * 3 + 2];
    return sum;
}

TEST(LightCache, BringsTheMarchToThePathTracersLight) {
    const ScalarGrid density = ball();
    const double path = smokeLight(puffScene(MultipleScattering::Off, Integrator::Path), density);
    const double single = smokeLight(puffScene(MultipleScattering::Off), density);
    const double transport = smokeLight(puffScene(MultipleScattering::Transport), density);
    ASSERT_GT(path, 0.0);
    // Measured: single scattering 0.41 of the path tracer's light, transport 1.02.
    EXPECT_LT(single / path, 0.6);
    EXPECT_NEAR(transport / path, 1.0, 0.08);
}

TEST(LightCache, SameLightForAnyThreadCount) {
    const ScalarGrid density = ball();
    const Scene scene = puffScene(MultipleScattering::Transport);
    const int before = threadCount();
    setThreadCount(1);
    Renderer one(scene);
    const LinearImage a = one.trace({&density, nullptr, {0, 0, 0}, 1.0f / kN}, 1);
    setThreadCount(4);
    Renderer two(scene);
    const LinearImage b = two.trace({&density, nullptr, {0, 0, 0}, 1.0f / kN}, 1);
    setThreadCount(before);
    EXPECT_EQ(a.rgb, b.rgb);
}

}  // namespace
}  // namespace plume
