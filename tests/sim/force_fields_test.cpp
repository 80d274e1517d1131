// [[field]]s on the air (sim/force_fields.h): each type against the motion it
// must give, the falloff against Blender's curve, the turbulence's statistics,
// and the same bits for any thread count.
#include "sim/force_fields.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/parallel.h"
#include "sim/solver.h"

namespace plume {
namespace {

// Air that nothing but the fields moves: no buoyancy, confinement or
// dissipation; a dense solve (fields act on the whole domain), every side as given.
Scene stillAirScene(Vec3f size, int resolution, Boundary sides) {
    Scene s;
    s.domain.size = size;
    s.domain.resolution = resolution;
    s.domain.boundary.fill(sides);
    s.physics.buoyancyDensity = 0;
    s.physics.buoyancyHeat = 0;
    s.physics.vorticity = 0;
    s.physics.temperatureDissipation = 0;
    s.physics.densityDissipation = 0;
    s.solver.sparse = false;
    s.time.fps = 24;
    return s;
}

// Still smoke: a sphere of density 1 put in on frame 1 only, at rest.
EmitterSettings smokePuff(Vec3f center, float radius) {
    EmitterSettings e;
    e.center = center;
    e.radius = radius;
    e.temperature = 0.0f;
    e.frames = {1, 1};
    return e;
}

FieldSettings fieldOf(FieldType type, float strength) {
    FieldSettings field;
    field.type = type;
    field.strength = strength;
    return field;
}

// Blender's falloff_func (effect.cc), written out again here so the test
// does not take the code's word for it.
double blenderFalloff(double d, double power, double min, double max) {
    if (d > max) return 0.0;
    if (d < min) return 1.0;
    return std::pow(1.0 + d - min, -power);
}

TEST(ForceFields, WindAgainstDragSettlesAtStrengthOverDrag) {
    // Setup: still smoke in still air, no buoyancy, open on every side; a
    // wind of 2 m/s^2 along x and a drag of 2 per second everywhere. The
    // air's steady state is 2 / 2 = 1 m/s along x, reached as 1 - e^{-2t}:
    // after 3 s (72 frames) the analytic deficit is e^{-6} = 0.25%.
    Scene s = stillAirScene({2, 1, 1}, 32, Boundary::Open);
    s.emitters = {smokePuff({0.5f, 0.5f, 0.5f}, 0.2f)};
    FieldSettings wind = fieldOf(FieldType::Wind, 2.0f);
    wind.direction = {3, 0, 0};  // any length
    s.fields = {wind, fieldOf(FieldType::Drag, 2.0f)};
    Solver solver(s);
    for (int frame = 1; frame <= 72; ++frame) solver.advanceFrame(frame);
    const Fields& f = solver.fields();
    double u = 0, v = 0, w = 0;
    int cells = 0;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i, ++cells) {
                const Vec3f c = f.centredVelocity(i, j, k);
                u += c.x, v += c.y, w += c.z;
            }
    u /= cells, v /= cells, w /= cells;
    std::printf("wind against drag: mean velocity (%.5f, %.2e, %.2e) m/s, field's 1\n", u, v, w);
    EXPECT_NEAR(u, 1.0, 0.01);
    EXPECT_NEAR(v, 0.0, 0.01);
    EXPECT_NEAR(w, 0.0, 0.01);
}

TEST(ForceFields, VortexTurnsTheSmokeAtItsAngularSpeed) {
    // A vortex of 2 rad/s about the vertical axis through the domain's
    // middle, in a tube of 0.9 m, walls all round; a still puff of smoke of
    // 0.5 m at the axis. After 3 s (the air relaxes at 2 per second: e^{-6})
    // the smoke's angular momentum over its moment of inertia about the axis
    // is its angular velocity; it must not drift in or out.
    Scene s = stillAirScene({2, 2, 1}, 32, Boundary::Wall);
    const Vec3f axisPoint{1, 1, 0.5f};
    s.emitters = {smokePuff(axisPoint, 0.5f)};
    FieldSettings vortex = fieldOf(FieldType::Vortex, 2.0f);
    vortex.center = axisPoint;
    vortex.axis = {0, 0, 1};
    vortex.shape = FieldShape::Tube;
    vortex.falloffMax = 0.9f;
    s.fields = {vortex};
    Solver solver(s);
    for (int frame = 1; frame <= 72; ++frame) solver.advanceFrame(frame);
    const Fields& f = solver.fields();
    double momentum = 0, inertia = 0, radial = 0, tangential = 0, mass = 0;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                const double rho = f.density(i, j, k);
                if (rho <= 0.0) continue;
                const Vec3f r = f.cellCentre(i, j, k) - axisPoint;
                const double rx = r.x, ry = r.y, r2 = rx * rx + ry * ry;
                if (r2 == 0.0) continue;
                const Vec3f c = f.centredVelocity(i, j, k);
                momentum += rho * (rx * c.y - ry * c.x);
                inertia += rho * r2;
                radial += rho * (rx * c.x + ry * c.y) / std::sqrt(r2);
                tangential += rho * (rx * c.y - ry * c.x) / std::sqrt(r2);
                mass += rho;
            }
    const double omega = momentum / inertia;
    std::printf(
        "vortex: angular velocity %.4f rad/s (field's 2), mean radial %.2e m/s, mean "
        "tangential %.4f m/s\n",
        omega, radial / mass, tangential / mass);
    EXPECT_NEAR(omega, 2.0, 0.05 * 2.0);
    EXPECT_LT(std::fabs(radial / mass), 0.02 * tangential / mass);
}

