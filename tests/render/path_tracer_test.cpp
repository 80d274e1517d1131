// The path tracer (render/path/path_tracer.h) against what is known exactly:
// a white furnace (a medium that only scatters, under a sky of radiance 1,
// looks like the sky whatever its density), Beer-Lambert through an
// absorbing slab, single scattering of a sun in a thin medium, and the same
// frame for any thread count. And a flame beside a slab of smoke: its light
// by next-event estimation as the paths gather it, at a fraction of the noise.
#include "render/path/path_tracer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/parallel.h"
#include "render/light/in_scattering.h"
#include "render/path/emitters.h"
#include "render/path/medium.h"
#include "render/path/path_random.h"
#include "render/solids/solid_scene.h"

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

// A ball of flame (radius 5 voxels, `flameDensity` of smoke of its own)
// beside a slab of smoke that does not glow, in the dark: what lights the
// slab is the flame, and the light the flame's own smoke scatters.
struct FireBox {
    static constexpr int kCells = 24;
    ScalarGrid density{kCells, kCells, kCells}, temperature{kCells, kCells, kCells},
        flame{kCells, kCells, kCells};
    VolumeView volume;
    RenderSettings settings;
    WorkingSpace space;
    Medium medium;
    FireBox(MediumFilter filter, float flameDensity) {
        for (int k = 0; k < kCells; ++k)
            for (int j = 0; j < kCells; ++j)
                for (int i = 0; i < kCells; ++i) {
                    const Vec3f c(float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f);
                    const Vec3f fromBall = c - Vec3f(7.0f, 12.0f, 12.0f);
                    if (dot(fromBall, fromBall) < 25.0f) {
                        flame(i, j, k) = 1.0f;
                        temperature(i, j, k) = 1.0f;
                        density(i, j, k) = flameDensity;
                    } else if (i >= 14 && i < 20 && j >= 2 && j < 22) {
                        density(i, j, k) = 1.0f;
                    }
                }
        volume.density = &density;
        volume.temperature = &temperature;
        volume.flame = &flame;
        volume.dx = 1.0f / kCells;  // a unit cube at the origin
        settings.extinction = 8.0f;
        settings.emission = 5.0f;
        settings.fireTemperature = 1500.0f;
        medium.build(volume, nullptr, settings, Vec3f(0.9f), filter, space);
    }
};

// The whole box in 8x8 pixels; the slab alone in 4x4 (its middle, seen
// narrowly from in front); or, from above, 4x4 of a ground at z = 0.2 m
// beside the ball's foot (in front of it, where no smoke lies).
enum class FireView { Box, Slab, Ground };

LinearImage traceFire(const FireBox& box, int samples, bool flameEvents, int frame = 1,
                      FireView view = FireView::Box) {
    CameraSettings look = lookingAtBox();
    int size = 8;
    if (view == FireView::Slab) {
        look.position = {0.72f, -3.0f, 0.5f};
        look.lookAt = {0.72f, 0.5f, 0.5f};
        look.fov = 5.0f;
        size = 4;
    }
    SolidScene ground;
    if (view == FireView::Ground) {
        look.position = {0.29f, 0.15f, 3.0f};
        look.lookAt = {0.29f, 0.15f, 0.2f};
        look.up = {1, 0, 0};
        look.fov = 4.0f;
        size = 4;
        GroundSettings plane;
        plane.enabled = true;
        plane.height = 0.2f;
        plane.color = Vec3f(0.5f);
        ground.place({}, plane, Vec3f(0.5f), 100.0f);
    }
    const Camera camera(look, size, size);
    const Environment dark(Vec3f(0.0f));
    const PathScene scene{.camera = &camera,
                          .medium = &box.medium,
                          .origin = Vec3f(0.0f),
                          .directional = {},
                          .point = {},
                          .environment = &dark,
                          .solids = view == FireView::Ground ? &ground : nullptr,
                          .phase = 0.3f,
                          .samples = samples,
                          .frame = frame,
                          .flameEvents = flameEvents};
    LinearImage image(size, size);
    tracePaths(scene, image);
    return image;
}

// A pixel's light, summed over the channels, and the image's mean.
double pixelLight(const LinearImage& image, int x, int y) {
    const size_t i = size_t(y) * image.width + x;
    return double(image.rgb[i * 3]) + image.rgb[i * 3 + 1] + image.rgb[i * 3 + 2];
}
double meanLight(const LinearImage& image) {
    double sum = 0.0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) sum += pixelLight(image, x, y);
    return sum / double(image.width * image.height);
}

// The slab's mean light over `frames` independent frames (each its own
// seed), and its standard error.
struct Estimate {
    double mean = 0.0, error = 0.0;
};
Estimate viewLight(const FireBox& box, int samples, int frames, bool flameEvents,
                   FireView view = FireView::Slab) {
    double sum = 0.0, sum2 = 0.0;
    for (int f = 0; f < frames; ++f) {
        const double x = meanLight(traceFire(box, samples, flameEvents, f + 1, view));
        sum += x;
        sum2 += x * x;
    }
    const double mean = sum / frames, variance = std::max(0.0, sum2 / frames - mean * mean);
    return {mean, std::sqrt(variance / (frames - 1))};
}

