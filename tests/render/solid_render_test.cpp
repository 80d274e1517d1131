// Solids and the ground in the frame: drawn where they are, opaque, lit and
// shadowed by the smoke and by each other, composited with the smoke in
// depth order, with anti-aliased silhouettes.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numbers>
#include <vector>

#include "core/parallel.h"
#include "core/triangle_mesh.h"
#include "io/scene_geometry.h"
#include "render/renderer.h"

namespace plume {
namespace {

constexpr int kW = 96, kH = 96;
constexpr int kN = 32;  // cells over the 1 m domain
constexpr float kDx = 1.0f / kN;

// A camera 3 m in front (-Y) of a 1 m domain, looking at its centre; one
// light straight down.
Scene viewScene() {
    Scene s;
    s.domain.size = {1, 1, 1};
    s.domain.resolution = kN;
    s.render.width = kW;
    s.render.height = kH;
    s.camera.position = {0.5f, -2.5f, 0.5f};
    s.camera.lookAt = {0.5f, 0.5f, 0.5f};
    s.camera.fov = 30.0f;
    s.camera.given = true;
    LightSettings sun;
    sun.direction = {0.0f, 0.0f, -1.0f};
    sun.intensity = 3.0f;
    s.lights = {sun};
    return s;
}

ObstacleSettings ball(Vec3f center, float radius) {
    ObstacleSettings o;
    o.shape = Shape::Sphere;
    o.center = center;
    o.radius = radius;
    o.color = {0.6f, 0.5f, 0.4f};
    return o;
}

// Uniform density inside [lo, hi] (metres), zero elsewhere.
ScalarGrid slab(Vec3f lo, Vec3f hi, float rho) {
    ScalarGrid g(kN, kN, kN);
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) {
                const Vec3f p = Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * kDx;
                if (p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y &&
                    p.z <= hi.z)
                    g(i, j, k) = rho;
            }
    return g;
}

struct Frame {
    std::vector<float> rgb, t;
    Vec3f at(int x, int y) const {
        const size_t i = (size_t(y) * kW + x) * 3;
        return {rgb[i], rgb[i + 1], rgb[i + 2]};
    }
    float transmittance(int x, int y) const { return t[size_t(y) * kW + x]; }
};

Frame render(const Scene& s, const ScalarGrid& density, int frame = 1) {
    Renderer renderer(s);
    const LinearImage& image = renderer.trace({&density, nullptr, {0, 0, 0}, kDx}, frame);
    return {image.rgb, image.transmittance};
}

float luminance(Vec3f c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }

// The pixel a world point projects to (the camera looks along +Y).
std::pair<int, int> project(Vec3f p) {
    const float depth = p.y + 2.5f;
    const float half = std::tan(15.0f * std::numbers::pi_v<float> / 180.0f);
    const float sx = (p.x - 0.5f) / depth / half, sy = (p.z - 0.5f) / depth / half;
    return {int((sx + 1.0f) * 0.5f * kW), int((1.0f - sy) * 0.5f * kH)};
}

TEST(SolidRender, SphereIsOpaqueWhereItIsAndNowhereElse) {
    Scene s = viewScene();
    s.obstacles = {ball({0.5f, 0.5f, 0.5f}, 0.2f)};
    const ScalarGrid empty(kN, kN, kN);
    const Frame f = render(s, empty);
    // Its silhouette: a disc of radius atan(r / d) on the image (d = 3 m).
    int opaque = 0, partial = 0;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const float t = f.transmittance(x, y);
            opaque += t == 0.0f;
            partial += t > 0.0f && t < 1.0f;
        }
    const float half = std::tan(15.0f * std::numbers::pi_v<float> / 180.0f);
    const float radiusPixels = 0.2f / std::sqrt(9.0f - 0.04f) / half * 0.5f * kH;
    const float disc = std::numbers::pi_v<float> * radiusPixels * radiusPixels;
    EXPECT_NEAR(opaque + 0.5f * partial, disc, 0.03f * disc);
    // Anti-aliased: the silhouette's pixels are partly covered.
    EXPECT_GT(partial, int(2.0f * radiusPixels));
    // Lit from straight above: its top is brighter than its bottom, which
    // only the world below lights; corners are background.
    const auto [cx, cy] = project({0.5f, 0.3f, 0.5f});
    const Vec3f top = f.at(cx, cy - int(0.8f * radiusPixels));
    const Vec3f bottom = f.at(cx, cy + int(0.8f * radiusPixels));
    EXPECT_GT(luminance(top), 3.0f * luminance(bottom));
    EXPECT_GT(top.x, top.z);  // its own colour: more red than blue
    EXPECT_EQ(f.transmittance(0, 0), 1.0f);
    EXPECT_EQ(f.at(0, 0), Vec3f(0.0f));
}

