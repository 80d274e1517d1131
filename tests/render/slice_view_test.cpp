// Slice views (render.view, render/views/slice_view.h): what the colour map shows
// is the field the solver holds, read through the real renderer.
#include "render/views/slice_view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/parallel.h"
#include "render/camera.h"
#include "render/renderer.h"
#include "render/views/colour_map.h"
#include "run/slice_grids.h"
#include "scene/loader.h"
#include "sim/pressure/projection.h"
#include "sim/solver.h"

namespace plume {
namespace {

constexpr float kTolerance = 1e-4f;
// Float rounding of the face updates (m/s), on top of tolerance * before
// (as tests/sim/projection_test.cpp allows).
constexpr float kRounding = 2e-5f;

// A small column of hot smoke, seen from -y; the view's plane is y = 0.5.
const char* kScene = R"(
[domain]
size = [1.0, 1.0, 1.5]
resolution = 20
[time]
frames = 3
[solver]
tolerance = 1e-4
[[emitter]]
shape = "sphere"
center = [0.5, 0.5, 0.3]
radius = 0.18
density = 1.0
temperature = 1.0
[[obstacle]]
shape = "sphere"
center = [0.75, 0.5, 1.0]
radius = 0.15
[camera]
position = [0.5, -2.2, 0.75]
look_at = [0.5, 0.5, 0.75]
fov = 45.0
[render]
width = 96
height = 96
)";

Scene sceneWith(const std::vector<std::string>& overrides) {
    return parseScene(kScene, "slice.toml", overrides);
}

// A reproducible value in [-1, 1) from an index and a seed.
float noise(uint64_t n, uint64_t seed) {
    uint64_t x = n * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull + 1;
    x ^= x >> 30, x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27, x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return float(x >> 40) / float(1 << 23) - 1.0f;
}

float largestOnPlane(const SliceView& view) {
    float m = 0.0f;
    for (float v : view.values())
        if (std::isfinite(v)) m = std::max(m, std::fabs(v));
    return m;
}

int pixelsOnPlane(const SliceView& view) {
    return int(std::count_if(view.values().begin(), view.values().end(),
                             [](float v) { return std::isfinite(v); }));
}

TEST(SliceView, DivergenceAfterProjectionIsWithinTheTolerance) {
    // A random velocity over the scene's grid, projected at kTolerance.
    const Scene scene = sceneWith({"render.view=\"divergence\""});
    const Vec3i n = scene.domain.cells();
    Fields f(n, scene.domain.dx(), scene.domain.origin);
    for (ScalarGrid* g : {&f.u, &f.v, &f.w})
        for (size_t c = 0; c < g->size(); ++c) g->values()[c] = noise(c, uint64_t(g->nx()));
    Projection projection(n, scene.domain.boundary, {}, PressureMethod::MGPCG);
    projection.enforceBoundaries(f);
    const float before = Projection::maxDivergence(f);  // m/s: div * dx
    ASSERT_GT(before, 1.0f);

    Renderer renderer(scene);
    ScalarGrid divergence;
    Projection::divergence(f, divergence);
    VolumeView v = f.view();
    v.divergence = &divergence;
    renderer.render(v, 1);
    const float unprojected = largestOnPlane(*renderer.sliceView()) * f.dx;

    projection.project(f, 0.02f, kTolerance, 500);
    Projection::divergence(f, divergence);
    const Image image = renderer.render(v, 1);
    const SliceView& view = *renderer.sliceView();
    const float projected = largestOnPlane(view) * f.dx;
    const float bound = kTolerance * before + kRounding;

    // The plane fills much of the frame, and what it shows is the solver's
    // leftover divergence: within the tolerance, and far below what it removed.
    EXPECT_GT(pixelsOnPlane(view), 96 * 96 / 4);
    EXPECT_GT(unprojected, 0.1f * before);
    EXPECT_GT(projected, 0.0f);
    EXPECT_LE(projected, bound) << "before " << before;
    EXPECT_LE(view.range().peak * f.dx, bound);
    // The bar's top is that peak rounded up (to 1, 1.5, 2, 3, 4, 5, 6 or 8
    // times a power of ten): by at most half again.
    EXPECT_GE(view.range().hi, view.range().peak);
    EXPECT_LE(view.range().hi, 1.5f * view.range().peak);
    EXPECT_EQ(view.range().lo, -view.range().hi);
    // The frame is the picture: the centre pixel sees the plane, not the
    // dark surround, and it is the colour map's (not grey, not black).
    const uint8_t* centre = image.pixel(48, 48);
    EXPECT_FALSE(centre[0] == centre[1] && centre[1] == centre[2])
        << int(centre[0]) << " " << int(centre[1]) << " " << int(centre[2]);
}

TEST(SliceView, DivergenceFromTheSolverIsTheProjectionsLeftover) {
    // The same through plume render's path: the solver's frame, the grids
    // the view reads from it. Its smoke's expansion is none (no fuel), so
    // the velocity leaves each substep's projection divergence-free to the
    // tolerance times the divergence the forces and advection gave it,
    // which is below 6 * the fastest face speed / dx.
    const Scene scene = sceneWith({"render.view=\"divergence\""});
    Solver solver(scene);
    Renderer renderer(scene);
    SolverSliceGrids grids(scene, solver);
    for (int frame = 1; frame <= scene.time.frames; ++frame) solver.advanceFrame(frame);
    renderer.render(grids.view(solver), scene.time.frames);
    const float dx = solver.fields().dx;
    const float shown = largestOnPlane(*renderer.sliceView()) * dx;
    EXPECT_GT(shown, 0.0f);
    EXPECT_LE(shown, kTolerance * 6.0f * solver.maxSpeed() * 2.0f + kRounding);
}

TEST(SliceView, DensityIsWhereTheSmokeIsAndTheSameForAnyThreadCount) {
    // Large enough that the colour bar's corner leaves the source clear.
    const Scene scene =
        sceneWith({"render.view=\"density\"", "render.width=192", "render.height=192"});
    auto renderWith = [&](int threads) {
        setThreadCount(threads);
        Solver solver(scene);
        Renderer renderer(scene);
        for (int frame = 1; frame <= scene.time.frames; ++frame) solver.advanceFrame(frame);
        Image image = renderer.render(solver.fields().view(), scene.time.frames);
        return std::pair(image, *renderer.sliceView());
    };
    const auto [one, viewOne] = renderWith(1);
    const auto [two, viewTwo] = renderWith(2);
    setThreadCount(0);
    EXPECT_EQ(one.pixels, two.pixels);

    // Colour where the smoke is: the source (x 0.5, z 0.3 on the plane
    // y = 0.5) projects near the image's bottom middle; the top corners,
    // above the smoke, hold the map's low end.
    const Camera camera(scene.camera, one.width, one.height);
    float px, py;
    ASSERT_TRUE(camera.project({0.5f, 0.5f, 0.3f}, px, py));
    const size_t source = size_t(py) * one.width + size_t(px);
    const float atSource = viewOne.values()[source];
    EXPECT_GT(atSource, 0.5f * viewOne.range().peak);
    ASSERT_TRUE(camera.project({0.1f, 0.5f, 1.4f}, px, py));
    const size_t corner = size_t(py) * one.width + size_t(px);
    EXPECT_LT(viewOne.values()[corner], 0.01f);
    // Viridis: bright yellow-green at the source, dark purple above.
    const uint8_t* hot = one.pixel(int(source % one.width), int(source / one.width));
    const uint8_t* cold = one.pixel(int(corner % one.width), int(corner / one.width));
    EXPECT_GT(hot[1], 150);
    EXPECT_LT(cold[1], 40);
    EXPECT_GT(cold[2], cold[1]);
}

TEST(SliceView, PressureWithStreamlinesIsTheSameForAnyThreadCount) {
    // The pressure sums each substep's solves, the streamlines are drawn on
    // one thread: neither may depend on how many the solver and the pixels use.
    const Scene scene = sceneWith({"render.view=\"pressure\"", "render.view_velocity=true",
                                   "render.width=160", "render.height=160"});
    auto renderWith = [&](int threads) {
        setThreadCount(threads);
        Solver solver(scene);
        SolverSliceGrids grids(scene, solver);
        Renderer renderer(scene);
        for (int frame = 1; frame <= scene.time.frames; ++frame) solver.advanceFrame(frame);
        return renderer.render(grids.view(solver), scene.time.frames);
    };
    const Image one = renderWith(1);
    const Image three = renderWith(3);
    setThreadCount(0);
    EXPECT_EQ(one.pixels, three.pixels);
    // Streamlines were drawn: near-black pixels on the light cool-warm map.
    int dark = 0;
    for (size_t n = 0; n < one.pixels.size(); n += 3)
        dark += one.pixels[n] < 100 && one.pixels[n + 1] < 100 && one.pixels[n + 2] < 100 &&
                one.pixels[n] > 40;
    EXPECT_GT(dark, 20);
}

TEST(SliceView, SolidsAreGreyAndTheDefaultPlaneCrossesTheView) {
    // No render.slice: the camera looks along +y, so the plane is y = 0.5,
    // the domain's middle; the obstacle's centre lies on it.
    const Scene scene = sceneWith({"render.view=\"speed\"", "render.view_velocity=true"});
    Solver solver(scene);
    Renderer renderer(scene);
    for (int frame = 1; frame <= scene.time.frames; ++frame) solver.advanceFrame(frame);
    const Image image = renderer.render(solver.fields().view(), scene.time.frames);
    EXPECT_EQ(renderer.sliceView()->plane().axis, 1);
    EXPECT_FLOAT_EQ(renderer.sliceView()->plane().position, 0.5f);
    const Camera camera(scene.camera, image.width, image.height);
    float px, py;
    ASSERT_TRUE(camera.project({0.75f, 0.5f, 1.0f}, px, py));
    const uint8_t* solid = image.pixel(int(px), int(py));
    EXPECT_EQ(solid[0], 128);
    EXPECT_EQ(solid[1], 128);
    EXPECT_EQ(solid[2], 128);
}

// The default plane is the middle of the domain's bounds, wherever
// domain.origin puts them: kScene moved by (3, -2, 1), its plane y = -1.5.
TEST(SliceView, TheDefaultPlaneIsTheMiddleOfAMovedDomain) {
    const std::string text = R"(
[domain]
origin = [3.0, -2.0, 1.0]
size = [1.0, 1.0, 1.5]
resolution = 20
[time]
frames = 3
[[emitter]]
shape = "sphere"
center = [3.5, -1.5, 1.3]
radius = 0.18
density = 1.0
temperature = 1.0
[camera]
position = [3.5, -4.2, 1.75]
look_at = [3.5, -1.5, 1.75]
fov = 45.0
[render]
width = 128
height = 128
view = "density"
)";
    const Scene scene = parseScene(text, "moved.toml");
    Solver solver(scene);
    Renderer renderer(scene);
    for (int frame = 1; frame <= scene.time.frames; ++frame) solver.advanceFrame(frame);
    const Image image = renderer.render(solver.fields().view(), scene.time.frames);
    const SliceView& view = *renderer.sliceView();
    EXPECT_EQ(view.plane().axis, 1);
    EXPECT_FLOAT_EQ(view.plane().position, -1.5f);
    // The plane goes through the smoke: the source's pixel holds the frame's
    // densest smoke, not the nothing in front of the domain. (The loaded
    // scene's camera and the solver's grids are in the domain's own frame,
    // from its min corner: the source is at (0.5, 0.5, 0.3) there.)
    const Camera camera(scene.camera, 128, 128);
    float px, py;
    ASSERT_TRUE(camera.project({0.5f, 0.5f, 0.3f}, px, py));
    const float atSource = view.values()[size_t(py) * 128 + size_t(px)];
    EXPECT_GT(atSource, 0.5f * view.range().peak);
    // render.slice is in the world too: the same plane given draws the same frame.
    const Scene given = parseScene(text, "moved.toml", {"render.slice=\"y=-1.5\""});
    Renderer givenRenderer(given);
    EXPECT_TRUE(givenRenderer.render(solver.fields().view(), scene.time.frames).pixels ==
                image.pixels);