// A vortex turns the air across its axis and leaves the flow along it: air
// rising at 1 m/s through a vortex about z still rises at 1 m/s (a vortex
// that relaxed every face toward the rotation held a buoyant plume on the
// ground), and its horizontal faces move toward the rotation.
TEST(ForceFields, VortexLeavesTheFlowAlongItsAxis) {
    Fields f({16, 16, 16}, 0.1f);
    ScratchArena scratch;
    f.w.values().assign(f.w.values().size(), 1.0f);
    FieldSettings vortex = fieldOf(FieldType::Vortex, 2.0f);
    vortex.center = {0.8f, 0.8f, 0.8f};
    vortex.axis = {0.0f, 0.0f, 1.0f};
    addForceFields(f, {vortex}, 0.0, 0.1f, scratch);
    for (float w : f.w.values()) ASSERT_EQ(w, 1.0f);
    // A u face at y = 1.25 m, 0.45 m off the axis: toward -2 * 0.45 m/s.
    const float u = f.u(8, 12, 8);
    EXPECT_LT(u, -0.1f);
    EXPECT_GT(u, -0.9f);
}

TEST(ForceFields, FalloffFollowsBlendersCurveAndStopsAtMax) {
    // A wind of 3 m/s^2 along x in a sphere falloff (power 2, min 0.3 m, max
    // 1.5 m) from a center at the row's start: one push of dt on still air,
    // each u face's change against dt * 3 * Blender's falloff at its distance.
    Fields f({40, 8, 8}, 0.05f);
    ScratchArena scratch;
    FieldSettings wind = fieldOf(FieldType::Wind, 3.0f);
    wind.shape = FieldShape::Sphere;
    wind.center = {0.1f, 0.2f, 0.2f};
    wind.falloffPower = 2.0f;
    wind.falloffMin = 0.3f;
    wind.falloffMax = 1.5f;
    const float dt = 0.1f;
    addForceFields(f, {wind}, 0.0, dt, scratch);
    int inside = 0, between = 0, beyond = 0;
    double worst = 0;
    for (int k = 1; k < f.n.z - 1; ++k)
        for (int j = 1; j < f.n.y - 1; ++j)
            for (int i = 1; i < f.n.x; ++i) {
                const Vec3f p = f.point(i, j, k, Vec3f(0.0f, 0.5f, 0.5f));
                const double d = length(p - wind.center);
                const double expected = dt * 3.0 * blenderFalloff(d, 2.0, 0.3, 1.5);
                const double got = f.u(i, j, k);
                if (expected == 0.0) {
                    ++beyond;
                    ASSERT_EQ(got, 0.0) << "beyond max at d = " << d;
                    continue;
                }
                (d < 0.3 ? inside : between) += 1;
                worst = std::max(worst, std::fabs(got - expected) / expected);
                ASSERT_NEAR(got, expected, 0.02 * expected) << "d = " << d;
            }
    std::printf("falloff: %d faces within min, %d between, %d beyond max; worst %.2e relative\n",
                inside, between, beyond, worst);
    EXPECT_GT(inside, 0);
    EXPECT_GT(between, 100);
    EXPECT_GT(beyond, 0);
    for (float v : f.v.values()) ASSERT_EQ(v, 0.0f);
    for (float w : f.w.values()) ASSERT_EQ(w, 0.0f);
}