TEST(SolidRender, InvisibleObstacleIsNotDrawn) {
    Scene s = viewScene();
    const ScalarGrid smoke = slab({0.3f, 0.3f, 0.1f}, {0.7f, 0.7f, 0.4f}, 0.5f);
    const Frame none = render(s, smoke);
    s.obstacles = {ball({0.5f, 0.5f, 0.7f}, 0.15f)};
    s.obstacles[0].visible = false;
    const Frame hidden = render(s, smoke);
    EXPECT_EQ(none.rgb, hidden.rgb);
    EXPECT_EQ(none.t, hidden.t);
}

TEST(SolidRender, SmokeInFrontCoversItSmokeBehindIsHidden) {
    Scene s = viewScene();
    s.obstacles = {ball({0.5f, 0.5f, 0.5f}, 0.2f)};
    const ScalarGrid empty(kN, kN, kN);
    // A thin slab in front of the ball (y < 0.25 m), another behind it (y > 0.75 m),
    // both beside the light's way to the ball's front.
    const ScalarGrid front = slab({0.0f, 0.1f, 0.0f}, {1.0f, 0.25f, 1.0f}, 0.5f);
    const ScalarGrid behind = slab({0.0f, 0.75f, 0.0f}, {1.0f, 0.9f, 1.0f}, 0.5f);
    const auto [cx, cy] = project({0.5f, 0.3f, 0.5f});
    const Frame alone = render(s, empty), inFront = render(s, front), inBehind = render(s, behind);
    // Behind: the ball's pixel is the ball alone, exactly.
    EXPECT_EQ(inBehind.at(cx, cy), alone.at(cx, cy));
    EXPECT_EQ(inBehind.transmittance(cx, cy), 0.0f);
    // In front: the ball shows through what the slab lets pass, plus the
    // slab's own light; exp(-40 * 0.5 * 0.15) = 0.05.
    EXPECT_EQ(inFront.transmittance(cx, cy), 0.0f);
    const Vec3f covered = inFront.at(cx, cy);
    EXPECT_NE(covered, alone.at(cx, cy));
    // Beside the ball the slab is smoke over the background, not opaque.
    EXPECT_GT(inFront.transmittance(24, cy), 0.01f);
    EXPECT_LT(inFront.transmittance(24, cy), 0.2f);
}

