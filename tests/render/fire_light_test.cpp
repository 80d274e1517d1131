// The fire's glow as light: on the smoke around it, on surfaces, through
// what stands in between (render/light/fire_light.h), and in a rendered frame.
#include "render/light/fire_light.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "core/parallel.h"
#include "render/light/in_scattering.h"
#include "render/light/planck.h"
#include "render/march/cubic.h"
#include "render/renderer.h"

namespace plume {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr int kN = 32;
constexpr float kSigmaPerVoxel = 0.5f;
constexpr float kVoxelMetres = 0.5f;

float luminance(Vec3f c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }

// A 32^3 grid of hot clear air, open to the sky: density, the sky's
// openness (render/light/in_scattering.h's kSkyChannel), temperature, flame, and
// the fire's light. Hot everywhere, so a flame's glow is its flame's, read
// trilinearly or through the B-spline alike.
struct Cells {
    ShadingGrid grid;
    std::vector<float> density = std::vector<float>(size_t(kN) * kN * kN, 0.0f);
    std::vector<float> temperature = std::vector<float>(size_t(kN) * kN * kN, 1.0f);
    std::vector<float> flame = std::vector<float>(size_t(kN) * kN * kN, 0.0f);
    RenderSettings settings;
    bool cubic = false;
    Cells() {
        grid.resize({kN, kN, kN}, 5);
        settings.emission = 1.0f;
        settings.fireTemperature = kReferenceKelvin;  // a temperature of 1 glows with luminance 1
        for (size_t c = 0; c < density.size(); ++c) set(c, 0.0f, 1.0f, 0.0f);
    }
    void set(size_t c, float rho, float t, float f) {
        density[c] = rho, temperature[c] = t, flame[c] = f;
        float* cell = grid.cell(c);
        cell[0] = rho, cell[kSkyChannel] = 1.0f, cell[2] = t, cell[3] = f;
    }
    void set(int i, int j, int k, float rho, float t = 1.0f, float f = 0.0f) {
        set(grid.cellIndex(i, j, k), rho, t, f);
    }
    float light(int i, int j, int k) { return grid.cell(grid.cellIndex(i, j, k))[4]; }
    void build(FireLight& fire) {
        grid.setDensity(density.data());
        grid.setCoefficients(density.data(), temperature.data(), flame.data());
        fire.build(grid, {{0, 0, 0}, {kN, kN, kN}}, settings,
                   {.temperatureChannel = 2,
                    .flameChannel = 3,
                    .outChannel = 4,
                    .sigmaPerVoxel = kSigmaPerVoxel,
                    .voxelMetres = kVoxelMetres,
                    .albedo = 0.9f,
                    .cubic = cubic});
    }
    // What the march's flame gives off over the grid (luminance per unit of
    // 1 / distance^2 in voxels), read as the march reads it, 4^3 points a cell.
    float emitted() const {
        const Vec3i n{kN, kN, kN};
        double sum = 0.0;
        for (int k = 0; k < kN; ++k)
            for (int j = 0; j < kN; ++j)
                for (int i = 0; i < kN; ++i)
                    for (int s = 0; s < 64; ++s) {
                        const Vec3f p(i + (s % 4 + 0.5f) / 4.0f, j + (s / 4 % 4 + 0.5f) / 4.0f,
                                      k + (s / 16 + 0.5f) / 4.0f);
                        float t, f;
                        if (cubic) {
                            t = bsplineSample(temperature.data(), n, p);
                            f = std::max(0.0f, bsplineSample(flame.data(), n, p));
                        } else {
                            const Trilinear w = grid.weights(p);
                            t = w(grid.data() + 2), f = w(grid.data() + 3);
                        }
                        if (f > 0.0f && t > 0.0f)
                            sum += luminance(flameRadiance(t * kReferenceKelvin)) * f / 64.0;
                    }
        return float(sum) * kVoxelMetres;
    }
};

// One glowing cell at (8, 16, 16) gives off dx * flame * its flame's
// radiance (luminance 1 at the reference temperature): the trilinear flame
// over the cells around it holds exactly one cell's.
const float kGlow = kVoxelMetres * 1.0f * luminance(flameRadiance(kReferenceKelvin));
// The smallest lamp is a coarse cell wide (two voxels at 32^3): d^2 + 4.
constexpr float kSoft2 = 4.0f;

TEST(FireLight, AGlowingCellLightsTheSmokeAsALampOfItsIntensity) {
    Cells cells;
    cells.set(8, 16, 16, 0.001f, 1.0f, 1.0f);
    FireLight fire;
    cells.build(fire);
    ASSERT_GE(fire.lamps(), 1);
    // The colour of the light is the blackbody's, per unit of luminance.
    EXPECT_NEAR(luminance(fire.color()), 1.0f, 1e-5f);
    const Vec3f bb = blackbody(kReferenceKelvin);
    EXPECT_NEAR(fire.color().x / fire.color().y, bb.x / bb.y, 1e-3f);

    // 16 and 8 voxels away along x, and 12 along y: 1 / d^2 within the
    // coarse grid's interpolation; in clear air open to the sky it
    // scatters once (no octaves).
    for (auto [i, j, d2] : {std::tuple{24, 16, 256.0f}, {16, 16, 64.0f}, {8, 28, 144.0f}}) {
        const float expected = kGlow / (4.0f * kPi * (d2 + kSoft2));
        EXPECT_NEAR(cells.light(i, j, 16), expected, 0.06f * expected) << i << " " << j;
    }

    // A surface facing the lamp 16 voxels away gets its light by the
    // inverse square; turned away, none; at 60 degrees, half.
    const Vec3f p(24.5f, 16.5f, 16.5f);
    const Vec3f facing = fire.irradiance(p, {-1, 0, 0}, false);
    EXPECT_NEAR(luminance(facing), kGlow / (256.0f + kSoft2), 0.01f * kGlow / 256.0f);
    EXPECT_EQ(luminance(fire.irradiance(p, {1, 0, 0}, false)), 0.0f);
    const Vec3f slanted = fire.irradiance(p, {-0.5f, std::sqrt(3.0f) / 2.0f, 0.0f}, false);
    EXPECT_NEAR(luminance(slanted), 0.5f * luminance(facing), 0.01f * luminance(facing));
    // In clear air the shadows take away next to nothing.
    EXPECT_GT(luminance(fire.irradiance(p, {-1, 0, 0}, true)), 0.95f * luminance(facing));
}

// A ball of flame 3 voxels across (19 cells about (10, 16, 16)), hotter
// than the reference, in thin haze: the haze 8 to 14 voxels off receives the
// flame's light scattered once, P T / (4 pi d^2) per unit albedo, where P is
// what the march's flame gives off (the B-spline's flame and temperature, as
// Cycles' "Cubic" reads them) and T the haze's transmittance; and scattered
// twice, (pi^2 / 4) albedo tau times that in a uniform medium, tau the
// optical depth from the flame. Before, the lamps gave off the glow of the
// cells' own temperatures (T^4 of the B-spline's is far less at the edge of
// so small a ball: 6.2 times the light) and the octaves of multiple
// scattering added 0.875 of it again whatever the haze's depth: 11.7 times
// the single scattering here; the torch's thin gas came out 90% brighter
// than Cycles'.
TEST(FireLight, ThinHazeScattersAFlamesLightOnceAndTwice) {
    Cells cells;
    cells.cubic = true;
    const float haze = 0.02f;  // optical depth 0.01 a voxel
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) {
                const Vec3f q = Vec3f(float(i - 10), float(j - 16), float(k - 16));
                const bool burns = dot(q, q) < 1.5f * 1.5f;
                cells.set(i, j, k, haze, burns ? 1.3f : 0.0f, burns ? 1.0f : 0.0f);
            }
    FireLight fire;
    cells.build(fire);
    const float power = cells.emitted();
    for (int d : {8, 11, 14}) {
        const float tau = haze * kSigmaPerVoxel * float(d);
        const float once = power * std::exp(-tau) / (4.0f * kPi * float(d * d));
        const float expected = once * (1.0f + 0.25f * kPi * kPi * 0.9f * tau);
        EXPECT_NEAR(cells.light(10 + d, 16, 16), expected, 0.05f * expected) << d;
        EXPECT_NEAR(cells.light(10, 16, 16 + d), expected, 0.05f * expected) << d;
    }
}