TEST(ForceFields, SmokeOnlyActsWhereTheSmokeIs) {
    // Smoke in the cells i < 10 of 20: a smoke_only wind pushes the faces
    // between smoke cells fully, the face between smoke and clear air by
    // half, and clear air not at all.
    Fields f({20, 6, 6}, 0.05f);
    for (int k = 0; k < 6; ++k)
        for (int j = 0; j < 6; ++j)
            for (int i = 0; i < 10; ++i) f.density(i, j, k) = 0.5f;
    ScratchArena scratch;
    FieldSettings wind = fieldOf(FieldType::Wind, 2.0f);
    wind.smokeOnly = true;
    addForceFields(f, {wind}, 0.0, 0.1f, scratch);
    EXPECT_FLOAT_EQ(f.u(5, 3, 3), 0.2f);
    EXPECT_FLOAT_EQ(f.u(0, 3, 3), 0.2f);  // the box's side: its one cell
    EXPECT_FLOAT_EQ(f.u(10, 3, 3), 0.1f);
    EXPECT_EQ(f.u(15, 3, 3), 0.0f);
    // A smoke_only turbulence stays divergence-free and stirs only near the smoke.
    Fields g = f;
    for (int axis = 0; axis < 3; ++axis) g.component(axis).fill(0.0f);
    FieldSettings turbulence = fieldOf(FieldType::Turbulence, 2.0f);
    turbulence.size = 0.1f;
    turbulence.smokeOnly = true;
    addForceFields(g, {turbulence}, 0.0, 0.1f, scratch);
    double near = 0, worst = 0;
    for (int k = 0; k < 6; ++k)
        for (int j = 0; j < 6; ++j)
            for (int i = 0; i < 20; ++i) {
                const double div = (double(g.u(i + 1, j, k)) - g.u(i, j, k)) +
                                   (double(g.v(i, j + 1, k)) - g.v(i, j, k)) +
                                   (double(g.w(i, j, k + 1)) - g.w(i, j, k));
                worst = std::max(worst, std::fabs(div));
                if (i < 10) near += std::fabs(g.w(i, j, k));
            }
    EXPECT_GT(near, 0.0);
    EXPECT_LT(worst, 1e-5 * near / (20 * 6 * 6));
    double beyond = 0;
    for (int k = 0; k < 6; ++k)
        for (int j = 0; j < 6; ++j)
            for (int i = 12; i < 20; ++i) beyond += std::fabs(g.w(i, j, k));
    EXPECT_EQ(beyond, 0.0);
}

// The change one push of a turbulence field of `strength` makes to still air.
Fields turbulencePush(float strength) {
    Fields f({32, 32, 32}, 1.0f / 16.0f);
    ScratchArena scratch;
    FieldSettings turbulence = fieldOf(FieldType::Turbulence, strength);
    turbulence.size = 0.25f;
    turbulence.speed = 2.0f;
    turbulence.seed = 3;
    addForceFields(f, {turbulence}, 1.3, 0.05f, scratch);
    return f;
}

