// Scene geometry: the SDFs of mesh shapes, made once after the scene loads.
// The scene loader records each `file` key (resolved path and line:col); this
// io step reads the files, since the scene module cannot depend on io.
#pragma once

#include <string>

#include "core/level_set.h"
#include "io/mesh_file.h"
#include "scene/scene.h"

namespace plume {

// Fills levelSet of every mesh emitter and obstacle, and the points of
// points emitters (io/scene_points.h). A bad file is an InputError at its
// `file` key: "SCENE:LINE:COL: error: obstacle[1].file: ...".
void loadSceneGeometry(Scene& scene);
// The same for the obstacles alone: what rendering a cache with its scene
// draws (render-vdb --scene), without the emitters' files.
void loadObstacleGeometry(Scene& scene);

// The SDF of a closed mesh, voxelSize in the mesh's metres, with a narrow band
// of bandVoxels either side of the surface (OpenVDB's meshToLevelSet).
LevelSet levelSetFromMesh(const TriangleMesh& mesh, float voxelSize, float bandVoxels);

// A shape read from a file: its SDF for the solver, its surface for the renderer.
struct ShapeGeometry {
    LevelSet levelSet;
    TriangleMesh surface;  // the file's triangles, or a .vdb level set's zero isosurface
};

// A mesh file (checked: has triangles, closed) or a .vdb level set. Throws
// GeometryError with the problem.
ShapeGeometry readShapeFile(const std::string& path, float voxelSize, float bandVoxels);
// Its SDF only.
LevelSet readLevelSetFile(const std::string& path, float voxelSize, float bandVoxels);

}  // namespace plume