TEST(SolidRender, GroundCatchesTheShadowsOfSmokeAndSolids) {
    Scene s = viewScene();
    s.camera.position = {0.5f, -2.0f, 1.6f};  // looking down at the ground
    s.camera.lookAt = {0.5f, 0.5f, 0.0f};
    s.ground.enabled = true;
    s.ground.height = 0.0f;
    s.ground.color = {0.5f, 0.5f, 0.5f};
    // Smoke above the left of the ground, a ball above its right; the sun straight down.
    const ScalarGrid smoke = slab({0.05f, 0.3f, 0.5f}, {0.35f, 0.7f, 0.7f}, 0.3f);
    s.obstacles = {ball({0.75f, 0.5f, 0.5f}, 0.12f)};
    Renderer renderer(s);
    const LinearImage& f = renderer.trace({&smoke, nullptr, {0, 0, 0}, kDx}, 1);
    const Camera camera(s.camera, kW, kH);
    // Where the camera sees a ground point.
    auto groundPixel = [&](float x, float y) {
        const Vec3f p{x, y, 0.0f}, eye = s.camera.position;
        // Search the image for the pixel whose ray lands closest to p.
        int best = 0;
        float bestDist = 1e9f;
        for (int py = 0; py < kH; ++py)
            for (int px = 0; px < kW; ++px) {
                const Vec3f d = camera.direction(px, py);
                if (d.z >= 0.0f) continue;
                const Vec3f hit = eye + d * (-eye.z / d.z);
                const float dist = length(hit - p);
                if (dist < bestDist) bestDist = dist, best = py * kW + px;
            }
        const Vec3f c{f.rgb[best * 3], f.rgb[best * 3 + 1], f.rgb[best * 3 + 2]};
        return luminance(c);
    };
    const float open = groundPixel(0.5f, 0.15f);
    const float underSmoke = groundPixel(0.2f, 0.5f);
    const float underBall = groundPixel(0.75f, 0.5f);
    // The smoke lets exp(-40 * 0.3 * 0.2) = 0.09 of the sun through, plus
    // sky; the ball none of the sun.
    EXPECT_LT(underSmoke, 0.6f * open);
    EXPECT_LT(underBall, 0.6f * open);
    EXPECT_GT(underBall, 0.0f);  // the sky still lights it

    // A shadow catcher draws nothing but the shadow, into alpha.
    s.ground.shadowCatcher = true;
    Renderer catcher(s);
    const LinearImage& c = catcher.trace({&smoke, nullptr, {0, 0, 0}, kDx}, 1);
    float openT = 0, shadowT = 1;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const size_t i = size_t(y) * kW + x;
            if (c.transmittance[i] == 1.0f) {
                // Nothing drawn here: no light either.
                ASSERT_EQ(c.rgb[i * 3], 0.0f);
                openT = 1;
            }
            shadowT = std::min(shadowT, c.transmittance[i]);
        }
    EXPECT_EQ(openT, 1.0f);
    EXPECT_LT(shadowT, 0.5f);
}

// A ball above a sunlit ground, no smoke: the ground's bounce lights its
// underside. The march's surfaces against the path tracer's (which bounces
// off the ground as off any diffuse surface), over the ball's upper and lower
// halves, within 3% (the path tracer's noise at 256 samples is under 1%).
TEST(SolidRender, GroundBounceLightsTheUndersideAsThePathTracerDoes) {
    Scene s = viewScene();
    s.ground.enabled = true;
    s.ground.color = {0.6f, 0.6f, 0.6f};
    s.lights[0].direction = normalize(Vec3f(0.4f, 0.3f, -1.0f));
    s.obstacles = {ball({0.5f, 0.5f, 0.5f}, 0.2f)};
    s.obstacles[0].color = {0.8f, 0.8f, 0.8f};
    const ScalarGrid empty(kN, kN, kN);
    const Frame march = render(s, empty);
    s.render.integrator = Integrator::Path;
    s.render.samples = 256;
    const Frame path = render(s, empty);
    const auto [cx, cy] = project({0.5f, 0.3f, 0.5f});
    const int r = int(0.2f / 3.0f / std::tan(15.0f * std::numbers::pi_v<float> / 180.0f) * 0.5f * kH);
    for (const int side : {-1, 1}) {
        double m = 0, p = 0;
        for (int y = cy + (side < 0 ? -r : 2); y <= cy + (side < 0 ? -2 : r); ++y)
            for (int x = cx - r; x <= cx + r; ++x) {
                if ((x - cx) * (x - cx) + (y - cy) * (y - cy) > (r - 2) * (r - 2)) continue;
                m += luminance(march.at(x, y));
                p += luminance(path.at(x, y));
            }
        ASSERT_GT(p, 0.0);
        EXPECT_NEAR(m / p, 1.0, 0.03) << (side < 0 ? "upper half" : "lower half");
    }
}

