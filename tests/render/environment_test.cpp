// The environment map (render/light/environment.h): Blender's lat-long
// mapping and its Mapping node's Z rotation, and importance sampling whose
// density integrates to one and draws directions in proportion to the light.
#include "render/light/environment.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

#include "render/path/path_random.h"

namespace plume {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// A 64x32 map, black but for one bright texel at (x, y) (row 0 at the top).
EnvironmentSettings oneTexel(int x, int y, float rotation = 0.0f) {
    auto map = std::make_shared<RadianceMap>();
    map->width = 64;
    map->height = 32;
    map->rgb.assign(size_t(64) * 32 * 3, 0.0f);
    for (int c = 0; c < 3; ++c) map->rgb[(size_t(y) * 64 + x) * 3 + c] = 100.0f;
    EnvironmentSettings s;
    s.file = "test.exr";
    s.rotation = rotation;
    s.map = map;
    return s;
}

// The texel's centre direction: u = (x + 0.5) / w, v = (y + 0.5) / h from the top.
Vec3f texelDirection(int x, int y) {
    const float u = (float(x) + 0.5f) / 64.0f, v = (float(y) + 0.5f) / 32.0f;
    const float phi = (0.5f - u) * 2.0f * kPi, elevation = (0.5f - v) * kPi;
    return {std::cos(elevation) * std::cos(phi), std::cos(elevation) * std::sin(phi),
            std::sin(elevation)};
}

TEST(Environment, MapsAsBlendersEnvironmentTexture) {
    const WorkingSpace space;
    // The image's middle looks along +X, a quarter in along +Y, three
    // quarters along -Y; the top row straight up.
    struct Case { int x, y; Vec3f d; };
    for (const Case c : {Case{32, 16, {1, 0, 0}}, Case{16, 16, {0, 1, 0}}, Case{48, 16, {0, -1, 0}},
                         Case{0, 16, {-1, 0, 0}}}) {
        const Environment env(oneTexel(c.x, c.y), space);
        // Texel x spans [x, x + 1) of 64: its left edge looks along d.
        const Vec3f d = texelDirection(c.x, c.y);
        EXPECT_GT(env.radiance(d).x, 99.0f) << c.x << "," << c.y;
        EXPECT_GT(dot(d, c.d), 0.99f) << c.x << "," << c.y;
    }
    // The top row looks up: its texels' centres are 84 degrees up.
    const Environment top(oneTexel(10, 0), space);
    EXPECT_GT(texelDirection(10, 0).z, 0.99f);
    EXPECT_GT(top.radiance(texelDirection(10, 0)).x, 99.0f);
    EXPECT_EQ(top.radiance({0, 0, -1}).x, 0.0f);
}

TEST(Environment, RotationTurnsTheLookupAboutZ) {
    const WorkingSpace space;
    // Rotated 90 degrees, the texel that looked along +X is seen from -Y:
    // the Mapping node turns the lookup vector, -Y to +X.
    const Environment turned(oneTexel(32, 16, 90.0f), space);
    const Vec3f d = texelDirection(32, 16);  // +X, a little off
    const Vec3f seenFrom{d.y, -d.x, d.z};    // turned by -90 degrees
    EXPECT_GT(turned.radiance(seenFrom).x, 99.0f);
    EXPECT_EQ(turned.radiance(d).x, 0.0f);
}

// The density integrates to one over the sphere, and E[L / pdf] over its
// samples is the integral of the light (4 pi times the mean).
TEST(Environment, SamplingIsInProportionToTheLight) {
    const WorkingSpace space;
    EnvironmentSettings s = oneTexel(20, 10);
    auto map = std::make_shared<RadianceMap>(*s.map);
    for (size_t i = 0; i < map->rgb.size(); ++i) map->rgb[i] += 0.5f;  // and a dim sky
    s.map = map;
    const Environment env(s, space);
    double integral = 0.0, estimate = 0.0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
        PathRandom random(uint32_t(i), 7, 1, 0);
        // Uniform directions: the density's integral.
        const float z = 1.0f - 2.0f * random.uniform(), phi = 2.0f * kPi * random.uniform();
        const float r = std::sqrt(std::max(0.0f, 1.0f - z * z));
        integral += env.pdf({r * std::cos(phi), r * std::sin(phi), z}) * 4.0 * kPi;
        // Importance samples: the light's integral.
        float pdf;
        const Vec3f d = env.sample(random.uniform(), random.uniform(), pdf);
        ASSERT_GT(pdf, 0.0f);
        EXPECT_NEAR(pdf, env.pdf(d), 1e-3f * pdf);
        estimate += env.radiance(d).x / pdf;
    }
    EXPECT_NEAR(integral / n, 1.0, 0.02);
    EXPECT_NEAR(estimate / n / (4.0 * kPi), env.mean().x, 0.02 * env.mean().x);
}

