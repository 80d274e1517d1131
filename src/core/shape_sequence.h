// ShapeSequence: a shape whose surface changes from frame to frame (a mesh
// sequence, `file = "body_####.obj"`). io makes one (io/mesh_sequence), since
// only io reads meshes and builds level sets; the scene poses it with its keys
// (Scene::poseSurfacesAt), the solver samples its SDF and its surface's own
// velocity, the renderer draws its triangles.
#pragma once

#include <memory>

#include "core/grid3.h"
#include "core/level_set.h"
#include "core/triangle_mesh.h"
#include "core/vec.h"

namespace plume {

// The velocity of a surface's own motion (its deformation, in its local frame:
// local metres per second) near the surface, on a lattice like a LevelSet's.
// Beyond what the lattice holds the surface's motion is unknown and reads 0.
struct SurfaceVelocity {
    Grid3<Vec3f> velocity;  // samples at origin + (i, j, k) * voxelSize (offset 0)
    Vec3f origin{0.0f};
    float voxelSize = 1.0f;

    Vec3f sample(Vec3f pLocal) const {
        if (velocity.size() == 0) return Vec3f(0.0f);
        const Vec3f pGrid = (pLocal - origin) / voxelSize;
        if (pGrid.x < 0.0f || pGrid.y < 0.0f || pGrid.z < 0.0f ||
            pGrid.x > float(velocity.nx() - 1) || pGrid.y > float(velocity.ny() - 1) ||
            pGrid.z > float(velocity.nz() - 1))
            return Vec3f(0.0f);
        return velocity.sample(pGrid);
    }
};

// The solid part of a sequence at one moment: its SDF and its own velocity
// (none before its first file, after its last, and at a file's own frame).
struct SolidPose {
    std::shared_ptr<const LevelSet> levelSet;
    std::shared_ptr<const SurfaceVelocity> velocity;  // null: the surface holds still
};

class ShapeSequence {
  public:
    virtual ~ShapeSequence() = default;
    // At scene frame `frame` (the solver's frame index, fractional: frame f is
    // the state at time f / fps). The same frame gives the same bits, whatever
    // was asked before: results do not depend on the order of questions.
    virtual SolidPose solidAt(double frame) const = 0;
    // Its triangles then (for the renderer).
    virtual std::shared_ptr<const TriangleMesh> surfaceAt(double frame) const = 0;
};

}  // namespace plume
