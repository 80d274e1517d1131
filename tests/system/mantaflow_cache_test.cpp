// Blender's Mantaflow cache read as plume reads its own: its velocity in
// metres per second (Mantaflow writes it staggered, in cells per Mantaflow
// time unit), and `plume upres` on it without a scene, the fine smoke fed
// from the cache. tests/data/mantaflow_smoke/ is a real Mantaflow cache:
// tests/blender/bake_mantaflow.py at 24 cells, 6 frames, smoke, 24 fps
// (`blender -b --factory-startup --python tests/blender/bake_mantaflow.py --
// DIR 24 6`), copied from DIR/data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "io/vdb_cache.h"
#include "support/run.h"
#include "support/scene_errors.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

using test::kSourceDir;

const std::string kCache = kSourceDir + "/tests/data/mantaflow_smoke/";
constexpr double kFps = 24.0;  // the bake's: Blender's default

std::string mantaflowFrame(int frame) {
    char name[64];
    std::snprintf(name, sizeof name, "fluid_data_%04d.vdb", frame);
    return kCache + name;
}

struct Moments {
    double mass = 0.0;  // sum of density times cell volume, m^3
    double top = 0.0;   // highest cell holding density above 1e-3, metres from the origin
    double centreZ = 0.0;  // density-weighted mean height, metres
    double meanVz = 0.0;   // density-weighted mean vertical velocity, m/s
};

Moments moments(const CacheFrame& c) {
    Moments m;
    double z = 0.0, vz = 0.0, weight = 0.0;
    const int f = c.upresFactor;
    for (int k = 0; k < c.n.z; ++k)
        for (int j = 0; j < c.n.y; ++j)
            for (int i = 0; i < c.n.x; ++i) {
                const double d = c.density(i, j, k);
                if (d <= 0.0) continue;
                const double height = (k + 0.5) * c.dx;
                weight += d;
                z += d * height;
                vz += d * c.velocity(i / f, j / f, k / f).z;
                if (d > 1e-3) m.top = std::max(m.top, height);
            }
    m.mass = weight * double(c.dx) * c.dx * c.dx;
    m.centreZ = z / weight;
    m.meanVz = vz / weight;
    return m;
}

// The smoke's centre rises about as fast as its mean velocity says: read raw
// (cells per Mantaflow time unit: 1 / (2.5 dx) times the speed in m/s, 4.8
// times at 24 cells, 13 at 64) it would have to rise that many times as far.
// Measured: the centre rises 0.43 to 0.46 of what the velocity says.
// A rising plume's centre lags its mean velocity, as new smoke enters at the
// bottom: plume's own bench at frame 20 rises 0.76 of it.
TEST(MantaflowCache, VelocityIsReadInMetresPerSecond) {
    for (int frame = 3; frame < 6; ++frame) {
        const CacheFrame a = readVdbFrame(mantaflowFrame(frame));
        const CacheFrame b = readVdbFrame(mantaflowFrame(frame + 1));
        EXPECT_EQ(a.n, (Vec3i{24, 24, 24}));  // the domain's, from its metadata
        ASSERT_TRUE(a.hasVelocity);
        const Moments ma = moments(a), mb = moments(b);
        const double rise = mb.centreZ - ma.centreZ;              // metres a frame
        const double predicted = 0.5 * (ma.meanVz + mb.meanVz) / kFps;  // the same
        std::printf("frame %d: centre rises %.4f m, velocity says %.4f m\n", frame, rise,
                    predicted);
        EXPECT_GT(rise, 0.4 * predicted) << "frame " << frame;
        EXPECT_LT(rise, 1.5 * predicted) << "frame " << frame;
    }
}

// Without --scene the fine smoke comes from the cache: where a base cell
// holds more than its fine cells, the difference is added. So the fine cache
// holds about the base's smoke (more, not less: the turbulence spreads it and
// only what is missing is put back), where the base has it, moved by the
// base's velocity in m/s.
TEST(MantaflowCache, UpresWithoutASceneFeedsTheFineSmokeFromTheCache) {
    test::TempDir dir("mantaflow_cache");
    const test::RunResult r =
        test::runPlume("upres '" + kCache + "fluid_data_####.vdb' --factor 2 -o C -q", dir.path());
    ASSERT_EQ(r.status, 0) << r.err;
    for (int frame = 2; frame <= 6; ++frame) {
        char name[64];
        std::snprintf(name, sizeof name, "/C/fluid_data_%04d.vdb", frame);
        const CacheFrame fine = readVdbFrame(dir.path().string() + name);
        const CacheFrame base = readVdbFrame(mantaflowFrame(frame));
        EXPECT_EQ(fine.upresFactor, 2);
        EXPECT_EQ(fine.n, (Vec3i{48, 48, 48}));
        const Moments f = moments(fine), b = moments(base);
        std::printf("frame %d: mass fine %.4g base %.4g m^3, top fine %.3f base %.3f m\n", frame,
                    f.mass, b.mass, f.top, b.top);
        EXPECT_GT(f.mass, 0.8 * b.mass) << "frame " << frame;
        EXPECT_LT(f.mass, 1.25 * b.mass) << "frame " << frame;
        EXPECT_LT(std::abs(f.top - b.top), 2.0 * base.dx) << "frame " << frame;
    }
}

}  // namespace
}  // namespace plume
