// The light around the scene: the procedural sky (render.ambient, the same
// radiance from every direction) or an [environment] map, lat-long, as
// Cycles' direction_to_equirectangular maps it: Z up, u = 0.5 - atan2(y, x)
// / 2pi (the image's left edge toward -X, a quarter in toward +Y, its middle
// toward +X), v = 0.5 + asin(z) / pi from the bottom row. Sampled in
// proportion to its light for the path tracer's next-event estimation.
#pragma once

#include <span>
#include <vector>

#include "core/radiance_map.h"
#include "core/vec.h"
#include "render/output/color_space.h"
#include "scene/scene.h"

namespace plume {

// One part of the sky as a distant light (Environment::skyLights).
struct SkyLight {
    Vec3f direction;  // the way its light travels, unit
    Vec3f light;      // its part's radiance integrated over its solid angle
    float share;      // its part of the sky's luminance, the parts' summing to 1
};

class Environment {
  public:
    // The same radiance from every direction.
    explicit Environment(Vec3f radiance = Vec3f(0.0f));
    // The map of `settings`, taken from linear Rec. 709 into `space`.
    Environment(const EnvironmentSettings& settings, const WorkingSpace& space);

    bool constant() const { return map_.rgb.empty(); }
    // The radiance arriving from unit direction `d` (the light travels along -d).
    Vec3f radiance(Vec3f d) const;
    // A direction drawn in proportion to the radiance (luminance times the
    // map's solid angle), with its density per steradian.
    Vec3f sample(float u1, float u2, float& pdf) const;
    // The density per steradian `sample` draws unit direction d with.
    float pdf(Vec3f d) const;
    // The mean radiance over the sphere.
    Vec3f mean() const { return mean_; }
    // The mean radiance over the sixth of the sphere around axis direction
    // `axis` (a unit axis, +-X, +-Y, +-Z): the directions nearer it than any other axis.
    Vec3f meanAround(Vec3f axis) const;

    // The sky as distant lights for the march: the sphere split among
    // `centres` (unit directions the light comes from; each takes the
    // directions nearer it than any other), each part's light sent from its
    // light-weighted mean direction, so a map's sun shines from where it is.
    std::vector<SkyLight> skyLights(std::span<const Vec3f> centres) const;

  private:
    Vec3f texel(int x, int y) const {
        const float* p = &map_.rgb[(size_t(y) * map_.width + x) * 3];
        return {p[0], p[1], p[2]};
    }
    // Map coordinates of a world direction, and back: u across, v from the top.
    void toMap(Vec3f d, float& u, float& v) const;
    Vec3f fromMap(float u, float v) const;
    void buildDistribution();

    Vec3f constant_{0.0f};
    RadianceMap map_;
    float cosRot_ = 1.0f, sinRot_ = 0.0f;
    Vec3f mean_{0.0f};
    Vec3f faceMean_[6];  // meanAround +X, -X, +Y, -Y, +Z, -Z
    // Importance sampling: each row's share (its texels' weights summed,
    // cumulative over rows), and each texel's within its row, cumulative.
    std::vector<float> rowCdf_, texelCdf_;
    float weightSum_ = 0.0f;
};

}  // namespace plume
