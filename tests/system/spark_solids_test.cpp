// Solids hide sparks (render/sparks/spark_streaks.h): a streak is not drawn
// where an opaque obstacle is nearer the camera than the spark.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>

#include "io/exr_file.h"
#include "render/camera.h"
#include "render/solids/solid_scene.h"
#include "render/sparks/spark_streaks.h"
#include "support/run.h"
#include "support/temp_dir.h"

namespace plume {
namespace {

constexpr int kW = 128, kH = 96;

Camera frontCamera() {
    CameraSettings cs;
    cs.position = {0.5f, -2.0f, 0.5f};
    cs.lookAt = {0.5f, 0.5f, 0.5f};
    cs.fov = 40.0f;
    return Camera(cs, kW, kH);
}

Spark hot(Vec3f p, Vec3f v) {
    Spark s;
    s.p = p;
    s.v = v;
    s.life = 1e6f;
    s.temperature = 1500.0f;
    s.pscale = 0.01f;
    return s;
}

float light(const LinearImage& image) {
    float sum = 0.0f;
    for (float c : image.rgb) sum += c;
    return sum;
}

// The red light of the sparks drawn over an empty frame, with the solids given.
float drawn(const SparkList& sparks, const SolidScene* solids, float shutter = 0.0f) {
    ScalarGrid density(16, 16, 16);
    const VolumeView volume{&density, nullptr, {0, 0, 0}, 1.0f / 16.0f};
    SparkLook look;
    look.shutter = shutter;
    LinearImage image(kW, kH);
    drawSparks(sparks, frontCamera(), volume, look, image, nullptr, solids);
    return light(image);
}

// An opaque box between the camera and the middle of the view.
struct BoxInFront {
    SolidScene solids;
    BoxInFront() {
        ObstacleSettings box;
        box.shape = Shape::Box;
        box.center = {0.5f, 0.0f, 0.5f};
        box.size = {0.2f, 0.1f, 0.2f};
        solids.place({box}, GroundSettings{}, {0.5f, 0.5f, 0.5f}, 10.0f);
    }
};

TEST(SparkSolids, HiddenBehindABoxVisibleBesideIt) {
    BoxInFront scene;
    const Spark behind = hot({0.5f, 0.7f, 0.5f}, {0, 0, 0});
    const Spark beside = hot({0.95f, 0.7f, 0.5f}, {0, 0, 0});
    const float alone = drawn({behind}, nullptr);
    ASSERT_GT(alone, 0.0f);
    EXPECT_EQ(drawn({behind}, &scene.solids), 0.0f);
    EXPECT_FLOAT_EQ(drawn({beside}, &scene.solids), drawn({beside}, nullptr));
    // In front of the box, the box hides nothing.
    const Spark before = hot({0.5f, -0.5f, 0.5f}, {0, 0, 0});
    EXPECT_FLOAT_EQ(drawn({before}, &scene.solids), drawn({before}, nullptr));
}

TEST(SparkSolids, AStreakStopsAtTheBoxEdge) {
    BoxInFront scene;
    // 0.4 m long across the view behind the box, which hides its middle.
    const Spark s = hot({0.5f, 0.7f, 0.5f}, {2.0f, 0.0f, 0.0f});
    const float whole = drawn({s}, nullptr, 0.2f);
    const float seen = drawn({s}, &scene.solids, 0.2f);
    ASSERT_GT(whole, 0.0f);
    // The box spans 0.2 m at 2 m of the 0.4 m streak at 2.7 m: about 2/3 of
    // it seen from the camera's side is behind the box.
    EXPECT_GT(seen, 0.15f * whole);
    EXPECT_LT(seen, 0.45f * whole);
}

// The binary: sparks born inside a sphere behind a visible box that covers
// it from the camera. render-vdb of the cache with sparks and of the same
// without: the same frame with the box in front, brighter with it moved aside.
constexpr const char* kBoxScene = R"([domain]
size = [1.0, 1.0, 1.0]
resolution = 16
boundary.all = "open"

[time]
fps = 24
frames = 3

[[emitter]]
shape = "sphere"
center = [0.5, 0.6, 0.5]
radius = 0.15
temperature = 0.5
density = 0.0
sparks = 4000.0

[sparks]
drag = 0.0
buoyancy = 0.0

[[obstacle]]
shape = "box"
center = [0.5, 0.15, 0.5]
size = [0.6, 0.1, 0.6]

[camera]
position = [0.5, -2.0, 0.5]
look_at = [0.5, 0.5, 0.5]
fov = 40.0

[render]
width = 64
height = 48
)";

TEST(SparkSolids, TheBinaryHidesSparksBehindAnObstacle) {
    test::TempDir dir("spark_solids");
    std::ofstream(dir.file("box.toml")) << kBoxScene;
    ASSERT_EQ(test::runPlume("bake box.toml --vdb with --quiet", dir.path()).status, 0);
    ASSERT_EQ(
        test::runPlume("bake box.toml --vdb without --quiet --set emitter[1].sparks=0", dir.path())
            .status,
        0);
    // The largest difference in linear RGB between the frames with and without sparks.
    auto brightest = [&](const std::string& where, const std::string& set) {
        for (const char* c : {"with", "without"}) {
            const auto r = test::runPlume(std::string("render-vdb '") + c +
                                              "/box_####.vdb' --scene box.toml --frames 3-3 "
                                              "--no-video --quiet --exr " +
                                              c + "_" + where + set,
                                          dir.path());
            EXPECT_EQ(r.status, 0) << r.err;
        }
        const ExrImage a = readExr((dir.path() / ("with_" + where) / "box_0003.exr").string());
        const ExrImage b = readExr((dir.path() / ("without_" + where) / "box_0003.exr").string());
        EXPECT_EQ(a.rgba.size(), b.rgba.size());
        float most = 0.0f;
        for (size_t n = 0; n < std::min(a.rgba.size(), b.rgba.size()); ++n)
            most = std::max(most, std::fabs(a.rgba[n] - b.rgba[n]));
        return most;
    };
    EXPECT_GT(brightest("aside", " --set 'obstacle[1].center=[0.5,0.15,2.5]'"), 0.1f);
    EXPECT_EQ(brightest("front", ""), 0.0f);
}

}  // namespace
}  // namespace plume