// Every point that emits can be drawn: the emission over the density of the
// drawn points integrates the flame's light (a sum over a fine lattice).
TEST(PathFire, EmissionSamplerCoversTheFlame) {
    for (MediumFilter filter : {MediumFilter::Linear, MediumFilter::Cubic, MediumFilter::Sharp}) {
        const FireBox box(filter, 0.5f);
        const EmissionSampler sampler(box.medium);
        ASSERT_FALSE(sampler.empty());
        constexpr int kSub = 4;
        double exact = 0.0;
        const int n = FireBox::kCells * kSub;
        for (int k = 0; k < n; ++k)
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) {
                    const Vec3f e = box.medium.emission(
                        (Vec3f(float(i), float(j), float(k)) + Vec3f(0.5f)) / float(kSub));
                    exact += double(e.x + e.y + e.z);
                }
        exact /= double(kSub * kSub * kSub);
        PathRandom random(1, 2, 3, 4);
        constexpr int kDraws = 200000;
        double estimate = 0.0;
        for (int s = 0; s < kDraws; ++s) {
            float pdf;
            const float u0 = random.uniform(), u1 = random.uniform(), u2 = random.uniform(),
                        u3 = random.uniform();
            const Vec3f p = sampler.sample(u0, u1, u2, u3, random.uniform(), pdf);
            ASSERT_GT(pdf, 0.0f);
            const Vec3f e = box.medium.emission(p);
            estimate += double(e.x + e.y + e.z) / pdf;
        }
        estimate /= kDraws;
        EXPECT_NEAR(estimate / exact, 1.0, 0.01) << "filter " << int(filter);
    }
}

// Next-event estimation to the flame and the rays' line integrals weighed
// against it change the noise, not the light: the slab lit by the flame
// (and by the flame's smoke, which scatters its light from near and far) as
// the paths alone gather it at tentative collisions, within four standard
// errors of the two; for each filter's reach. (Dropping next-event's pdf,
// or its weight against the line, fails it.)
TEST(PathFire, FlameEventsMatchGathering) {
    for (MediumFilter filter : {MediumFilter::Linear, MediumFilter::Cubic}) {
        const FireBox box(filter, 0.5f);
        const Estimate events = viewLight(box, 16, 300, true);
        const Estimate gathered = viewLight(box, 16, 2000, false);
        const double error = std::hypot(events.error, gathered.error);
        EXPECT_NEAR(events.mean, gathered.mean, 4.0 * error)
            << "filter " << int(filter) << ": next-event " << events.mean << " +- " << events.error
            << ", gathered " << gathered.mean << " +- " << gathered.error;
        // And the comparison is sharp: within a few per cent.
        EXPECT_LT(error, 0.02 * gathered.mean);
    }
}

// At equal samples, the slab's noise a frame is a fraction of gathering's,
// where the flame's own smoke is thin (there gathering draws its light
// rarely, at tentative collisions, and next-event estimation every time).
TEST(PathFire, FlameEventsLowerTheNoise) {
    for (float flameDensity : {0.05f, 0.5f}) {
        const FireBox box(MediumFilter::Linear, flameDensity);
        const Estimate events = viewLight(box, 16, 40, true);
        const Estimate gathered = viewLight(box, 16, 40, false);
        const double ratio = (events.error / events.mean) / (gathered.error / gathered.mean);
        EXPECT_LT(ratio, flameDensity < 0.1f ? 0.2 : 0.7)
            << "flame density " << flameDensity << ": next-event " << events.mean << " +- "
            << events.error << ", gathered " << gathered.mean << " +- " << gathered.error;
    }
}

// The ground beside the flame, lit by it (a surface's vertex, cosine
// weighted, and its shadow rays): the same light both ways, within four
// standard errors (about 1.5%).
TEST(PathFire, GroundLitByTheFlameMatchesGathering) {
    const FireBox box(MediumFilter::Cubic, 0.5f);
    const Estimate events = viewLight(box, 16, 100, true, FireView::Ground);
    const Estimate gathered = viewLight(box, 16, 1000, false, FireView::Ground);
    ASSERT_GT(gathered.mean, 0.0);
    const double error = std::hypot(events.error, gathered.error);
    EXPECT_NEAR(events.mean, gathered.mean, 4.0 * error)
        << "next-event " << events.mean << " +- " << events.error << ", gathered " << gathered.mean
        << " +- " << gathered.error;
    EXPECT_LT(error, 0.02 * gathered.mean);
    // And less noise a frame (0.6 of gathering's: the flame's own smoke,
    // lit by it, is much of the ground's light, and paths draw it alike).
    const double eventsNoise = events.error / events.mean * std::sqrt(100.0),
                 gatheredNoise = gathered.error / gathered.mean * std::sqrt(1000.0);
    EXPECT_LT(eventsNoise, 0.8 * gatheredNoise);
}

// The flame's points are drawn from the path's own numbers: the same bits
// for any thread count.
TEST(PathFire, SameFrameForAnyThreadCount) {
    const FireBox box(MediumFilter::Cubic, 0.5f);
    const int before = threadCount();
    setThreadCount(1);
    const LinearImage one = traceFire(box, 4, true);
    setThreadCount(2);
    const LinearImage two = traceFire(box, 4, true);
    setThreadCount(before);
    EXPECT_EQ(one.rgb, two.rgb);
    EXPECT_EQ(one.transmittance, two.transmittance);
}

}  // namespace
}  // namespace plume
