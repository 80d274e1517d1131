// Points from PLY files: the vertex element of an ascii, binary_little_endian
// or binary_big_endian PLY, its x, y, z and the optional per-point radius
// (`radius`, else Houdini's `pscale`) and velocity (`vx`, `vy`, `vz`), as
// Blender's and Houdini's particle exports write them. Assimp's PLY importer
// keeps positions, normals, colours and texture coordinates only and drops
// every other vertex property, so plume reads these files itself; other
// elements (faces, edges) are skipped.
#pragma once

#include <string>
#include <string_view>

#include "core/point_sequence.h"
#include "io/mesh_file.h"  // GeometryError

namespace plume {

// The vertices of a PLY file's bytes, in the file's own coordinates. Throws
// GeometryError naming `name` and what is wrong: no "ply" magic, a bad or
// unknown header line, no vertex element or no x, y, z in it, data cut
// short, a value that is not a finite number, a negative radius.
PointFrame parsePlyPoints(std::string_view bytes, const std::string& name);

// The same from a file (GeometryError also when it cannot be read).
PointFrame readPlyPoints(const std::string& path);

}  // namespace plume