// Gas inside a glowing region is lit mostly by the glow a cell or two away.
// At the centre of a cube of thin flame 16 voxels wide the light is
// j / (4 pi) times the integral of 1 / r^2 over the cube, 16 x 7.674 (the
// unit cube's about its centre, by the midpoint rule). The lamps alone, each
// a point softened by its block's size, give it 0.52 of that (in the
// campfire's flames, where the soot burns, a third of Cycles' fire light).
TEST(FireLight, GasInsideAGlowingCubeGetsTheCubesLight) {
    Cells cells;
    for (int k = 8; k < 24; ++k)
        for (int j = 8; j < 24; ++j)
            for (int i = 8; i < 24; ++i) cells.set(i, j, k, 0.002f, 1.0f, 1.0f);
    FireLight fire;
    cells.build(fire);
    const float j = kVoxelMetres * luminance(flameRadiance(kReferenceKelvin));
    const float expected = j * 16.0f * 7.674f / (4.0f * kPi);
    // The eight cells around the centre.
    float centre = 0.0f;
    for (int c = 0; c < 8; ++c)
        centre += 0.125f * cells.light(15 + c % 2, 15 + c / 2 % 2, 15 + c / 4);
    EXPECT_NEAR(centre, expected, 0.05f * expected);
}

// The smoke scatters the fire's light by its phase, as it does a lamp's
// (Henyey and Greenstein's, render.phase): looking toward the fire through
// the smoke, (1 + g) / (1 - g)^2 times the isotropic light; away from it,
// (1 - g) / (1 + g)^2; across, (1 - g^2) / (1 + g^2)^1.5. Where the light
// comes from all round (inside a glowing cube) it scatters as evenly. Taken
// as isotropic, the torch's thin gas came out 3.5 points brighter against
// Cycles (phase 0.3) than with both isotropic.
TEST(FireLight, TheFiresLightScattersByTheSmokesPhase) {
    Cells cells;
    cells.set(8, 16, 16, 0.001f, 1.0f, 1.0f);
    FireLight fire;
    cells.build(fire);
    const float g = 0.3f;
    const Vec3f p(24.5f, 16.5f, 16.5f);  // 16 voxels along +x from the fire
    EXPECT_NEAR(fire.phase(p, {-1, 0, 0}, g), (1 + g) / ((1 - g) * (1 - g)), 0.05f);
    EXPECT_NEAR(fire.phase(p, {1, 0, 0}, g), (1 - g) / ((1 + g) * (1 + g)), 0.02f);
    EXPECT_NEAR(fire.phase(p, {0, 0, 1}, g), (1 - g * g) / std::pow(1 + g * g, 1.5f), 0.02f);
    EXPECT_EQ(fire.phase(p, {-1, 0, 0}, 0.0f), 1.0f);

    Cells cube;
    for (int k = 8; k < 24; ++k)
        for (int j = 8; j < 24; ++j)
            for (int i = 8; i < 24; ++i) cube.set(i, j, k, 0.002f, 1.0f, 1.0f);
    FireLight inside;
    cube.build(inside);
    for (Vec3f d : {Vec3f(1, 0, 0), Vec3f(-1, 0, 0), Vec3f(0, 0, 1)})
        EXPECT_NEAR(inside.phase(Vec3f(16.0f), d, g), 1.0f, 0.1f);
}

