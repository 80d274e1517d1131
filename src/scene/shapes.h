// Signed distance to the emitter and obstacle shapes, in metres (negative inside).
// A PlacedShape is a shape with its transform built once; moving shapes will
// rebuild only the transform per substep, the shape (and a mesh's SDF) stays.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/level_set.h"
#include "core/transform.h"
#include "core/vec.h"
#include "scene/scene.h"

namespace plume {

// Distance to a sphere or box about the origin of d's frame.
inline float analyticDistance(Shape shape, float radius, Vec3f size, Vec3f d) {
    if (shape == Shape::Sphere) return length(d) - radius;
    Vec3f q{std::fabs(d.x) - 0.5f * size.x, std::fabs(d.y) - 0.5f * size.y,
            std::fabs(d.z) - 0.5f * size.z};
    Vec3f outside = vmax(q, Vec3f(0.0f));
    return length(outside) + std::min(std::max({q.x, q.y, q.z}), 0.0f);
}

class PlacedShape {
  public:
    explicit PlacedShape(const ShapeSettings& s)
        : s_(s), transform_(s.center, s.rotation, s.scale) {
        if (s.shape == Shape::Mesh && !s.levelSet)
            throw RunError("a mesh shape (line " + std::to_string(s.line) +
                           ") has no SDF: loadSceneGeometry was not called");
    }

    const Transform& transform() const { return transform_; }

    float signedDistance(Vec3f pWorld) const {
        Vec3f pLocal = transform_.toLocal(pWorld);
        float d = s_.shape == Shape::Mesh ? s_.levelSet->sample(pLocal)
                                          : analyticDistance(s_.shape, s_.radius, s_.size, pLocal);
        return transform_.isIdentity() ? d : transform_.distanceToWorld(d);
    }

    // The shape's bounding box in its local frame.
    void localBounds(Vec3f& lo, Vec3f& hi) const {
        if (s_.shape == Shape::Mesh) {
            lo = s_.levelSet->boundsMin();
            hi = s_.levelSet->boundsMax();
            return;
        }
        Vec3f half = s_.shape == Shape::Sphere ? Vec3f(s_.radius) : s_.size * 0.5f;
        lo = -half;
        hi = half;
    }

    // Half the extent of the world box, per axis.
    Vec3f halfExtent() const {
        Vec3f lo, hi;
        localBounds(lo, hi);
        if (transform_.isIdentity() && s_.shape != Shape::Mesh) return hi;
        worldBounds(lo, hi);
        return (hi - lo) * 0.5f;
    }

    // The world box [lo, hi] the shape lies in.
    void worldBounds(Vec3f& lo, Vec3f& hi) const {
        Vec3f localLo, localHi;
        localBounds(localLo, localHi);
        if (transform_.isIdentity()) {  // exact: centre +- half extent
            Vec3f half = localHi;
            lo = s_.center - half;
            hi = s_.center + half;
            if (s_.shape == Shape::Mesh) lo = localLo + s_.center, hi = localHi + s_.center;
            return;
        }
        transform_.worldBounds(localLo, localHi, lo, hi);
    }

  private:
    const ShapeSettings& s_;
    Transform transform_;
};

}  // namespace plume
