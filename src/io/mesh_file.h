// Triangle meshes from OBJ, PLY, STL and glTF/GLB files, read with Assimp
// (this is the one file that includes it). Vertices are welded by position,
// so a triangle soup (STL) shares its edges and can be checked for holes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/triangle_mesh.h"
#include "core/vec.h"

namespace plume {

// What is wrong with a mesh or level-set file, without where it was named;
// the caller adds the scene location.
class GeometryError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Every triangle of every mesh in the file, node transforms applied. Throws
// GeometryError when the file is missing or cannot be parsed.
TriangleMesh readMeshFile(const std::string& path);

// Edges used by one triangle only: 0 for a closed surface.
std::size_t countOpenEdges(const TriangleMesh& mesh);

}  // namespace plume