TEST(FireLight, SmokeInBetweenShadowsTheSmokeAndTheSurfaces) {
    Cells open, walled;
    open.set(8, 16, 16, 1.0f, 1.0f, 1.0f);
    walled.set(8, 16, 16, 1.0f, 1.0f, 1.0f);
    // A dense wall of smoke across the grid at x = 14..17.
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 14; i < 18; ++i) walled.set(i, j, k, 10.0f);
    FireLight a, b;
    open.build(a);
    walled.build(b);
    // Behind the wall: the deepest octave sees an eighth of the depth
    // (about 40 at 4 voxels of density 10), so a little gets through.
    EXPECT_LT(walled.light(26, 16, 16), 0.02f * open.light(26, 16, 16));
    // In front of it, nothing changes.
    EXPECT_NEAR(walled.light(4, 16, 16), open.light(4, 16, 16), 1e-6f);
    const Vec3f p(26.5f, 16.5f, 16.5f), n(-1, 0, 0);
    EXPECT_LT(luminance(b.irradiance(p, n, true)), 0.01f * luminance(a.irradiance(p, n, true)));
    // A shadow catcher's open light ignores it.
    EXPECT_EQ(luminance(b.irradiance(p, n, false)), luminance(a.irradiance(p, n, false)));
}

TEST(FireLight, CooledSmokeGivesNoLight) {
    Cells cells;
    cells.set(8, 16, 16, 1.0f, 1.0f, 0.0f);  // hot, but no flame
    FireLight fire;
    cells.build(fire);
    EXPECT_TRUE(fire.empty());
}

// A cube of 24^3 glowing cells of this density.
FireLight glowingCube(float rho) {
    Cells cells;
    for (int k = 4; k < 28; ++k)
        for (int j = 4; j < 28; ++j)
            for (int i = 4; i < 28; ++i) cells.set(i, j, k, rho, 1.0f, 1.0f);
    FireLight fire;
    cells.build(fire);
    return fire;
}