TEST(ForceFields, TurbulenceIsZeroMeanDivergenceFreeAndScalesWithStrength) {
    const Fields f = turbulencePush(1.0f);
    double sum[3] = {0, 0, 0}, squares = 0;
    long count = 0;
    for (int axis = 0; axis < 3; ++axis)
        for (float x : f.component(axis).values()) {
            sum[axis] += x;
            squares += double(x) * x;
            ++count;
        }
    const double rms = std::sqrt(squares / count);
    // The divergence of the push in every cell, the box's sides' too
    // (pushed as the rest), against rms / dx.
    double worstDivergence = 0;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                const double div = (double(f.u(i + 1, j, k)) - f.u(i, j, k)) +
                                   (double(f.v(i, j + 1, k)) - f.v(i, j, k)) +
                                   (double(f.w(i, j, k + 1)) - f.w(i, j, k));
                worstDivergence = std::max(worstDivergence, std::fabs(div) / rms);
            }
    std::printf(
        "turbulence: rms %.4e m/s, means (%.2e, %.2e, %.2e), divergence at most %.2e of "
        "rms / dx\n",
        rms, sum[0] / count, sum[1] / count, sum[2] / count, worstDivergence);
    ASSERT_GT(rms, 0.0);
    for (double s : sum) EXPECT_LT(std::fabs(s / count), 0.05 * rms);
    EXPECT_LT(worstDivergence, Scene().solver.tolerance);

    // Three times the strength, three times every face's change.
    const Fields g = turbulencePush(3.0f);
    double squares3 = 0;
    for (int axis = 0; axis < 3; ++axis)
        for (float x : g.component(axis).values()) squares3 += double(x) * x;
    EXPECT_NEAR(std::sqrt(squares3 / count) / rms, 3.0, 3e-5);
}

TEST(ForceFields, TurbulenceAfterTheProjectionIsWithinTheTolerance) {
    // Through the solver: the projected velocity's residual is the solver's.
    Scene s = stillAirScene({1, 1, 1}, 24, Boundary::Wall);
    FieldSettings turbulence = fieldOf(FieldType::Turbulence, 4.0f);
    turbulence.size = 0.2f;
    s.fields = {turbulence};
    Solver solver(s);
    const FrameStats stats = solver.advanceFrame(1);
    EXPECT_LT(stats.pressureResidual, s.solver.tolerance);
    double squares = 0;
    for (float x : solver.fields().u.values()) squares += double(x) * x;
    EXPECT_GT(squares, 0.0);
}

TEST(ForceFields, CurvePullsOntoItsPointsAndAlongThem) {
    // A curve along x through the middle of the box, radius 0.3 m: a face
    // below it is pushed along (+x) and up toward it; one beyond the radius
    // not at all.
    Fields f({20, 20, 20}, 0.05f);
    ScratchArena scratch;
    FieldSettings curve = fieldOf(FieldType::Curve, 2.0f);
    curve.points = {{0.1f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}, {0.9f, 0.5f, 0.5f}};
    curve.radius = 0.3f;
    addForceFields(f, {curve}, 0.0, 0.1f, scratch);
    // u at (x 0.5, y 0.525, z 0.325), w at (x 0.525, y 0.525, z 0.3): 0.175 m and 0.2 m below.
    EXPECT_NEAR(f.u(10, 10, 6), 0.1f * 2.0f, 1e-6f);
    EXPECT_NEAR(f.w(10, 10, 6), 0.1f * 2.0f * (0.2f / 0.3f), 1e-5f);
    EXPECT_EQ(f.w(10, 10, 2), 0.0f);  // 0.4 m below: beyond the radius
    EXPECT_EQ(f.u(10, 10, 2), 0.0f);
}

TEST(ForceFields, AttractPullsTowardItsCenter) {
    Fields f({20, 20, 20}, 0.05f);
    ScratchArena scratch;
    FieldSettings attract = fieldOf(FieldType::Attract, 1.5f);
    attract.center = {0.5f, 0.5f, 0.5f};
    addForceFields(f, {attract}, 0.0, 0.1f, scratch);
    EXPECT_GT(f.u(4, 10, 10), 0.0f);  // left of center: pushed +x
    EXPECT_LT(f.u(16, 10, 10), 0.0f);
    const Vec3f p = f.point(4, 10, 10, Vec3f(0.0f, 0.5f, 0.5f));
    EXPECT_NEAR(f.u(4, 10, 10), 0.15f * normalize(attract.center - p).x, 1e-6f);
}

