// SolidScene: the visible obstacles and the ground as opaque surfaces, for
// camera rays (the nearest hit) and shadow rays (any hit), in world metres.
//
// Spheres and boxes are intersected exactly in their own frame. Meshes (and
// the zero isosurface of .vdb level sets) are ray-traced as triangles with
// Embree (solid_scene.cpp is the one file that includes it): the SDF the
// solver uses is only as fine as a simulation voxel, and tracing it would show
// those voxels as facets and rounded edges in any close-up, where the
// triangles are what the artist modelled.
#pragma once

#include <memory>
#include <vector>

#include "core/transform.h"
#include "core/vec.h"
#include "scene/scene.h"

namespace plume {

// What a ray hits. `id` is 1 + the obstacle's index in the scene, kGroundId
// for the ground, 0 for nothing; the renderer anti-aliases where it changes.
constexpr int kGroundId = 1 << 20;

struct SurfaceHit {
    float t = 0.0f;      // along the ray, metres (unit direction)
    Vec3f normal{0.0f};  // unit, facing the ray
    Vec3f albedo{0.0f};
    int id = 0;
    float coverage = 1.0f;  // the ground fades into the background toward the horizon
};

class SolidScene {
  public:
    SolidScene();
    ~SolidScene();
    SolidScene(const SolidScene&) = delete;
    SolidScene& operator=(const SolidScene&) = delete;

    // Places the visible obstacles where they are at this frame, and the
    // ground. `center` is the domain's centre (the ground's square is centred
    // under it) and `horizon` the distance over which an infinite ground
    // fades out. A mesh's triangles are placed again only when it moved.
    void place(const std::vector<ObstacleSettings>& obstacles, const GroundSettings& ground,
               Vec3f center, float horizon);

    bool empty() const { return !hasObstacles() && !ground_.enabled; }
    bool hasObstacles() const { return !shapes_.empty() || meshCount_ > 0; }
    bool groundEnabled() const { return ground_.enabled; }
    bool shadowCatcher() const { return ground_.enabled && ground_.shadowCatcher; }
    // The world box every visible obstacle lies in (empty without obstacles).
    Vec3f boundsMin() const { return lo_; }
    Vec3f boundsMax() const { return hi_; }

    // The nearest surface along o + t d for t in (0, tMax); d is unit length.
    bool intersect(Vec3f o, Vec3f d, float tMax, SurfaceHit& hit) const;

    // Whether an obstacle (the ground casts no shadow) lies on o + t d for t
    // in (0, tMax).
    bool occluded(Vec3f o, Vec3f d, float tMax) const;

    // Signed distance (metres, negative inside) to the nearest obstacle,
    // at most `far`: what is farther than that reads as `far`.
    float distance(Vec3f p, float far) const;

  private:
    struct Primitive {
        ShapeSettings settings;
        Transform transform;
        Vec3f albedo;
        Vec3f lo, hi;  // world bounds
        int id;
    };
    bool hitShape(const Primitive& s, Vec3f o, Vec3f d, float tMax, SurfaceHit& hit) const;
    bool hitGround(Vec3f o, Vec3f d, float tMax, SurfaceHit& hit) const;

    std::vector<Primitive> shapes_;  // spheres and boxes
    GroundSettings ground_;
    Vec3f center_{0.0f};
    float horizon_ = 1.0f;
    Vec3f lo_{0.0f}, hi_{0.0f};  // bounds of every obstacle, for quick rejects

    struct Meshes;  // the Embree scene
    std::unique_ptr<Meshes> meshes_;
    int meshCount_ = 0;
};

}  // namespace plume