    // defaultSlice itself, along each axis the camera can look: the middle
    // of [lo, hi], not of [0, hi].
    const Vec3f lo{3.0f, -2.0f, 1.0f}, hi{4.0f, -1.0f, 2.5f};
    CameraSettings alongX;
    alongX.given = true;
    alongX.position = {10.0f, -1.5f, 1.75f};
    alongX.lookAt = {3.5f, -1.5f, 1.75f};
    CameraSettings alongZ = alongX;
    alongZ.position = {3.5f, -1.4f, 9.0f};
    const SliceSpec x = defaultSlice(alongX, lo, hi), z = defaultSlice(alongZ, lo, hi),
                    y = defaultSlice(CameraSettings{}, lo, hi);  // not given: along +y
    EXPECT_EQ(x.axis, 0);
    EXPECT_FLOAT_EQ(x.position, 3.5f);
    EXPECT_EQ(z.axis, 2);
    EXPECT_FLOAT_EQ(z.position, 1.75f);
    EXPECT_EQ(y.axis, 1);
    EXPECT_FLOAT_EQ(y.position, -1.5f);
}

// Zero on a signed view draws the diverging map's centre, and its bar's
// ends (-hi and hi) the map's ends: a pressure field through zero along x,
// drawn with a fixed range.
TEST(SliceView, ZeroDrawsTheDivergingMapsCentreAndTheRangesEndsItsEnds) {
    // The map itself: its middle is Moreland's light grey, its ends blue and red.
    const Vec3f centre = colourAt(ColourMap::CoolWarm, 0.5f);
    EXPECT_NEAR(centre.x * 255.0f, 221.0f, 0.01f);
    EXPECT_NEAR(centre.y * 255.0f, 221.0f, 0.01f);
    EXPECT_NEAR(centre.z * 255.0f, 221.0f, 0.01f);

    const Scene scene = sceneWith({"render.view=\"pressure\"", "render.view_range=1.0",
                                   "render.width=160", "render.height=160"});
    const Vec3i n = scene.domain.cells();
    const float dx = scene.domain.dx();
    // Pressure: zero within 0.15 m of x = 0.5, then growing with the
    // distance beyond, to 1.5 (past the range's end) at 0.1 m from the
    // sides: negative on the low side, positive on the high.
    ScalarGrid pressure(n.x, n.y, n.z);
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const float d = (float(i) + 0.5f) * dx - 0.5f;
                const float size = std::clamp(6.0f * (std::fabs(d) - 0.15f), 0.0f, 1.5f);
                pressure(i, j, k) = d < 0.0f ? -size : size;
            }
    ScalarGrid density(n.x, n.y, n.z);
    VolumeView v{&density, nullptr, scene.domain.origin, dx};
    v.pressure = &pressure;
    Renderer renderer(scene);
    const Image image = renderer.render(v, 1);
    const SliceView& view = *renderer.sliceView();
    ASSERT_EQ(view.range().lo, -1.0f);
    ASSERT_EQ(view.range().hi, 1.0f);
    const Camera camera(scene.camera, image.width, image.height);
    auto expectColour = [&](Vec3f at, float t, const char* what) {
        float px, py;
        ASSERT_TRUE(camera.project(at, px, py)) << what;
        const uint8_t* pixel = image.pixel(int(px), int(py));
        const Vec3f want = colourAt(ColourMap::CoolWarm, t) * 255.0f;
        EXPECT_NEAR(pixel[0], want.x, 1.0f) << what;
        EXPECT_NEAR(pixel[1], want.y, 1.0f) << what;
        EXPECT_NEAR(pixel[2], want.z, 1.0f) << what;
    };
    // Below the obstacle (x 0.75, z 1.0) and the colour bar's corner.
    expectColour({0.5f, 0.5f, 0.3f}, 0.5f, "zero");
    expectColour({0.1f, 0.5f, 0.3f}, 0.0f, "the low end");
    expectColour({0.9f, 0.5f, 0.3f}, 1.0f, "the high end");
}

