// physics.time_scale (scene/shot_clock.h): simulated seconds per second of
// the shot. At 0.5 the shot's frame 2k holds the smoke of the unscaled frame
// k; keys on it slow the smoke down mid-shot; keyed shapes keep their pace in
// the shot, so to the slowed air they are faster.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "io/vdb_cache.h"
#include "scene/describe.h"
#include "scene/loader.h"
#include "scene/shot_clock.h"
#include "sim/solver.h"
#include "sim/upres/upres.h"
#include "support/run.h"
#include "support/scene_errors.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

// A hot puff rising in a 1 x 1 x 2 m box of 16 x 16 x 32 cells.
Scene puff(const std::string& physics = "") {
    return parseScene(
        "[domain]\nsize = [1.0, 1.0, 2.0]\nresolution = 32\n[time]\nframes = 48\n"
        "[physics]\nbuoyancy_heat = 2.0\ndensity_dissipation = 0.2\n" +
            physics +
            "\n[[emitter]]\ncenter = [0.5, 0.5, 0.3]\nradius = 0.15\nframes = [1, 1000]\n",
        "puff.toml", {});
}

// The density's height (centroid, m) and its total.
std::pair<double, double> rise(const Fields& f) {
    double mass = 0, moment = 0;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                mass += f.density(i, j, k);
                moment += f.density(i, j, k) * (f.origin.z + (k + 0.5) * f.dx);
            }
    return {moment / mass, mass};
}

TEST(TimeScale, HalfSpeedFrameTwoKIsFrameK) {
    Solver normal(puff()), slow(puff("time_scale = 0.5"));
    const float dx = puff().domain.dx();
    double lastGap = 0;
    for (int k = 1; k <= 12; ++k) {
        normal.advanceFrame(k);
        slow.advanceFrame(2 * k - 1);
        slow.advanceFrame(2 * k);
        if (k % 4 != 0) continue;
        const auto [zn, mn] = rise(normal.fields());
        const auto [zs, ms] = rise(slow.fields());
        EXPECT_NEAR(zs, zn, 2 * dx) << "frame " << 2 * k << " against frame " << k;
        EXPECT_NEAR(ms, mn, 0.1 * mn) << "frame " << 2 * k << " against frame " << k;
        EXPECT_NEAR(slow.fields().time, normal.fields().time, 1e-6);
        lastGap = std::fabs(zs - zn);
    }
    // Not the same for want of rising: by frame 12 the puff rose many cells.
    const auto [zNow, unused] = rise(normal.fields());
    EXPECT_GT(zNow - 0.3, 6 * dx);
    EXPECT_LT(lastGap, 2 * dx);
}

// Upres's fine smoke follows too: its substeps, noise and stirring count in
// simulated time, so the fine frame 2k at half speed is the fine frame k.
TEST(TimeScale, UpresFollows) {
    auto run = [](const std::string& physics, int frames) {
        Scene s = puff(physics);
        s.domain.resolution = 16;
        s.upres.factor = 2;
        Solver solver(s);
        Upres upres(s);
        for (int f = 1; f <= frames; ++f) {
            solver.advanceFrame(f);
            upres.advance(solver.islandFields(), f);
        }
        return std::pair(rise(upres.fine()), upres.time());
    };
    const auto [normal, normalTime] = run("", 8);
    const auto [slow, slowTime] = run("time_scale = 0.5", 16);
    // Frame 24: the rise from frame 8 well past the tolerance, whatever the strength.
    const auto [ahead, unused] = run("", 24);
    const float fineDx = 2.0f / 32;
    EXPECT_NEAR(slowTime, normalTime, 1e-6);
    EXPECT_NEAR(slow.first, normal.first, 2 * fineDx);
    EXPECT_NEAR(slow.second, normal.second, 0.1 * normal.second);
    EXPECT_GT(ahead.first, normal.first + 2 * fineDx) << "the unscaled frame 24 rose further";
}

// Keys at 1 are no keys: the same bits, also for a keyed torch (placed by
// the shot's clock, which without a time_scale is the simulation's own).
TEST(TimeScale, KeysAtOneAreBitIdenticalToNone) {
    const std::string torch =
        "[[emitter]]\nradius = 0.1\n[[emitter.key]]\nframe = 0\ncenter = [0.3, 0.5, 0.4]\n"
        "[[emitter.key]]\nframe = 5\ncenter = [0.7, 0.45, 0.5]\n";
    Solver plain(puff(torch));
    Scene keyed = puff(
        "time_scale = 1.0\n[[physics.key]]\nframe = 1\ntime_scale = 1.0\n[[physics.key]]\n"
        "frame = 10\ntime_scale = 1.0\n" +
        torch);
    ASSERT_EQ(keyed.physicsAnimation.tracks.size(), 1u);
    Solver one(keyed);
    for (int f = 1; f <= 4; ++f) plain.advanceFrame(f), one.advanceFrame(f);
    const Fields &a = plain.fields(), &b = one.fields();
    ASSERT_EQ(a.density.size(), b.density.size());
    EXPECT_EQ(std::memcmp(a.density.data(), b.density.data(), a.density.size() * 4), 0);
    EXPECT_EQ(std::memcmp(a.w.data(), b.w.data(), a.w.size() * 4), 0);
}

