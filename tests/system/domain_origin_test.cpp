// domain.origin: a scene moved wholesale in the world (domain, emitters,
// obstacles, camera, lights, ground by one vector) simulates and renders the
// same bits, and its VDB cache puts each voxel where it is in the world, so
// Blender imports the smoke where the domain is and render-vdb draws render's
// frame from it.
#include <gtest/gtest.h>
#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>

#include "render/renderer.h"
#include "scene/loader.h"
#include "sim/solver.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

std::string v3(Vec3f p) {
    std::ostringstream s;
    s << std::setprecision(9) << "[" << p.x << ", " << p.y << ", " << p.z << "]";
    return s.str();
}

// Every kind of world position, moved by `by`. The positions and the shift
// are sums exact in float (multiples of 1/16 near the origin, a whole-number
// shift), so the moved scene holds the very same positions in its domain;
// a shift that rounds moves them by that rounding, as any float would.
std::string movedScene(Vec3f by) {
    auto at = [&](Vec3f p) { return v3(p + by); };
    return "[domain]\norigin = " + v3(by) +
           "\nsize = [1.0, 1.0, 1.5]\nresolution = 24\nboundary = \"open\"\n"
           "[time]\nframes = 6\nmax_substeps = 2\n"
           "[physics]\nturbulence = 0.5\nturbulence_scale = 0.25\n"
           "[[emitter]]\nshape = \"sphere\"\nradius = 0.125\ntemperature = 1.5\nnoise = 0.3\n"
           "center = " +
           at({0.5f, 0.5f, 0.25f}) +
           "\n[[emitter.key]]\nframe = 1\ncenter = " + at({0.4375f, 0.5f, 0.25f}) +
           "\n[[emitter.key]]\nframe = 6\ncenter = " + at({0.5625f, 0.5f, 0.25f}) +
           "\n[[obstacle]]\nshape = \"box\"\nsize = [0.25, 0.25, 0.125]\ncenter = " +
           at({0.5f, 0.5f, 1.0f}) + "\n[camera]\nlook_at = " + at({0.5f, 0.5f, 0.75f}) +
           "\nposition = " + at({0.5f, -1.75f, 0.75f}) +
           "\n[[camera.key]]\nframe = 6\nposition = " + at({0.75f, -1.75f, 0.875f}) +
           "\n[[light]]\ntype = \"point\"\nintensity = 2\nposition = " + at({1.5f, -1.0f, 2.0f}) +
           "\n[[light]]\ndirection = [-0.5, 0.25, -1.0]\n"
           "[ground]\nenabled = true\nheight = " +
           std::to_string(by.z) + "\n[render]\nwidth = 64\nheight = 36\n";
}

struct RunResult {
    std::vector<ScalarGrid> density;
    std::vector<Image> frames;
};

RunResult simulateAndRender(const std::string& text) {
    const Scene scene = parseScene(text, "moved.toml");
    Solver solver(scene);
    Renderer renderer(scene);
    RunResult run;
    for (int frame = 1; frame <= scene.time.frames; ++frame) {
        solver.advanceFrame(frame);
        run.density.push_back(solver.fields().density);
        run.frames.push_back(renderer.render(solver.fields().view(), frame));
    }
    return run;
}

bool sameFloats(const ScalarGrid& a, const ScalarGrid& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(DomainOrigin, AMovedSceneSimulatesAndRendersTheSameBits) {
    const RunResult home = simulateAndRender(movedScene({0, 0, 0}));
    const RunResult away = simulateAndRender(movedScene({16, -8, 4}));
    ASSERT_EQ(home.frames.size(), away.frames.size());
    for (size_t f = 0; f < home.frames.size(); ++f) {
        EXPECT_TRUE(sameFloats(home.density[f], away.density[f])) << "density, frame " << f + 1;
        EXPECT_TRUE(home.frames[f].pixels == away.frames[f].pixels) << "picture, frame " << f + 1;
    }
    // The test means something: the smoke and the picture are not empty.
    float mass = 0;
    for (size_t n = 0; n < home.density.back().size(); ++n) mass += home.density.back().data()[n];
    EXPECT_GT(mass, 1.0f);
}

std::string bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

TEST(DomainOrigin, TheCacheSitsInTheWorldAndRendersAsRenderDoes) {
    const fs::path dir = test::scratchDir("domain_origin_cache");
    const Vec3f origin{16, -8, 4};
    std::ofstream(dir / "moved.toml") << movedScene(origin);  // closed at the semicolon
    auto r = test::runPlume(
        "render moved.toml --vdb cache --png direct --no-video -q --set output.vdb_precision=exact",
        dir);
    ASSERT_EQ(r.status, 0) << r.err;

    // Voxel (i, j, k) is centred at origin + (i + 0.5, j + 0.5, k + 0.5) * dx.
    openvdb::initialize();
    openvdb::io::File file((dir / "cache" / "moved_0003.vdb").string());
    file.open();
    for (const char* name : {"density", "temperature", "velocity"}) {
        const openvdb::GridBase::Ptr grid = file.readGrid(name);
        const double dx = 1.5 / 24;
        const openvdb::Vec3d p = grid->transform().indexToWorld(openvdb::Coord(2, 3, 5));
        EXPECT_EQ(p, openvdb::Vec3d(16 + 2.5 * dx, -8 + 3.5 * dx, 4 + 5.5 * dx)) << name;
    }
    file.close();

    // render-vdb of that cache with its scene draws render's frames, bit for bit.
    r = test::runPlume(
        "render-vdb 'cache/moved_####.vdb' --scene moved.toml --png fromcache "
        "--no-video -q",
        dir);
    ASSERT_EQ(r.status, 0) << r.err;
    for (int frame = 1; frame <= 6; ++frame) {
        const std::string name = "moved_000" + std::to_string(frame) + ".png";
        ASSERT_TRUE(fs::exists(dir / "direct" / name)) << name;
        EXPECT_TRUE(bytes(dir / "direct" / name) == bytes(dir / "fromcache" / name)) << name;
    }

    // plume check prints the world positions the file gave.
    r = test::runPlume("check moved.toml", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("origin = [16.0, -8.0, 4.0]\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("look_at = [16.5, -7.5, 4.75]\n"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace plume