TEST(FireLight, ManyGlowingCellsMakeAtMostSixtyFourLamps) {
    // Thin: the cells' light all leaves the cube (optical depth 0.008
    // across the largest block).
    const float rho = 0.002f;
    const FireLight fire = glowingCube(rho);
    EXPECT_GT(fire.lamps(), 8);
    EXPECT_LE(fire.lamps(), kMaxFireLamps);
    // The lamps carry all the fire's light: at a far-off point facing the
    // fire, the sum of 24^3 cells' light as one lamp at the centre.
    const float all =
        24.0f * 24.0f * 24.0f * kVoxelMetres * luminance(flameRadiance(kReferenceKelvin));
    const Vec3f far(16.0f, 16.0f, 16.0f + 400.0f);
    EXPECT_NEAR(luminance(fire.irradiance(far, {0, 0, -1}, false)), all / (400.0f * 400.0f),
                0.01f * all / (400.0f * 400.0f));
}

TEST(FireLight, AThickFlameGivesOffWhatItsSurfaceDoes) {
    // A flame's light is its own, whatever the soot in it: the same through
    // thin soot, twice as thin; but half when the soot is opaque and twice
    // as thick (only its surface layer's light gets out).
    const Vec3f far(16.0f, 16.0f, 416.0f), down(0, 0, -1);
    auto light = [&](float rho) {
        return luminance(glowingCube(rho).irradiance(far, down, false));
    };
    EXPECT_NEAR(light(0.004f) / light(0.002f), 1.0f, 0.02f);
    EXPECT_NEAR(light(40.0f) / light(20.0f), 0.5f, 0.05f);
}

// A flame under a layer of smoke, seen from below and from above; no other light.
struct Campfire {
    ScalarGrid density{kN, kN, kN}, temperature{kN, kN, kN}, flame{kN, kN, kN}, none{kN, kN, kN};
    Campfire() {
        for (int k = 0; k < kN; ++k)
            for (int j = 0; j < kN; ++j)
                for (int i = 0; i < kN; ++i) {
                    const Vec3f p((i + 0.5f) / kN, (j + 0.5f) / kN, (k + 0.5f) / kN);
                    const Vec3f q = p - Vec3f(0.5f, 0.5f, 0.25f);
                    const float f = std::exp(-dot(q, q) / 0.01f);
                    if (f > 0.05f) flame(i, j, k) = f, temperature(i, j, k) = 1.2f;
                    if (p.z > 0.6f && p.z < 0.75f && std::fabs(p.x - 0.5f) < 0.4f &&
                        std::fabs(p.y - 0.5f) < 0.4f)
                        density(i, j, k) = 2.0f;
                }
    }
    VolumeView view(bool burning) const {
        VolumeView v{&density, &temperature, {0, 0, 0}, 1.0f / kN};
        v.flame = burning ? &flame : &none;  // hot, but burnt out
        return v;
    }
};

Scene campfireScene(float cameraZ) {
    Scene scene;
    scene.render.width = 96;
    scene.render.height = 64;
    scene.camera.position = {0.5f, -1.6f, cameraZ};
    scene.camera.lookAt = {0.5f, 0.5f, 0.67f};
    scene.camera.fov = 40.0f;
    scene.camera.given = true;
    scene.lights.clear();
    scene.render.ambient = {0, 0, 0};
    scene.render.emission = 1.0f;
    scene.render.fireTemperature = kReferenceKelvin;
    return scene;
}

// Mean colour of the smoke layer's pixels: those the layer covers (alpha),
// beside the flame's own.
Vec3f layerColour(const Scene& scene, const VolumeView& view, int threads = 0) {
    setThreadCount(threads);
    Renderer renderer(scene);
    const LinearImage& image = renderer.trace(view, 1);
    setThreadCount(0);
    Vec3f sum(0.0f);
    int count = 0;
    const int w = scene.render.width;
    for (int y = 0; y < scene.render.height; ++y)
        for (int x = 0; x < w; ++x) {
            const size_t i = size_t(y) * w + x;
            if (image.transmittance[i] > 0.2f) continue;  // not the opaque layer
            sum += Vec3f(image.rgb[i * 3], image.rgb[i * 3 + 1], image.rgb[i * 3 + 2]);
            ++count;
        }
    EXPECT_GT(count, 200);
    return sum / float(std::max(count, 1));
}