// Bullet time: full speed, then keyed down to a tenth from frame 8 to 10.
TEST(TimeScale, KeysSlowTheSmokeMidShot) {
    const std::string keys =
        "[[physics.key]]\nframe = 8\ntime_scale = 1.0\n[[physics.key]]\nframe = 10\n"
        "time_scale = 0.1\n";
    Solver solver(puff(keys));
    const ShotClock clock(puff(keys));
    EXPECT_EQ(clock.scale(9.0 / 24), 0.55f);
    // Frame index 11 runs from shot time 10 / 24 on, all of it at 0.1.
    EXPECT_NEAR(clock.simStart(12) - clock.simStart(11), 0.1 / 24, 1e-9);
    double z[17];
    for (int f = 1; f <= 16; ++f) {
        solver.advanceFrame(f);
        z[f] = rise(solver.fields()).first;
    }
    const double fast = z[7] - z[5], slow = z[16] - z[14];
    EXPECT_GT(fast, 0.0);
    EXPECT_LT(slow, 0.25 * fast);
}

// A torch keyed to cross at 1.2 m/s of the shot: at time_scale 0.5 the air
// sees it move 2.4 m per simulated second, and its smoke takes that.
TEST(TimeScale, KeyedShapesKeepTheirPaceInTheShot) {
    auto uInside = [](const std::string& physics) {
        Scene s = parseScene(
            "[domain]\nsize = [2.0, 1.0, 1.0]\nresolution = 40\nboundary = \"open\"\n"
            "[physics]\nbuoyancy_density = 0.0\nbuoyancy_heat = 0.0\nvorticity = 0.0\n" +
                physics +
                "\n[[emitter]]\nradius = 0.15\n[[emitter.key]]\nframe = 0\ncenter = [0.4, 0.5, "
                "0.5]\n[[emitter.key]]\nframe = 24\ncenter = [1.6, 0.5, 0.5]\n",
            "torch.toml", {});
        Solver solver(s);
        solver.advanceFrame(1);
        // The face at the torch's place mid-frame, in the island's cells.
        const Fields& f = solver.fields();
        return f.u(int((0.4f + 0.6f / 24) / 0.05f + 0.5f) - f.offset.x, 10 - f.offset.y,
                   10 - f.offset.z);
    };
    const float normal = uInside(""), slow = uInside("time_scale = 0.5");
    EXPECT_GT(normal, 0.8f);
    EXPECT_NEAR(slow, 2.0f * normal, 0.2f * normal);
}

TEST(TimeScale, KeysLoadDescribeAndReject) {
    const Scene s = parseScene(
        "[physics]\ntime_scale = 0.25\ninterpolation = \"smooth\"\n[[physics.key]]\nframe = 5\n"
        "time_scale = 1.0\n",
        "s.toml", {});
    EXPECT_EQ(s.physics.timeScale, 0.25f);
    EXPECT_EQ(s.physicsAnimation.interpolation, Interpolation::Smooth);
    const std::string described = describeScene(s);
    EXPECT_NE(described.find("[[physics.key]]\nframe = 5\ntime_scale = 1.0\n"), std::string::npos)
        << described;
    EXPECT_EQ(describeScene(parseScene(described, "s.toml", {})), described);
    EXPECT_EQ(test::parseError("[physics]\ntime_scale = 0.0\n"),
              "s.toml:2:14: error: 'physics.time_scale' = 0 is out of range (0, 100]");
    EXPECT_EQ(test::parseError("[physics]\n[[physics.key]]\nframe = 2\nvorticity = 1.0\n"),
              "s.toml:4:1: error: 'physics.key[1].vorticity' is not animatable; a key may set "
              "frame, wind, time_scale");
}