// The sixths of the sphere (the sky sweeps' weights): a map lit only above
// the horizon's 45 degrees gives all its light to +Z, and the six means
// average to the map's mean (six equal solid angles).
TEST(Environment, CubeFacesShareTheLight) {
    const WorkingSpace space;
    EnvironmentSettings s = oneTexel(0, 0);
    auto map = std::make_shared<RadianceMap>(*s.map);
    for (int y = 0; y < 8; ++y)  // rows 0-7 of 32: 45 degrees up and above
        for (int x = 0; x < 64; ++x)
            for (int c = 0; c < 3; ++c) map->rgb[(size_t(y) * 64 + x) * 3 + c] = 1.0f;
    s.map = map;
    const Environment env(s, space);
    const Vec3f axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    float sum = 0.0f;
    for (const Vec3f& a : axes) sum += env.meanAround(a).x;
    EXPECT_GT(env.meanAround({0, 0, 1}).x, 0.75f);
    EXPECT_EQ(env.meanAround({0, 0, -1}).x, 0.0f);
    EXPECT_NEAR(sum / 6.0f, env.mean().x, 0.01f);
}

// The sky split into parts for the march: all the light is in them, and a
// map's sun shines from where it is, not from its part's centre.
TEST(Environment, SkyLightsHoldTheLightAndItsDirection) {
    const WorkingSpace space;
    std::vector<Vec3f> centres;
    for (int i = 0; i < 24; ++i) {
        const float z = 1.0f - (2.0f * float(i) + 1.0f) / 24.0f, r = std::sqrt(1.0f - z * z);
        centres.push_back({r * std::cos(2.39996323f * float(i)), r * std::sin(2.39996323f * float(i)), z});
    }
    const Environment sky(Vec3f(0.2f, 0.3f, 0.4f));
    Vec3f total(0.0f);
    float shares = 0.0f;
    for (const SkyLight& part : sky.skyLights(centres)) {
        total += part.light;
        shares += part.share;
    }
    EXPECT_NEAR(total.y, 0.3f * 4.0f * kPi, 1e-4f);
    EXPECT_NEAR(shares, 1.0f, 1e-5f);

    const Environment sun(oneTexel(20, 9), space);
    const std::vector<SkyLight> parts = sun.skyLights(centres);
    const SkyLight* brightest = &parts[0];
    total = Vec3f(0.0f);
    for (const SkyLight& part : parts) {
        total += part.light;
        if (part.share > brightest->share) brightest = &part;
    }
    // One texel of 100 over its solid angle, all in one part.
    const float elevation = (0.5f - 9.5f / 32.0f) * kPi;
    const float texelSolid = (2.0f * kPi / 64.0f) * (kPi / 32.0f) * std::cos(elevation);
    EXPECT_NEAR(total.x, 100.0f * texelSolid, 1e-3f);
    EXPECT_NEAR(brightest->share, 1.0f, 1e-5f);
    // Its light travels away from the texel.
    EXPECT_GT(dot(brightest->direction, -texelDirection(20, 9)), 0.9999f);
}

}  // namespace
}  // namespace plume