TEST(FireLight, AFireLightsTheUndersideOfItsSmokeOrange) {
    const Campfire fire;
    const Vec3f below = layerColour(campfireScene(0.2f), fire.view(true));
    const Vec3f above = layerColour(campfireScene(1.3f), fire.view(true));
    // Orange: red over green over blue.
    EXPECT_GT(below.x, 1.3f * below.y) << below.x << " " << below.y << " " << below.z;
    EXPECT_GT(below.y, 1.3f * below.z);
    // The side facing the fire is lit; the far side is in the layer's shadow
    // (3.6 times darker; more before the smoke scattered the fire's light by
    // its phase, which sends less of it back down toward the camera below).
    EXPECT_GT(luminance(below), 3.0f * luminance(above))
        << luminance(below) << " " << luminance(above);
    // No flame: the layer is black (nothing else lights it).
    EXPECT_LT(luminance(layerColour(campfireScene(0.2f), fire.view(false))),
              0.01f * luminance(below));
}

// A flame is a thin emitter (render/march/ray_marcher.h): a metre of flame at the
// reference temperature gives off luminance emission x flame per metre,
// dimmed only by the smoke in the way, ∫ e^(-sigma s) ds over the metre.
// Seen straight through a cube of flame (1 m, no lights, no sky, black
// smoke), the pixel at the centre is (1 - e^(-sigma)) / sigma: 0.69 with no
// soot (the flame's own 0.02 of density), 0.21 in soot of density 0.1
// (sigma 40 x 0.12). Shaded as a source function (the light a share of the
// smoke's opacity), it came out 0.55 and 0.99: brighter the more soot hid it.
TEST(FireLight, AFlameGlowsThroughItsOwnSootAsAThinEmitter) {
    constexpr int n = 16;
    auto centre = [&](float soot) {
        ScalarGrid density(n, n, n), temperature(n, n, n), flame(n, n, n);
        density.fill(soot);
        temperature.fill(1.0f);
        flame.fill(1.0f);
        VolumeView view{&density, &temperature, {0, 0, 0}, 1.0f / n};
        view.flame = &flame;
        Scene scene;
        scene.render.width = scene.render.height = 33;
        scene.camera.position = {0.5f, 0.5f, 3.0f};
        scene.camera.lookAt = {0.5f, 0.5f, 0.0f};
        scene.camera.up = {0.0f, 1.0f, 0.0f};
        scene.camera.fov = 10.0f;
        scene.camera.given = true;
        scene.lights.clear();
        scene.render.ambient = {0, 0, 0};
        scene.render.albedo = 0.0f;
        scene.render.fireLight = 0.0f;
        scene.render.extinction = 40.0f;
        scene.render.filter = RenderFilter::Linear;
        scene.render.emission = 1.0f;
        scene.render.fireTemperature = kReferenceKelvin;
        Renderer renderer(scene);
        const LinearImage& image = renderer.trace(view, 1);
        const size_t c = size_t(16) * 33 + 16;
        return luminance(Vec3f(image.rgb[c * 3], image.rgb[c * 3 + 1], image.rgb[c * 3 + 2]));
    };
    auto expected = [](float soot) {
        const float sigma = 40.0f * (soot + 0.02f);
        return (1.0f - std::exp(-sigma)) / sigma;
    };
    EXPECT_NEAR(centre(0.0f), expected(0.0f), 0.03f * expected(0.0f));
    EXPECT_NEAR(centre(0.1f), expected(0.1f), 0.03f * expected(0.1f));
}

TEST(FireLight, FramesIgnoreTheThreadCount) {
    const Campfire fire;
    const Scene scene = campfireScene(0.2f);
    auto frame = [&](int threads) {
        setThreadCount(threads);
        Renderer renderer(scene);
        std::vector<float> rgb = renderer.renderLinear(fire.view(true), 3);
        setThreadCount(0);
        return rgb;
    };
    EXPECT_EQ(frame(1), frame(3));
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// A scene whose only emitter gives fuel: all its smoke is the fire's, drawn
// in physics.flame_smoke_color; once the emitter gives smoke too, grey.
TEST(FireSmoke, SmokeMadeByFireIsDrawnInItsColour) {
    Scene scene = campfireScene(0.6f);
    scene.lights = {LightSettings{}};
    scene.render.emission = 0.0f;
    scene.physics.flameSmokeColor = {0.8f, 0.2f, 0.1f};
    EmitterSettings emitter;
    emitter.density = 0.0f;
    emitter.fuel = 1.0f;
    scene.emitters = {emitter};
    const Campfire fire;
    const VolumeView view = fire.view(false);
    const Vec3f sooty = layerColour(scene, view);
    EXPECT_GT(sooty.x, 3.0f * sooty.z) << sooty.x << " " << sooty.z;
    scene.emitters[0].density = 1.0f;
    const Vec3f grey = layerColour(scene, view);
    EXPECT_NEAR(grey.x / grey.z, 1.0f, 0.2f);
}

}  // namespace
}  // namespace plume
