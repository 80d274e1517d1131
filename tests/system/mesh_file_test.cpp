// Mesh and level-set shapes: real files (an icosphere OBJ, VDBs written with
// OpenVDB) read through Assimp and OpenVDB, against the analytic sphere.
#include "io/mesh_file.h"

#include <gtest/gtest.h>
#include <openvdb/openvdb.h>
#include <openvdb/tools/LevelSetSphere.h>

#include <array>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "core/parallel.h"
#include "io/scene_geometry.h"
#include "scene/loader.h"
#include "scene/shapes.h"
#include "sim/emitters.h"
#include "sim/obstacles.h"
#include "support/mesh_text.h"
#include "support/run.h"
#include "support/scene_errors.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

// An icosphere of the given radius, subdivided `levels` times, as OBJ text;
// `drop` faces left out of the end (a hole).
std::string icosphereObj(float radius, int levels, int drop = 0) {
    return test::icosphereText(radius, levels, Vec3f(0.0f), drop);
}

// The same triangles as an ASCII STL: a soup, every triangle with its own corners.
std::string objToStl(const std::string& obj) {
    std::istringstream in(obj);
    std::vector<std::string> points;
    std::string line, s = "solid ball\n";
    while (std::getline(in, line)) {
        std::istringstream words(line.substr(2));
        if (line[0] == 'v') points.push_back(line.substr(2));
        if (line[0] != 'f') continue;
        s += "facet normal 0 0 0\nouter loop\n";
        for (int c = 0, n; c < 3 && words >> n; ++c) s += "vertex " + points[n - 1] + "\n";
        s += "endloop\nendfacet\n";
    }
    return s + "endsolid ball\n";
}

void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

// A scene of one obstacle in a 2 m box at 32 cells, loaded with its geometry.
Scene meshScene(const fs::path& dir, const std::string& obstacle) {
    write(dir / "s.toml", "[domain]\nresolution = 32\n[[obstacle]]\n" + obstacle);
    Scene s = loadScene((dir / "s.toml").string());
    loadSceneGeometry(s);
    return s;
}

std::string meshError(const fs::path& dir, const std::string& obstacle) {
    return test::errorOf([&] { meshScene(dir, obstacle); });
}

// Solid cells that differ between the scene's obstacles and an analytic sphere.
// Tolerance: cells whose centre lies within the SDF's interpolation error of
// the surface may flip; at 32^3 that is at most 2% of the sphere's solid cells.
void expectMatchesSphereAt(const Scene& s, Vec3f center, float radius);

void expectMatchesSphere(const Scene& s, float radius) {
    expectMatchesSphereAt(s, s.obstacles[0].center, radius);
}

void expectMatchesSphereAt(const Scene& s, Vec3f center, float radius) {
    Fields mesh(s.domain.cells(), s.domain.dx()), sphere = mesh;
    rasterizeObstacles(mesh, s.obstacles);
    ObstacleSettings o;
    o.center = center;
    o.radius = radius;
    rasterizeObstacles(sphere, {o});
    int differ = 0, solid = 0;
    for (size_t n = 0; n < mesh.solid.size(); ++n) {
        differ += mesh.solid[n] != sphere.solid[n];
        solid += sphere.solid[n];
    }
    EXPECT_GT(solid, 2000);
    EXPECT_LE(differ, solid / 50);
}