TEST(SliceView, AnExrFrameIsTheSameColoursAsLinearLight) {
    const Scene scene = sceneWith({"render.view=\"density\""});
    Solver solver(scene);
    Renderer renderer(scene);
    solver.advanceFrame(1);
    const Image image = renderer.render(solver.fields().view(), 1);
    const std::vector<float> rgba = renderer.rgba();
    for (size_t n = 0; n < size_t(image.width) * image.height; n += 97) {
        EXPECT_EQ(rgba[n * 4 + 3], 1.0f);
        const float srgb = image.pixels[n * 3 + 1] / 255.0f;
        const float linear =
            srgb <= 0.04045f ? srgb / 12.92f : std::pow((srgb + 0.055f) / 1.055f, 2.4f);
        EXPECT_NEAR(rgba[n * 4 + 1], linear, 1e-6f);
    }
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// Air at 1.5 m/s through a tunnel meets a ball: in front of it the flow
// stops, and the pressure there is the dynamic pressure, 1/2 rho U^2 =
// 1.35 Pa, whichever advection the solver uses (with advection-reflection a
// substep's pressure is spread over three subtractions).
const char* kTunnel = R"(
[domain]
size = [2.0, 1.0, 1.0]
resolution = 40
inflow_velocity = [1.5, 0.0, 0.0]
boundary = { all = "wall", x_min = "inflow", x_max = "open" }
[time]
frames = 12
[[obstacle]]
shape = "sphere"
center = [0.8, 0.5, 0.5]
radius = 0.2
[camera]
position = [1.0, -3.0, 0.5]
look_at = [1.0, 0.5, 0.5]
[render]
width = 128
height = 64
view = "pressure"
)";

