// Between two files of a mesh sequence: the shape at a moment between them
// without building its SDF anew (io/mesh_sequence builds one per file), and
// the surface's own velocity. Plain arithmetic on core types, no OpenVDB.
//
// Where the two files share their topology, every vertex moves from Pa to Pb
// over the frame; that displacement D, spread from the surface to the lattice
// around it, carries each file's SDF to the moment s in between:
//     phi_s(x) = (1 - s) phi_a(x - s D(x)) + s phi_b(x + (1 - s) D(x)),
// exact for a translation and for a sphere that grows, and it follows a thin
// plate that moves farther than its thickness in a frame, which blending the
// two SDFs alone (D = 0) would lose halfway. The velocity is D per frame.
// Where the topology differs, the velocity is the level set's own:
//     v = -(d phi / dt) grad phi / |grad phi|^2.
#pragma once

#include <memory>

#include "core/level_set.h"
#include "core/shape_sequence.h"
#include "core/triangle_mesh.h"

namespace plume {

// A box of lattice samples, in the index space every file's SDF of one
// sequence shares (the same voxel size, origins on its multiples).
struct Lattice {
    Vec3i lo{0, 0, 0};  // index of sample (0, 0, 0)
    Vec3i n{0, 0, 0};   // samples per axis
    float voxelSize = 1.0f;
    Vec3f origin() const;
    std::size_t size() const { return std::size_t(n.x) * n.y * n.z; }
};

// The lattice of a level set, and the one that holds two.
Lattice latticeOf(const LevelSet& ls);
Lattice unite(const Lattice& a, const Lattice& b);

// Whether two meshes share their topology: the same vertex count and the
// same triangles, index for index.
bool sameTopology(const TriangleMesh& a, const TriangleMesh& b);

// The displacement Pb - Pa of a surface (local metres), at the samples of
// `lattice` within `reach` metres of the surface at either end and 0 beyond;
// a and b share their topology.
Grid3<Vec3f> displacementField(const TriangleMesh& a, const TriangleMesh& b, const Lattice& lattice,
                               float reach);

// The SDF at s in [0, 1] between a and b, over `lattice`, carried by `displacement`
// (its samples on that lattice).
LevelSet warpBlend(const LevelSet& a, const LevelSet& b, const Grid3<Vec3f>& displacement,
                   const Lattice& lattice, float s);

// The velocity of the level set's own motion from a to b over `seconds`,
// along its normal, where both hold it within their narrow bands.
SurfaceVelocity levelSetVelocity(const LevelSet& a, const LevelSet& b, const Lattice& lattice,
                                 float seconds);

// The vertices at s between a and b (which share their topology).
TriangleMesh interpolateMesh(const TriangleMesh& a, const TriangleMesh& b, float s);

}  // namespace plume