TEST(MeshFile, IcosphereMatchesAnalyticSphere) {
    fs::path dir = test::scratchDir("mesh_sphere");
    write(dir / "ball.obj", icosphereObj(0.5f, 3));
    TriangleMesh mesh = readMeshFile((dir / "ball.obj").string());
    EXPECT_EQ(mesh.triangles.size(), 1280u);
    EXPECT_EQ(countOpenEdges(mesh), 0u);
    // A triangle soup (STL) is welded by position, so it is closed too.
    write(dir / "ball.stl", objToStl(icosphereObj(0.5f, 3)));
    TriangleMesh soup = readMeshFile((dir / "ball.stl").string());
    EXPECT_EQ(soup.triangles.size(), 1280u);
    EXPECT_EQ(soup.points.size(), mesh.points.size());
    EXPECT_EQ(countOpenEdges(soup), 0u);

    expectMatchesSphere(
        meshScene(dir, "shape = \"mesh\"\nfile = \"ball.obj\"\ncenter = [1.01, 0.98, 1.03]\n"),
        0.5f);

    // Scaled and rotated through the same transform as the analytic shapes.
    expectMatchesSphere(meshScene(dir,
                                  "shape = \"mesh\"\nfile = \"ball.obj\"\n"
                                  "center = [1.01, 0.98, 1.03]\nscale = 1.4\n"
                                  "rotation = [10, 20, 30]\n"),
                        0.7f);
}

TEST(MeshFile, MeshEmitterSurfaceShellAndThreadCount) {
    // A mesh emitter in surface mode emits a shell: nothing deep inside.
    fs::path dir = test::scratchDir("mesh_emitter");
    write(dir / "ball.obj", icosphereObj(0.5f, 3));
    write(dir / "s.toml",
          "[domain]\nresolution = 32\n[[emitter]]\nshape = \"mesh\"\n"
          "file = \"ball.obj\"\ncenter = [1, 1, 1]\nmode = \"surface\"\n"
          "thickness = 0.15\n");
    auto load = [&](int threads) {
        setThreadCount(threads);
        Scene s = loadScene((dir / "s.toml").string());
        loadSceneGeometry(s);
        setThreadCount(0);
        return s;
    };
    Scene s = load(1);
    // The SDF is the same whatever the thread count.
    EXPECT_EQ(load(3).emitters[0].levelSet->distance.values(),
              s.emitters[0].levelSet->distance.values());

    Fields f(s.domain.cells(), s.domain.dx());
    applyEmitters(f, s.emitters, 1, 0.0);
    float inside = 0.0f, shell = 0.0f;
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                float r = length(Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * f.dx - Vec3f(1.0f));
                if (r < 0.3f) inside = std::max(inside, f.density(i, j, k));
                if (std::fabs(r - 0.5f) < 0.03f) shell = std::max(shell, f.density(i, j, k));
            }
    EXPECT_EQ(inside, 0.0f);
    EXPECT_EQ(shell, 1.0f);
}

TEST(MeshFile, LevelSetVdbMatchesAnalyticSphere) {
    fs::path dir = test::scratchDir("mesh_vdb");
    openvdb::initialize();
    auto sphere = openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(0.5f, {0, 0, 0}, 0.04f);
    sphere->setName("ball");
    openvdb::io::File((dir / "ball.vdb").string()).write({sphere});
    expectMatchesSphere(
        meshScene(dir, "shape = \"mesh\"\nfile = \"ball.vdb\"\ncenter = [1.01, 0.98, 1.03]\n"),
        0.5f);
}

TEST(MeshFile, Errors) {
    fs::path dir = test::scratchDir("mesh_errors");
    const std::string scene = (dir / "s.toml").string();
    // The file key sits on line 6 of meshScene's file, its value at column 8.
    const std::string where = scene + ":6:8: error: obstacle[1].file: ";
    auto at = [&](const std::string& file) { return where + "'" + (dir / file).string() + "'"; };
    auto error = [&](const std::string& file) {
        return meshError(dir, "shape = \"mesh\"\ncenter = [1, 1, 1]\nfile = \"" + file + "\"\n");
    };

    EXPECT_EQ(error("gone.obj"),
              where + "cannot read " + at("gone.obj").substr(where.size()) + " (no such file)");

    write(dir / "empty.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n");
    EXPECT_EQ(error("empty.obj"), at("empty.obj") + " has no triangles");

    write(dir / "holed.obj", icosphereObj(0.5f, 1, 1));
    EXPECT_EQ(error("holed.obj"), at("holed.obj") + " is not closed (3 open edges)");

    openvdb::initialize();
    auto fog = openvdb::FloatGrid::create();
    fog->setName("density");
    auto heat = openvdb::FloatGrid::create();
    heat->setName("temperature");
    openvdb::io::File((dir / "fog.vdb").string()).write({fog, heat});
    EXPECT_EQ(error("fog.vdb"),
              at("fog.vdb") + " holds no level set grid (its grids: density, temperature)");

    write(dir / "ball.obj", icosphereObj(0.5f, 1));
    EXPECT_EQ(meshError(dir, "shape = \"mesh\"\ncenter = [5, 1, 1]\nfile = \"ball.obj\"\n"),
              at("ball.obj") +
                  " lies outside the domain [0, 0, 0] to [2, 2, 2] (check center and scale)");
}

