// A moving solid is the projection's boundary: faces touching it carry its
// velocity, the fluid around it is divergence-free and gets out of its way.
#include <gtest/gtest.h>

#include "core/parallel.h"
#include "sim/obstacles.h"
#include "sim/pressure/projection.h"
#include "sim/solver.h"

namespace plume {
namespace {

// A sphere of radius 0.15 m at the centre of a 1.6 x 0.8 x 0.8 m open box
// (32 x 16 x 16 cells), moving at `velocity` through still air.
Fields movingSphere(Vec3f velocity) {
    Fields f({32, 16, 16}, 0.05f);
    ObstacleSettings sphere;
    sphere.center = {0.8f, 0.4f, 0.4f};
    sphere.radius = 0.15f;
    rasterizeObstacles(f, {sphere});
    f.solidVelocity = MacVelocity(f.n);
    f.solidVelocity.u.fill(velocity.x);
    f.solidVelocity.v.fill(velocity.y);
    f.solidVelocity.w.fill(velocity.z);
    return f;
}

// The fields after `frames` frames of `scene` on `threads` threads, every
// cell starting with `density` of smoke.
Fields fieldsAfter(const Scene& scene, int frames, int threads, float density = 0.0f) {
    setThreadCount(threads);
    Solver solver(scene);
    solver.fields().density.fill(density);
    for (int frame = 1; frame <= frames; ++frame) solver.advanceFrame(frame);
    setThreadCount(0);
    return solver.fields();
}

TEST(MovingSolid, FacesMoveWithItAndTheAirIsDivergenceFree) {
    Fields f = movingSphere({0.5f, 0.0f, 0.0f});
    Projection projection(f.n,
                          {Boundary::Open, Boundary::Open, Boundary::Open, Boundary::Open,
                           Boundary::Open, Boundary::Open},
                          {}, PressureMethod::MGPCG);
    const SolveStats stats = projection.project(f, 0.02f, 1e-6f, 200);
    EXPECT_GT(stats.iterations, 0);
    EXPECT_LE(Projection::maxDivergence(f), 1e-5f * 0.5f * 6);
    // Every face of a solid cell moves with the solid, inside it too.
    int solidFaces = 0;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 1; i < f.n.x; ++i)
                if (f.solid(i, j, k) || f.solid(i - 1, j, k)) {
                    ++solidFaces;
                    ASSERT_EQ(f.u(i, j, k), 0.5f) << i << "," << j << "," << k;
                }
    EXPECT_GT(solidFaces, 100);
    // The air ahead is pushed forward, the air behind follows, the air at the
    // sphere's equator flows backward around it; far away it hardly moves.
    const int j = 8, k = 8;
    EXPECT_GT(f.u(20, j, k), 0.1f);   // a cell ahead (the sphere ends near x = 0.95 m)
    EXPECT_GT(f.u(12, j, k), 0.1f);   // a cell behind
    EXPECT_LT(f.u(16, j, 14), 0.0f);  // beside it, above the equator
    EXPECT_LT(std::fabs(f.u(1, 1, 1)), 0.05f);
}

TEST(MovingSolid, AtRestItIsAWall) {
    Fields moving = movingSphere({0.0f, 0.0f, 0.0f});
    Fields still({32, 16, 16}, 0.05f);
    still.solid = moving.solid;
    for (Fields* f : {&moving, &still}) {
        f->u.fill(0.3f);
        Projection projection(f->n,
                              {Boundary::Open, Boundary::Open, Boundary::Open, Boundary::Open,
                               Boundary::Open, Boundary::Open},
                              {}, PressureMethod::MGPCG);
        projection.project(*f, 0.02f, 1e-5f, 200);
    }
    EXPECT_EQ(moving.u.values(), still.u.values());
    EXPECT_EQ(moving.w.values(), still.w.values());
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// A ball of radius 0.12 m flying along x at 2 m/s (keys at frames 0 and 12)
// through a still layer of smoke, no buoyancy; cfl 0.5 of dx = 0.05 m.
Scene ballThroughSmoke() {
    Scene s;
    s.domain.size = {1.6f, 0.8f, 0.8f};
    s.domain.resolution = 32;
    s.domain.boundary.fill(Boundary::Open);
    s.physics.buoyancyDensity = s.physics.buoyancyHeat = 0;
    s.physics.vorticity = 0;
    s.time.cfl = 0.5f;
    s.time.maxSubsteps = 8;
    s.solver.tolerance = 1e-5f;
    ObstacleSettings ball;
    ball.radius = 0.12f;
    ball.center = {0.3f, 0.4f, 0.4f};
    ball.animation.tracks.push_back(
        {"center", {}, {{0.0, {0.3f, 0.4f, 0.4f}}, {12.0, {1.3f, 0.4f, 0.4f}}}});
    s.obstacles.push_back(ball);
    return s;
}

TEST(MovingSolid, KeyedBallPushesTheSmokeAndNeverHoldsAny) {
    Solver solver(ballThroughSmoke());
    Fields& f = solver.fields();
    f.density.fill(1.0f);
    for (int frame = 1; frame <= 6; ++frame) {
        const FrameStats stats = solver.advanceFrame(frame);
        // The ball's speed sets the substeps once it moves: 2 m/s over 1/24 s
        // is 1.67 cells, 3.3 steps of 0.5 (frame 1 starts from its key at rest).
        if (frame >= 2) {
            EXPECT_EQ(stats.substeps, 4) << "frame " << frame;
        }
        int inside = 0;
        for (int k = 0; k < f.n.z; ++k)
            for (int j = 0; j < f.n.y; ++j)
                for (int i = 1; i < f.n.x; ++i) {
                    if (!f.solid(i, j, k)) continue;
                    ++inside;
                    ASSERT_EQ(f.density(i, j, k), 0.0f) << "frame " << frame;
                    if (f.solid(i - 1, j, k)) {
                        ASSERT_NEAR(f.u(i, j, k), 2.0f, 1e-3f) << "frame " << frame;
                    }
                    ASSERT_NEAR(f.v(i, j, k), 0.0f, 1e-4f);
                }
        EXPECT_GT(inside, 20) << "frame " << frame;
        EXPECT_LT(Projection::maxDivergence(f), 1e-3f);
    }
    // After six frames (t = 0.25 s) the ball is at x = 0.8 m; the air a cell
    // ahead of it moves forward with it.
    const int ahead = int((0.8f + 0.12f) / 0.05f) + 1;
    EXPECT_GT(f.u(ahead, 8, 8), 0.3f);
}

TEST(MovingSolid, KeyedBallIsBitIdenticalForAnyThreadCount) {
    const Fields a = fieldsAfter(ballThroughSmoke(), 3, 1, 1.0f);
    const Fields b = fieldsAfter(ballThroughSmoke(), 3, 3, 1.0f);
    EXPECT_EQ(a.u.values(), b.u.values());
    EXPECT_EQ(a.density.values(), b.density.values());
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// A keyed emitter moving along x at 1.2 m/s with no velocity of its own
// gives its smoke inherit_velocity times its motion.
TEST(MovingEmitter, SmokeInheritsTheEmittersMotion) {
    auto uInside = [](float inherit) {
        Scene s;
        s.domain.size = {2.0f, 1.0f, 1.0f};
        s.domain.resolution = 40;
        s.domain.boundary.fill(Boundary::Open);
        s.physics.buoyancyDensity = s.physics.buoyancyHeat = 0;
        s.physics.vorticity = 0;
        EmitterSettings torch;
        torch.radius = 0.15f;
        torch.inheritVelocity = inherit;
        torch.animation.tracks.push_back(
            {"center", {}, {{0.0, {0.4f, 0.5f, 0.5f}}, {24.0, {1.6f, 0.5f, 0.5f}}}});
        s.emitters.push_back(torch);
        Solver solver(s);
        solver.advanceFrame(1);
        solver.substep(0.01f);
        // Right after the emitters ran, before advection moved anything far:
        // the face at the torch's centre, x = 0.4 + 1.2 * (1/24 + 0.005) m.
        const Fields& f = solver.fields();
        return f.u(int((0.4f + 1.2f * (1.0f / 24 + 0.005f)) / 0.05f + 0.5f), 10, 10);
    };
    // The projection spreads the imposed velocity into the still air around
    // (a moving ball of air), so the centre keeps most of it, not all.
    const float none = uInside(0.0f), full = uInside(1.0f), halfway = uInside(0.5f);
    EXPECT_NEAR(none, 0.0f, 0.05f);
    EXPECT_GT(full, 0.8f);
    EXPECT_LT(full, 1.3f);
    EXPECT_NEAR(halfway, 0.5f * full, 0.1f * full);
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// A flat box paddle (0.6 x 0.1 x 0.3 m) at the centre of a closed
// 1.2 x 1.2 x 0.6 m box, turning about z at `turnsPerSecond`.
Scene paddle(float turnsPerSecond) {
    Scene s;
    s.domain.size = {1.2f, 1.2f, 0.6f};
    s.domain.resolution = 24;
    s.domain.boundary.fill(Boundary::Wall);
    s.physics.buoyancyDensity = s.physics.buoyancyHeat = 0;
    s.physics.vorticity = 0;
    s.time.cfl = 1.0f;
    s.time.maxSubsteps = 8;
    ObstacleSettings blade;
    blade.shape = Shape::Box;
    blade.center = {0.6f, 0.6f, 0.3f};
    blade.size = {0.6f, 0.1f, 0.3f};
    blade.animation.tracks.push_back(
        {"rotation", {}, {{0.0, {0.0f, 0.0f, 0.0f}}, {24.0, {0.0f, 0.0f, 360.0f * turnsPerSecond}}}});
    s.obstacles.push_back(blade);
    return s;
}

// Angular momentum about the paddle's axis (per unit density) of the air
// outside the paddle: the sum over fluid cells of (r x u).z.
double airAngularMomentum(const Fields& f) {
    double l = 0.0;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                if (f.solid(i, j, k)) continue;
                const double x = (i + 0.5) * f.dx - 0.6, y = (j + 0.5) * f.dx - 0.6;
                const double u = 0.5 * (f.u(i, j, k) + f.u(i + 1, j, k));
                const double v = 0.5 * (f.v(i, j, k) + f.v(i, j + 1, k));
                l += x * v - y * u;
            }
    return l * f.dx * f.dx * f.dx;
}

TEST(MovingSolid, RotatingPaddleSpinsTheAirItsWay) {
    auto spin = [](float turnsPerSecond) {
        Solver solver(paddle(turnsPerSecond));
        for (int frame = 1; frame <= 8; ++frame) solver.advanceFrame(frame);
        return std::pair(airAngularMomentum(solver.fields()), solver.fields());
    };
    const double still = spin(0.0f).first;
    const auto [ccw, ccwFields] = spin(0.5f);
    const double cw = spin(-0.5f).first;
    EXPECT_EQ(still, 0.0);
    // Half a turn per second: the blade's tip (r = 0.3 m) moves at 0.94 m/s.
    // The air it drags turns with it, and the other way for the other way.
    // Measured: 0.64 of a solid disc as wide and tall as the blade's sweep.
    const double disc = M_PI * std::pow(0.3, 4) / 2 * 0.3 * M_PI;
    EXPECT_GT(ccw, 0.3 * disc);
    EXPECT_LT(ccw, 1.0 * disc);
    EXPECT_LT(cw, -0.3 * disc);
    EXPECT_NEAR(ccw, -cw, 0.05 * ccw);
    // The solid's faces carry its rotation (after 8 frames the blade has
    // turned 60 degrees): a face inside it moves at omega x r.
    const float omega = float(M_PI);
    const Fields& f = ccwFields;
    int checked = 0;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 1; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i)
                if (f.solid(i, j, k) && f.solid(i, j - 1, k)) {
                    const float x = (i + 0.5f) * f.dx - 0.6f;
                    EXPECT_NEAR(f.v(i, j, k), omega * x, 0.01f * omega * 0.3f)
                        << i << "," << j << "," << k;
                    ++checked;
                }
    EXPECT_GT(checked, 10);
}

TEST(MovingSolid, RotatingPaddleIsBitIdenticalForAnyThreadCount) {
    const Fields a = fieldsAfter(paddle(0.5f), 3, 1), b = fieldsAfter(paddle(0.5f), 3, 3);
    EXPECT_EQ(a.u.values(), b.u.values());
    EXPECT_EQ(a.v.values(), b.v.values());
}

}  // namespace
}  // namespace plume
