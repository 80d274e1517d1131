// Mesh sequences: `file = "body_####.obj"` (or "%04d") on a mesh shape names
// one mesh file a frame, numbered as the scene's frames. Every file is read
// and checked when the scene loads (so a bad sequence stops before any
// simulation); during the run each file's SDF is built once, when a moment
// near it is first asked for, and the moments between two files come from
// those two (io/sequence_motion.h).
#pragma once

#include <memory>
#include <string>

#include "core/shape_sequence.h"

namespace plume {

struct MeshSequenceSettings {
    std::string pattern;  // resolved path with its frame field
    int startFrame = 1;   // time.start_frame: the file numbered so is frame 1
    double fps = 24;
    float voxelSize = 0.1f;   // of the SDFs, in the mesh's metres
    float bandVoxels = 3.0f;  // narrow band either side of the surface
    // The surface's velocity carried all through its inside too, not only
    // near the surface: a volume emitter's smoke inherits it everywhere.
    bool velocityThroughout = false;
};

// Reads and checks every file of the sequence. Throws GeometryError
// (io/mesh_file.h) when the pattern matches nothing, when a frame inside the
// numbers it matches has no file, when a file cannot be read or has no
// triangles, and when a file is not closed ("..., while '...' is" when
// another file is).
std::shared_ptr<const ShapeSequence> openMeshSequence(const MeshSequenceSettings& settings);

// The box (mesh metres) that holds every file's vertices, as openMeshSequence found it.
void sequenceBounds(const ShapeSequence& sequence, Vec3f& lo, Vec3f& hi);

}  // namespace plume