// A slow-motion cache says so in each frame ("plume_time_scale"), so
// render-vdb without its scene counts the shutter in the cache's own time:
// the same frame as with --set physics.time_scale=0.5, not as at 1.
TEST(TimeScale, CacheCarriesItsTimeScale) {
    test::TempDir dir("plume_time_scale");
    {
        std::ofstream scene(dir.path() / "slow.toml");
        scene << "[domain]\nsize = [1.0, 1.0, 1.5]\nresolution = 16\n[time]\nframes = 6\n"
                 "[physics]\nbuoyancy_heat = 3.0\ntime_scale = 0.5\n"
                 "[[emitter]]\ncenter = [0.5, 0.5, 0.3]\nradius = 0.2\nvelocity = [2.0, 0.0, 3.0]\n"
                 "[render]\nwidth = 64\nheight = 48\n";
        std::ofstream normal(dir.path() / "normal.toml");
        normal << "[domain]\nsize = [1.0, 1.0, 1.5]\nresolution = 16\n[time]\nframes = 2\n"
                  "[[emitter]]\ncenter = [0.5, 0.5, 0.3]\nradius = 0.2\n";
    }
    test::RunResult r = test::runPlume("bake slow.toml --vdb cache", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume("bake normal.toml --vdb cache", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    auto bytes = [&](const std::string& name) {
        std::ifstream in(dir.path() / name, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    };
    // In the file's own metadata, as any VDB reader lists it; none at 1.
    EXPECT_NE(bytes("cache/slow_0006.vdb").find("plume_time_scale"), std::string::npos);
    EXPECT_EQ(bytes("cache/normal_0002.vdb").find("plume_time_scale"), std::string::npos);
    EXPECT_EQ(readVdbInfo((dir.path() / "cache/slow_0006.vdb").string()).timeScale, 0.5);

    auto render = [&](const std::string& out, const std::string& set) {
        const test::RunResult run = test::runPlume(
            "render-vdb 'cache/slow_####.vdb' --frames 6-6 --set render.motion_blur=1 " + set +
                " --png " + out + " -o " + out + ".mp4",
            dir.path());
        EXPECT_EQ(run.status, 0) << run.err;
        return bytes(out + "/slow_0006.png");
    };
    const std::string own = render("own", ""), half = render("half", "--set physics.time_scale=0.5"),
                      one = render("one", "--set physics.time_scale=1");
    ASSERT_FALSE(own.empty());
    EXPECT_EQ(own, half) << "render-vdb without the scene did not take the cache's time_scale";
    EXPECT_NE(own, one) << "a shutter twice as long in simulated time draws the same frame";
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// time_scale keyed from 1 at frame 1 to 0.5 at frame 5 (linearly): a
// substep's simulated seconds are its length times time_scale at its middle
// (the midpoint rule), not at its start; so is the scale its span carries.
TEST(TimeScale, ASubstepRunsAtTheScaleOfItsMiddle) {
    const ShotClock clock(
        puff("[[physics.key]]\nframe = 1\ntime_scale = 1.0\n[[physics.key]]\n"
             "frame = 5\ntime_scale = 0.5\n"));
    ASSERT_FALSE(clock.identity());
    // From frame 1 (shot time 1 / 24 s) for half a frame: its middle is at
    // frame 1.25, where the scale is 1 - 0.5 * 0.25 / 4.
    const double start = 1.0 / 24;
    const float length = 1.0f / 48;
    const double middle = 1.0 - 0.5 * 0.25 / 4;
    EXPECT_NEAR(clock.scale(start + 0.5 * length), middle, 1e-6);
    EXPECT_NEAR(clock.simDt(start, length), middle * length, 1e-6 * length);
    EXPECT_NEAR(clock.span(start, length).scale, middle, 1e-6);
    // Further down the ramp, a whole frame from frame 3: its middle, 3.5.
    EXPECT_NEAR(clock.simDt(3.0 / 24, 1.0f / 24), (1.0 - 0.5 * 2.5 / 4) / 24, 1e-6 / 24);
    EXPECT_NEAR(clock.span(3.0 / 24, 1.0 / 24).scale, 1.0 - 0.5 * 2.5 / 4, 1e-6);
}

// A cache baked with time_scale keyed from 1 at frame 1 to 0.5 at frame 5
// records in each frame the scale at that frame's moment (frame f is the
// state at shot time f / fps, as the renderer reads it for the frame's
// shutter), not at the frame's start a frame before.
TEST(TimeScale, TheCacheRecordsTheScaleAtEachFramesMoment) {
    test::TempDir dir("plume_time_scale_keys");
    std::ofstream(dir.path() / "ramp.toml")
        << "[domain]\nsize = [1.0, 1.0, 1.0]\nresolution = 12\n[time]\nframes = 4\n"
           "[physics]\n[[physics.key]]\nframe = 1\ntime_scale = 1.0\n[[physics.key]]\n"
           "frame = 5\ntime_scale = 0.5\n[[emitter]]\ncenter = [0.5, 0.5, 0.3]\nradius = 0.2\n";
    const test::RunResult r = test::runPlume("bake ramp.toml --vdb cache -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    for (int frame = 2; frame <= 4; ++frame) {
        char name[32];
        std::snprintf(name, sizeof name, "cache/ramp_%04d.vdb", frame);
        EXPECT_NEAR(readVdbInfo((dir.path() / name).string()).timeScale,
                    1.0 - 0.5 * (frame - 1) / 4, 1e-6)
            << "frame " << frame;
    }
}

}  // namespace
}  // namespace plume