class StagnationPressure : public ::testing::TestWithParam<std::string> {};

TEST_P(StagnationPressure, IsTheDynamicPressure) {
    const Scene scene =
        parseScene(kTunnel, "tunnel.toml", {"solver.advection=\"" + GetParam() + "\""});
    Solver solver(scene);
    SolverSliceGrids grids(scene, solver);
    for (int frame = 1; frame <= scene.time.frames; ++frame) solver.advanceFrame(frame);
    const VolumeView v = grids.view(solver);
    ASSERT_NE(v.pressure, nullptr);
    // A cell and a half upstream of the ball's front, on its axis.
    const float dx = v.dx;
    const Vec3f p = (Vec3f(0.6f - 1.5f * dx, 0.5f, 0.5f) - v.origin) / dx;
    const float front = v.pressure->sample(p);
    const float side = v.pressure->sample((Vec3f(0.8f, 0.5f, 0.72f + dx) - v.origin) / dx);
    const float dynamic = 0.5f * kAirDensity * 1.5f * 1.5f;
    EXPECT_GT(front, 0.5f * dynamic) << GetParam();
    EXPECT_LT(front, 1.5f * dynamic) << GetParam();
    EXPECT_LT(side, 0.0f) << GetParam();  // faster flow over the top: lower pressure
}

INSTANTIATE_TEST_SUITE_P(SliceView, StagnationPressure,
                         ::testing::Values("semi-lagrangian", "maccormack", "reflection"));

}  // namespace
}  // namespace plume
