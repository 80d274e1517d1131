// TriangleMesh: triangles in a shape's own frame. Mesh files (io/mesh_file)
// and .vdb level sets (io/scene_geometry) become one of these at load time;
// the renderer ray-traces it (render/solid_scene), the solver uses the SDF.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/vec.h"

namespace plume {

struct TriangleMesh {
    std::vector<Vec3f> points;                       // metres, in the mesh's own frame
    std::vector<std::array<uint32_t, 3>> triangles;  // indices into points
};

}  // namespace plume
