#include "io/scene_geometry.h"

#include "io/environment_file.h"

#include <openvdb/tools/MeshToVolume.h>
#include <openvdb/tools/VolumeToMesh.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/error.h"
#include "core/input_file.h"
#include "io/mesh_sequence.h"
#include "io/sequence.h"
#include "io/vdb_layout.h"
#include "io/scene_points.h"
#include "io/vdb_private.h"
#include "scene/schema.h"
#include "scene/shapes.h"

namespace plume {

namespace {

// Names a float grid may carry when it holds a signed distance but its class was not set.
bool namedLikeLevelSet(const std::string& name) {
    for (const char* n : {"surface", "sdf", "level_set", "levelset", "distance", "ls"})
        if (name == n) return true;
    return false;
}

// The grid's values over its active bounding box (and a voxel around it) as
// a dense LevelSet; inactive voxels read as the grid's tiles and background.
LevelSet toDense(const openvdb::FloatGrid& grid) {
    openvdb::CoordBBox box = grid.evalActiveVoxelBoundingBox();
    box.expand(1);
    const openvdb::Coord lo = box.min(), dim = box.dim();
    LevelSet ls;
    ls.distance = Grid3<float>(dim.x(), dim.y(), dim.z(), Vec3f(0.0f));
    ls.voxelSize = float(grid.voxelSize()[0]);
    ls.background = grid.background();
    const openvdb::Vec3d origin = grid.indexToWorld(lo);
    ls.origin = Vec3f(float(origin.x()), float(origin.y()), float(origin.z()));
    auto acc = grid.getConstAccessor();
    for (int k = 0; k < dim.z(); ++k)
        for (int j = 0; j < dim.y(); ++j)
            for (int i = 0; i < dim.x(); ++i)
                ls.distance(i, j, k) = acc.getValue(lo.offsetBy(i, j, k));
    return ls;
}

// The zero isosurface of a level set grid, in the grid's world frame, for the
// renderer to draw (OpenVDB's volumeToMesh; quads split in two).
TriangleMesh surfaceOf(const openvdb::FloatGrid& grid) {
    std::vector<openvdb::Vec3s> points;
    std::vector<openvdb::Vec3I> triangles;
    std::vector<openvdb::Vec4I> quads;
    openvdb::tools::volumeToMesh(grid, points, triangles, quads, 0.0);
    TriangleMesh mesh;
    mesh.points.reserve(points.size());
    for (const openvdb::Vec3s& p : points) mesh.points.emplace_back(p.x(), p.y(), p.z());
    for (const openvdb::Vec3I& t : triangles) mesh.triangles.push_back({t[0], t[1], t[2]});
    for (const openvdb::Vec4I& q : quads) {
        mesh.triangles.push_back({q[0], q[1], q[2]});
        mesh.triangles.push_back({q[0], q[2], q[3]});
    }
    return mesh;
}

ShapeGeometry readVdbLevelSet(const std::string& path) {
    vdb::initialize();
    if (std::string why = notRegularFile(path); !why.empty())
        throw GeometryError("cannot read '" + path + "' (" + why + ")");
    if (!std::filesystem::exists(path))
        throw GeometryError("cannot read '" + path + "' (no such file)");
    // Before OpenVDB opens it: a cut-short file makes OpenVDB allocate gigabytes.
    if (std::string why = vdbLayoutProblem(path); !why.empty())
        throw GeometryError("cannot read '" + path + "' (" + why + ")");
    openvdb::GridPtrVecPtr grids;
    try {
        openvdb::io::File file(path);
        file.open();
        grids = file.getGrids();
        file.close();
    } catch (const openvdb::Exception& e) {
        throw GeometryError("cannot read '" + path + "' (" + e.what() + ")");
    }
    std::string names;
    for (const openvdb::GridBase::Ptr& g : *grids) {
        auto floats = openvdb::gridPtrCast<openvdb::FloatGrid>(g);
        if (floats &&
            (g->getGridClass() == openvdb::GRID_LEVEL_SET || namedLikeLevelSet(g->getName()))) {
            if (!g->hasUniformVoxels())
                throw GeometryError("'" + path + "': level set '" + g->getName() +
                                    "' has non-uniform voxels");
            return {toDense(*floats), surfaceOf(*floats)};
        }
        names += (names.empty() ? "" : ", ") + g->getName();
    }
    throw GeometryError("'" + path + "' holds no level set grid (" +
                        (names.empty() ? std::string("it has no grids") : "its grids: " + names) +
                        ")");
}

std::string lowerExtension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

// A mesh sequence (io/mesh_sequence.h): every file checked, the shape posed
// at the first frame until the solver or renderer poses it anew.
void openSequence(ShapeSettings& shape, const Scene& scene, float voxel, float bandVoxels,
                  bool velocityThroughout) {
    if (lowerExtension(shape.filePath) == ".vdb")
        throw GeometryError("'" + shape.filePath +
                            "': a sequence of .vdb level sets is not read; give the frames as "
                            "meshes (OBJ, PLY, STL, glTF/GLB)");
    MeshSequenceSettings settings;
    settings.pattern = shape.filePath;
    settings.startFrame = scene.time.startFrame;
    settings.fps = scene.time.fps;
    settings.voxelSize = voxel;
    settings.bandVoxels = bandVoxels;
    settings.velocityThroughout = velocityThroughout;
    shape.sequence = openMeshSequence(settings);
    SolidPose first = shape.sequence->solidAt(1.0);
    shape.levelSet = std::move(first.levelSet);
    shape.surfaceVelocity = std::move(first.velocity);
    shape.surface = shape.sequence->surfaceAt(1.0);
}

void loadShape(ShapeSettings& shape, const std::string& display, const Scene& scene,
               float bandVoxels, bool velocityThroughout = false) {
    if (shape.shape != Shape::Mesh) return;
    const SourceLocation where{scene.path, shape.fileLine, shape.fileColumn};
    const std::string prefix = display + ".file: ";
    // Voxels as fine as the simulation's once the shape is scaled up.
    const float voxel = scene.domain.dx() / std::max({shape.scale.x, shape.scale.y, shape.scale.z});
    // A name with a frame field ('body_####.obj') is a sequence, unless a file has that very name.
    const bool sequence =
        isFramePattern(shape.filePath) && !std::filesystem::exists(shape.filePath);
    Vec3f lo, hi;
    try {
        if (sequence) {
            openSequence(shape, scene, voxel, bandVoxels, velocityThroughout);
        } else {
            ShapeGeometry geometry = readShapeFile(shape.filePath, voxel, bandVoxels);
            shape.levelSet = std::make_shared<LevelSet>(std::move(geometry.levelSet));
            shape.surface = std::make_shared<TriangleMesh>(std::move(geometry.surface));
        }
    } catch (const GeometryError& e) {
        throw InputError(where, prefix + e.what());
    }

    // A shape wholly outside the domain is surely a mistake (units, centre);
    // a sequence is, when every one of its files is.
    if (sequence) {
        Vec3f localLo, localHi;
        sequenceBounds(*shape.sequence, localLo, localHi);
        Transform(shape.center, shape.rotation, shape.scale).worldBounds(localLo, localHi, lo, hi);
    } else {
        PlacedShape(shape).worldBounds(lo, hi);
    }
    const Vec3f size = scene.domain.size;
    if (hi.x <= 0 || hi.y <= 0 || hi.z <= 0 || lo.x >= size.x || lo.y >= size.y || lo.z >= size.z) {
        throw InputError(where, prefix + "'" + shape.filePath +
                                    "' lies outside the domain [0, 0, 0] to [" +
                                    formatFloat(size.x) + ", " + formatFloat(size.y) + ", " +
                                    formatFloat(size.z) + "] (check center and scale)");
    }
}

}  // namespace

LevelSet levelSetFromMesh(const TriangleMesh& mesh, float voxelSize, float bandVoxels) {
    vdb::initialize();
    std::vector<openvdb::Vec3s> points;
    points.reserve(mesh.points.size());
    for (Vec3f p : mesh.points) points.emplace_back(p.x, p.y, p.z);
    std::vector<openvdb::Vec3I> triangles;
    triangles.reserve(mesh.triangles.size());
    for (const auto& t : mesh.triangles) triangles.emplace_back(t[0], t[1], t[2]);
    auto xform = openvdb::math::Transform::createLinearTransform(voxelSize);
    auto grid =
        openvdb::tools::meshToLevelSet<openvdb::FloatGrid>(*xform, points, triangles, bandVoxels);
    return toDense(*grid);
}

ShapeGeometry readShapeFile(const std::string& path, float voxelSize, float bandVoxels) {
    if (lowerExtension(path) == ".vdb") return readVdbLevelSet(path);
    TriangleMesh mesh = readMeshFile(path);
    if (mesh.triangles.empty()) throw GeometryError("'" + path + "' has no triangles");
    if (std::size_t open = countOpenEdges(mesh))
        throw GeometryError("'" + path + "' is not closed (" + std::to_string(open) +
                            (open == 1 ? " open edge)" : " open edges)"));
    LevelSet levelSet = levelSetFromMesh(mesh, voxelSize, bandVoxels);
    return {std::move(levelSet), std::move(mesh)};
}

LevelSet readLevelSetFile(const std::string& path, float voxelSize, float bandVoxels) {
    return readShapeFile(path, voxelSize, bandVoxels).levelSet;
}

void loadSceneGeometry(Scene& scene) {
    const float dx = scene.domain.dx();
    for (std::size_t i = 0; i < scene.emitters.size(); ++i) {
        // A surface shell must lie within the band the SDF holds exactly.
        EmitterSettings& e = scene.emitters[i];
        float band = 3.0f;
        if (e.mode == EmitMode::Surface) {
            const float minScale = std::min({e.scale.x, e.scale.y, e.scale.z});
            const float maxScale = std::max({e.scale.x, e.scale.y, e.scale.z});
            band = std::max(band, 0.5f * e.thickness * maxScale / (minScale * dx) + 2.0f);
        }
        // A volume emitter's smoke inherits its surface's motion all through it.
        loadShape(e, "emitter[" + std::to_string(i + 1) + "]", scene, band,
                  e.mode == EmitMode::Volume);
    }
    loadObstacleGeometry(scene);
    loadScenePoints(scene);
}

void loadObstacleGeometry(Scene& scene) {
    for (std::size_t i = 0; i < scene.obstacles.size(); ++i)
        loadShape(scene.obstacles[i], "obstacle[" + std::to_string(i + 1) + "]", scene, 3.0f);
    loadEnvironment(scene);
}

}  // namespace plume