// A mesh file is in world metres, as Blender exports it: with no center it
// stays where the file puts it; a center moves the file's origin there.
TEST(MeshFile, WithoutACenterAMeshStaysWhereItsFilePutsIt) {
    fs::path dir = test::scratchDir("mesh_world");
    write(dir / "ball.obj", test::icosphereText(0.5f, 3, Vec3f(1.3f, 0.7f, 0.6f)));
    Scene s = meshScene(dir, "shape = \"mesh\"\nfile = \"ball.obj\"\n");
    EXPECT_EQ(s.obstacles[0].center, Vec3f(0.0f));
    // The solver's cells are the ball's where the file has it.
    expectMatchesSphereAt(s, {1.3f, 0.7f, 0.6f}, 0.5f);
    // A center given: the file's origin goes there, the ball with it.
    s = meshScene(dir, "shape = \"mesh\"\nfile = \"ball.obj\"\ncenter = [-0.2, 0.5, 0.4]\n");
    expectMatchesSphereAt(s, {1.1f, 1.2f, 1.0f}, 0.5f);
}

// render-vdb with the scene draws its mesh obstacles as render does: the
// same frame from an exact cache is the same picture.
TEST(MeshFile, RenderVdbWithItsSceneDrawsTheMeshAsRenderDoes) {
    fs::path dir = test::scratchDir("mesh_render_vdb");
    write(dir / "ball.obj", test::icosphereText(0.25f, 2, Vec3f(1.0f, 1.0f, 1.1f)));
    write(dir / "s.toml",
          "[domain]\nresolution = 16\n[time]\nframes = 3\n[[obstacle]]\nshape = \"mesh\"\n"
          "file = \"ball.obj\"\ncolor = [0.8, 0.2, 0.1]\n[[emitter]]\ncenter = [1, 1, 0.3]\n"
          "radius = 0.2\n[render]\nwidth = 64\nheight = 36\n[output]\n"
          "vdb_precision = \"exact\"\n");
    auto r = test::runPlume("render s.toml --no-video --png direct --vdb cache -q", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = test::runPlume("render-vdb 'cache/s_####.vdb' --scene s.toml --no-video --png again -q",
                       dir);
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* frame : {"s_0001.png", "s_0003.png"})
        EXPECT_EQ(test::capture("cmp '" + (dir / "direct" / frame).string() + "' '" +
                                (dir / "again" / frame).string() + "' 2>&1"),
                  "")
            << frame;
}

TEST(MeshFile, BadMeshStopsRenderWithExitTwoAndNoOutput) {
    fs::path dir = test::scratchDir("mesh_cli");
    write(dir / "s.toml",
          "[domain]\nresolution = 16\n[time]\nframes = 1\n[[emitter]]\n"
          "shape = \"mesh\"\nfile = \"props/none.stl\"\n");
    test::RunResult r = test::runPlume("render s.toml -o out.mp4", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "s.toml:7:8: error: emitter[1].file: cannot read 'props/none.stl' (no such "
              "file)\n");
    EXPECT_FALSE(fs::exists(dir / "out.mp4"));
}

}  // namespace
}  // namespace plume
