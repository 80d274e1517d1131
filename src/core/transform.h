// Transform: where a shape's local frame sits in the world. Scale, then
// rotation (XYZ Euler in degrees, as Blender shows it: R = Rz * Ry * Rx), then
// translation to the centre. Built once per shape (per substep, once shapes
// move), so the per-cell work is a matrix product.
#pragma once

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/vec.h"

namespace plume {

class Transform {
  public:
    Transform() = default;
    Transform(Vec3f center, Vec3f rotationDegrees, Vec3f scale) : center_(center), scale_(scale) {
        const double k = std::numbers::pi / 180.0;
        const double cx = std::cos(rotationDegrees.x * k), sx = std::sin(rotationDegrees.x * k);
        const double cy = std::cos(rotationDegrees.y * k), sy = std::sin(rotationDegrees.y * k);
        const double cz = std::cos(rotationDegrees.z * k), sz = std::sin(rotationDegrees.z * k);
        // Rows of Rz * Ry * Rx, in double so 90 degrees comes out as 0 and 1 in float.
        const double r[3][3] = {{cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx},
                                {sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx},
                                {-sy, cy * sx, cy * cx}};
        for (int a = 0; a < 3; ++a)
            rows_[a] = Vec3f(float(r[a][0]), float(r[a][1]), float(r[a][2]));
        identity_ = rotationDegrees == Vec3f(0.0f) && scale == Vec3f(1.0f);
        minScale_ = std::min({scale.x, scale.y, scale.z});
        maxScale_ = std::max({scale.x, scale.y, scale.z});
    }

    // Rotation 0 and scale 1: local is world minus the centre, exactly, so an
    // unrotated, unscaled shape carries no rounding from a rotation matrix.
    bool isIdentity() const { return identity_; }
    Vec3f center() const { return center_; }
    float minScale() const { return minScale_; }
    float maxScale() const { return maxScale_; }

    Vec3f toLocal(Vec3f pWorld) const {
        Vec3f d = pWorld - center_;
        if (identity_) return d;
        // R^T d: the columns of R dotted with d.
        Vec3f r{rows_[0].x * d.x + rows_[1].x * d.y + rows_[2].x * d.z,
                rows_[0].y * d.x + rows_[1].y * d.y + rows_[2].y * d.z,
                rows_[0].z * d.x + rows_[1].z * d.y + rows_[2].z * d.z};
        return {r.x / scale_.x, r.y / scale_.y, r.z / scale_.z};
    }

    Vec3f toWorld(Vec3f pLocal) const {
        if (identity_) return pLocal + center_;
        Vec3f s = pLocal * scale_;
        return Vec3f(dot(rows_[0], s), dot(rows_[1], s), dot(rows_[2], s)) + center_;
    }

    // A local vector (a velocity) in the world: scaled and turned, not moved.
    Vec3f vectorToWorld(Vec3f vLocal) const {
        if (identity_) return vLocal;
        Vec3f s = vLocal * scale_;
        return Vec3f(dot(rows_[0], s), dot(rows_[1], s), dot(rows_[2], s));
    }

    // A local signed distance in world metres: exact for uniform scale, a
    // lower bound of the distance (never past the surface) for a non-uniform one.
    float distanceToWorld(float localDistance) const { return localDistance * minScale_; }

    // World bounding box of the local box [lo, hi]: its eight corners mapped.
    void worldBounds(Vec3f lo, Vec3f hi, Vec3f& worldLo, Vec3f& worldHi) const {
        worldLo = Vec3f(1e30f);
        worldHi = Vec3f(-1e30f);
        for (int c = 0; c < 8; ++c) {
            Vec3f p = toWorld({c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z});
            worldLo = vmin(worldLo, p);
            worldHi = vmax(worldHi, p);
        }
    }

  private:
    Vec3f center_{0.0f};
    Vec3f rows_[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    Vec3f scale_{1.0f};
    float minScale_ = 1.0f, maxScale_ = 1.0f;
    bool identity_ = true;
};

}  // namespace plume