// A scene with every type of field, a keyed one and a keyed physics.wind.
Scene everyFieldScene() {
    Scene s = stillAirScene({1, 1, 1}, 40, Boundary::Open);
    s.emitters = {smokePuff({0.5f, 0.5f, 0.4f}, 0.2f)};
    s.emitters[0].frames = {1, 100};
    s.physics.buoyancyHeat = 0.5f;
    s.emitters[0].temperature = 1.0f;
    std::vector<FieldSettings>& fields = s.fields;
    fields.push_back(fieldOf(FieldType::Wind, 1.0f));
    fields.back().animation.tracks.push_back({"strength", {{1, 0.5f}, {3, 2.0f}}, {}});
    fields.push_back(fieldOf(FieldType::Vortex, 3.0f));
    fields.back().center = {0.5f, 0.5f, 0.5f};
    fields.back().shape = FieldShape::Tube;
    fields.back().falloffPower = 1.0f;
    fields.push_back(fieldOf(FieldType::Turbulence, 3.0f));
    fields.back().size = 0.2f;
    fields.push_back(fieldOf(FieldType::Attract, -1.0f));
    fields.back().center = {0.5f, 0.5f, 0.8f};
    fields.back().shape = FieldShape::Cone;
    fields.push_back(fieldOf(FieldType::Drag, 0.5f));
    fields.push_back(fieldOf(FieldType::Curve, 1.0f));
    fields.back().points = {{0.2f, 0.2f, 0.2f}, {0.8f, 0.8f, 0.8f}};
    s.physicsAnimation.tracks.push_back({"wind", {}, {{1, {0, 0, 0}}, {3, {0.5f, 0, 0}}}});
    return s;
}

TEST(ForceFields, SameBitsForOneAndTwoThreads) {
    auto run = [](int threads) {
        setThreadCount(threads);
        Solver solver(everyFieldScene());
        for (int frame = 1; frame <= 3; ++frame) solver.advanceFrame(frame);
        setThreadCount(0);
        return solver.fields();
    };
    const Fields a = run(1), b = run(2);
    for (auto [x, y] :
         {std::pair{&a.u, &b.u}, {&a.v, &b.v}, {&a.w, &b.w}, {&a.density, &b.density}}) {
        ASSERT_EQ(x->values().size(), y->values().size());
        for (size_t n = 0; n < x->values().size(); ++n)
            ASSERT_EQ(x->values()[n], y->values()[n]) << n;
    }
    double squares = 0;
    for (float x : a.u.values()) squares += double(x) * x;
    EXPECT_GT(squares, 0.0);
}

// The air's mean speed along x after three frames of `s`.
double meanUAfterThreeFrames(const Scene& s) {
    Solver solver(s);
    for (int frame = 1; frame <= 3; ++frame) solver.advanceFrame(frame);
    double sum = 0;
    for (float x : solver.fields().u.values()) sum += x;
    return sum / double(solver.fields().u.values().size());
}

TEST(ForceFields, KeyedFieldsArePosedEverySubstep) {
    // The wind field's strength keyed from 0.5 to 2 over frames 1 to 3 (its
    // own value, 5, is the keys' to replace): the air ends between the same
    // field held at 0.5 and held at 2.
    Scene keyed = everyFieldScene();
    keyed.domain.resolution = 20;
    keyed.physicsAnimation = {};
    keyed.fields[0].strength = 5.0f;
    Scene low = keyed;
    low.fields[0].animation = {};
    low.fields[0].strength = 0.5f;
    Scene high = low;
    high.fields[0].strength = 2.0f;
    EXPECT_TRUE(keyed.forcesMove());
    EXPECT_FALSE(low.forcesMove());
    const double k = meanUAfterThreeFrames(keyed), l = meanUAfterThreeFrames(low),
                 h = meanUAfterThreeFrames(high);
    EXPECT_LT(l, k);
    EXPECT_LT(k, h);
}

TEST(ForceFields, KeyedPhysicsWindIsPosedEverySubstep) {
    // physics.wind keyed from 0 to 0.5 m/s along x (its own 5 m/s the keys'
    // to replace): less than the wind held at 0.5, more than none.
    Scene keyed = stillAirScene({1, 1, 1}, 16, Boundary::Open);
    keyed.physics.wind = {5, 0, 0};
    keyed.physicsAnimation.tracks.push_back({"wind", {}, {{1, {0, 0, 0}}, {3, {0.5f, 0, 0}}}});
    Scene held = keyed;
    held.physicsAnimation = {};
    held.physics.wind = {0.5f, 0, 0};
    EXPECT_TRUE(keyed.forcesMove());
    const double k = meanUAfterThreeFrames(keyed), h = meanUAfterThreeFrames(held);
    EXPECT_GT(k, 0.0);
    EXPECT_LT(k, h);
}

}  // namespace
}  // namespace plume