TEST(SolidRender, SolidsShadowTheSmoke) {
    Scene s = viewScene();
    // A smoke layer under a ball, the sun straight down: the smoke under the
    // ball is darker than beside it.
    const ScalarGrid smoke = slab({0.05f, 0.3f, 0.15f}, {0.95f, 0.7f, 0.3f}, 0.1f);
    s.obstacles = {ball({0.5f, 0.5f, 0.7f}, 0.15f)};
    const Frame lit = render(s, smoke);
    const auto [ux, uy] = project({0.5f, 0.3f, 0.22f});
    const auto [bx, by] = project({0.15f, 0.3f, 0.22f});
    EXPECT_LT(luminance(lit.at(ux, uy)), 0.7f * luminance(lit.at(bx, by)));
    // Without the ball (or with it invisible) both are alike.
    s.obstacles[0].visible = false;
    const Frame open = render(s, smoke);
    EXPECT_NEAR(luminance(open.at(ux, uy)), luminance(open.at(bx, by)),
                0.1f * luminance(open.at(bx, by)));
}

// A unit icosphere, `levels` times subdivided.
TriangleMesh icosphere(int levels) {
    const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
    TriangleMesh m;
    for (Vec3f p : {Vec3f(-1, t, 0), Vec3f(1, t, 0), Vec3f(-1, -t, 0), Vec3f(1, -t, 0),
                    Vec3f(0, -1, t), Vec3f(0, 1, t), Vec3f(0, -1, -t), Vec3f(0, 1, -t),
                    Vec3f(t, 0, -1), Vec3f(t, 0, 1), Vec3f(-t, 0, -1), Vec3f(-t, 0, 1)})
        m.points.push_back(normalize(p));
    m.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                   {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                   {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                   {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    for (int l = 0; l < levels; ++l) {
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> mid;
        auto middle = [&](uint32_t a, uint32_t b) {
            auto key = std::minmax(a, b);
            auto it = mid.find(key);
            if (it != mid.end()) return it->second;
            m.points.push_back(normalize(m.points[a] + m.points[b]));
            return mid[key] = uint32_t(m.points.size() - 1);
        };
        std::vector<std::array<uint32_t, 3>> next;
        for (auto [a, b, c] : m.triangles) {
            const uint32_t ab = middle(a, b), bc = middle(b, c), ca = middle(c, a);
            next.push_back({a, ab, ca});
            next.push_back({b, bc, ab});
            next.push_back({c, ca, bc});
            next.push_back({ab, bc, ca});
        }
        m.triangles = next;
    }
    return m;
}

ObstacleSettings meshBall(Vec3f center, float radius) {
    ObstacleSettings o = ball(center, 1.0f);
    o.shape = Shape::Mesh;
    o.scale = Vec3f(radius);
    const TriangleMesh mesh = icosphere(4);
    o.levelSet = std::make_shared<LevelSet>(levelSetFromMesh(mesh, kDx / radius, 3.0f));
    o.surface = std::make_shared<TriangleMesh>(mesh);
    return o;
}

TEST(SolidRender, MeshSphereMatchesTheAnalyticSphere) {
    Scene s = viewScene();
    const ScalarGrid empty(kN, kN, kN);
    s.obstacles = {ball({0.5f, 0.5f, 0.5f}, 0.2f)};
    const Frame analytic = render(s, empty);
    s.obstacles = {meshBall({0.5f, 0.5f, 0.5f}, 0.2f)};
    const Frame mesh = render(s, empty);
    // Same coverage (5120 flat triangles lie within 0.1% of the sphere's
    // radius, inside it), same light within 2% on average.
    double coverA = 0, coverM = 0, lumA = 0, lumM = 0;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            coverA += 1.0 - analytic.transmittance(x, y);
            coverM += 1.0 - mesh.transmittance(x, y);
            lumA += luminance(analytic.at(x, y));
            lumM += luminance(mesh.at(x, y));
        }
    EXPECT_NEAR(coverM, coverA, 0.01 * coverA);
    EXPECT_NEAR(lumM, lumA, 0.02 * lumA);
}

// A closed 8-vertex box as a mesh: its flat faces are drawn flat, as the
// box shape of the same size draws them (no dent where smooth corner normals
// would bend the light across a face).
TEST(SolidRender, AMeshBoxIsDrawnAsTheBoxShape) {
    TriangleMesh cube;
    for (int c = 0; c < 8; ++c)
        cube.points.push_back({c & 1 ? 0.5f : -0.5f, c & 2 ? 0.5f : -0.5f, c & 4 ? 0.5f : -0.5f});
    // Two triangles a face, wound outward.
    const uint32_t quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                  {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& q : quads) {
        cube.triangles.push_back({q[0], q[1], q[2]});
        cube.triangles.push_back({q[0], q[2], q[3]});
    }
    Scene s = viewScene();
    s.lights[0].direction = normalize(Vec3f(-0.3f, 0.6f, -1.0f));
    ObstacleSettings box = ball({0.5f, 0.5f, 0.5f}, 0.1f);
    box.shape = Shape::Box;
    box.size = {0.6f, 0.4f, 0.15f};
    box.rotation = {-25.0f, 0.0f, 30.0f};
    ObstacleSettings mesh = box;
    mesh.shape = Shape::Mesh;
    mesh.scale = box.size;
    mesh.surface = std::make_shared<TriangleMesh>(cube);
    // Its SDF as the scene loader makes it: voxels as fine as the cells once scaled up.
    mesh.levelSet = std::make_shared<LevelSet>(levelSetFromMesh(cube, kDx / 0.6f, 3.0f));
    const ScalarGrid empty(kN, kN, kN);
    s.obstacles = {box};
    const Frame shape = render(s, empty);
    s.obstacles = {mesh};
    const Frame drawn = render(s, empty);
    // Inside the silhouettes (both wholly covered) the light is the same.
    int inside = 0;
    float worst = 0.0f;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            if (shape.transmittance(x, y) > 0.0f || drawn.transmittance(x, y) > 0.0f) continue;
            ++inside;
            const float a = luminance(shape.at(x, y)), b = luminance(drawn.at(x, y));
            worst = std::max(worst, std::fabs(a - b) / std::max(a, 1e-3f));
        }
    EXPECT_GT(inside, 500);
    EXPECT_LT(worst, 0.01f) << "a pixel of the mesh's faces is lit unlike the box's";
}

// Without a camera, one framing for the whole shot: the domain from the
// front, whatever part of it the smoke fills this frame.
TEST(SolidRender, TheDefaultCameraHoldsStillAsTheSmokeGrows) {
    Scene s = viewScene();
    s.camera = CameraSettings{};
    s.camera.given = false;
    s.obstacles = {ball({0.8f, 0.5f, 0.85f}, 0.08f)};
    ScalarGrid small(8, 8, 8), whole(kN, kN, kN);
    small.fill(0.01f);
    whole.fill(0.01f);
    Renderer renderer(s);
    const LinearImage early = renderer.trace({&small, nullptr, {0.375f, 0.375f, 0.0f}, kDx}, 1);
    const std::vector<float> earlyT = early.transmittance;
    const LinearImage late = renderer.trace({&whole, nullptr, {0, 0, 0}, kDx}, 2);
    // The ball is where it was: every pixel it covers then, it covers now.
    int covered = 0;
    for (size_t i = 0; i < earlyT.size(); ++i) {
        const bool then = earlyT[i] < 0.01f, now = late.transmittance[i] < 0.01f;
        covered += then;
        EXPECT_EQ(then, now) << "pixel " << i % kW << ", " << i / kW;
    }
    EXPECT_GT(covered, 20);
}

TEST(SolidRender, BitIdenticalForAnyThreadCount) {
    Scene s = viewScene();
    s.ground.enabled = true;
    s.obstacles = {ball({0.3f, 0.5f, 0.6f}, 0.12f), meshBall({0.7f, 0.5f, 0.5f}, 0.15f)};
    s.obstacles[0].shape = Shape::Box;
    s.obstacles[0].size = {0.2f, 0.3f, 0.1f};
    s.obstacles[0].rotation = {20.0f, 30.0f, 40.0f};
    const ScalarGrid smoke = slab({0.2f, 0.3f, 0.1f}, {0.8f, 0.7f, 0.4f}, 0.5f);
    auto run = [&](int threads) {
        setThreadCount(threads);
        Frame f = render(s, smoke, 3);
        setThreadCount(0);
        return f;
    };
    const Frame one = run(1), three = run(3);
    EXPECT_EQ(one.rgb, three.rgb);
    EXPECT_EQ(one.t, three.t);
}

}  // namespace
}  // namespace plume
