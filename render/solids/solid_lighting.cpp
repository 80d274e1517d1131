#include "render/solids/solid_lighting.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>

#include "core/parallel.h"
#include "render/light/in_scattering.h"
#include "render/march/hash.h"
#include "render/march/ray.h"

namespace plume {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kPi = std::numbers::pi_v<float>;

// Optical depth of one voxel of solid in the light sweeps: black after a
// voxel or two even in the deepest multiple-scattering octave (1/8 the depth)
// and in the sky's sweep (a quarter).
constexpr float kSolidDepthPerVoxel = 40.0f;

// Surfaces read the light grids this many voxels off their surface, where no
// cell of the lookup holds any of the solid, which is dark.
constexpr float kLookupOffsetVoxels = 2.0f;

// Without a ground, the world below the horizon gives a surface this much of
// the sky's light (the background's lower half is dark).
constexpr float kSkyBelowNoGround = 0.25f;

// Shadow rays start this many voxels off the surface, clear of its own facets.
constexpr float kShadowOffsetVoxels = 0.01f;

float luminance(Vec3f c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }

// Lights are not points: a solid's shadow on a surface is soft, the light
// seen as a disc this wide (in radians from its centre), through this many
// shadow rays, spread in a sunflower pattern turned by a hash of the point.
constexpr float kLightRadius = 0.02f;
constexpr int kShadowRays = 16;

uint32_t hashPoint(Vec3f p) {
    uint32_t b[3];
    static_assert(sizeof(b) == sizeof(float) * 3);
    std::memcpy(b, &p, sizeof(b));
    return hashPixel(b[0], b[1], b[2], 0x51ed270bu);
}

// The sunflower pattern of shadow rays on a unit disc.
struct DiscPattern {
    float x[kShadowRays], y[kShadowRays];
    DiscPattern() {
        for (int r = 0; r < kShadowRays; ++r) {
            const float radius = std::sqrt((float(r) + 0.5f) / kShadowRays);
            const float angle = 2.3999632f * float(r);  // the golden angle
            x[r] = radius * std::cos(angle);
            y[r] = radius * std::sin(angle);
        }
    }
};

// The fraction of a light's disc, seen from `from` in direction `toward`,
// that no solid hides.
// `along`: the direction toward the light (and its reciprocal).
float unshadowed(const SolidScene& solids, Vec3f from, const Ray& along, float tMax) {
    const Vec3f toward = along.d;
    if (!solids.hasObstacles()) return 1.0f;
    // Most points are nowhere near a solid's shadow: when the cone of rays
    // misses the solids' box grown by the cone's width there, all of them do.
    const Vec3f lo = solids.boundsMin(), hi = solids.boundsMax();
    const float far = length(vmax(vmax(from - lo, hi - from), Vec3f(0.0f)));
    const Vec3f margin(1.01f * kLightRadius * far + 1e-4f);
    float t0, t1;
    if (!clipRay(Ray(from, along), lo - margin, hi + margin, t0, t1) || t0 >= tMax) return 1.0f;

    static const DiscPattern disc;
    const Vec3f helper = std::fabs(toward.z) < 0.9f ? Vec3f(0, 0, 1) : Vec3f(1, 0, 0);
    const Vec3f u = normalize(cross(toward, helper)), v = cross(toward, u);
    const float turn = 6.2831853f * hashToUnit(hashPoint(from));
    const float c = std::cos(turn) * kLightRadius, s = std::sin(turn) * kLightRadius;
    int open = 0;
    for (int r = 0; r < kShadowRays; ++r) {
        const float a = c * disc.x[r] - s * disc.y[r], b = s * disc.x[r] + c * disc.y[r];
        open += !solids.occluded(from, normalize(toward + u * a + v * b), tMax);
    }
    return float(open) / kShadowRays;
}

}  // namespace

SurfaceLight::SurfaceLight(const ShadingGrid& grid, const Box3i& lit,
                           std::span<const LightSettings> directional,
                           std::span<const LightSettings> point, const RenderSettings& render,
                           const GroundSettings& ground, const VolumeView& volume,
                           const SolidScene& solids, const FireLight* fire)
    : grid_(grid),
      lit_(lit),
      directional_(directional),
      point_(point),
      render_(render),
      ground_(ground),
      volume_(volume),
      solids_(solids),
      fire_(fire && !fire->empty() ? fire : nullptr) {
    for (const LightSettings& light : directional_)
        towardLight_.emplace_back(Vec3f(0.0f), -light.direction);
    if (!lit.empty()) {
        sampleLo_ = Vec3f(float(lit.lo.x), float(lit.lo.y), float(lit.lo.z)) + Vec3f(0.5f);
        sampleHi_ = Vec3f(float(lit.hi.x), float(lit.hi.y), float(lit.hi.z)) - Vec3f(0.5f);
    }
    below_ = worldBelow();
}

void SurfaceLight::setSky(std::span<const SkyLight> parts) {
    skyParts_ = parts;
    below_ = worldBelow();
}

// The ground as a diffuse surface under the open sky and the suns: what it
// sends up lights the undersides of the solids (the path tracer's first
// bounce off it, without the shadows on it). Without a ground, a dim world.
Vec3f SurfaceLight::worldBelow() const {
    const bool skyOn = render_.ambient.x > 0.0f || render_.ambient.y > 0.0f || render_.ambient.z > 0.0f;
    if (!ground_.enabled) return render_.ambient * (kPi * kSkyBelowNoGround);
    Vec3f onGround(0.0f);
    if (skyParts_.empty() || !skyOn) {
        onGround = render_.ambient * kPi;
    } else {
        for (const SkyLight& part : skyParts_)
            if (part.direction.z < 0.0f) onGround += part.light * -part.direction.z;
    }
    for (const LightSettings& light : directional_)
        if (light.direction.z < 0.0f) onGround += light.color * (light.intensity * -light.direction.z);
    return ground_.color * onGround;
}

float SurfaceLight::channelToward(Vec3f p, const Ray& along, int channel, float clear,
                                  float& entry) const {
    const Vec3f toward = along.d;
    entry = kInf;
    if (lit_.empty()) return clear;
    Vec3f g = (p - volume_.origin) / volume_.dx;
    const bool inside = g.x >= sampleLo_.x && g.y >= sampleLo_.y && g.z >= sampleLo_.z &&
                        g.x <= sampleHi_.x && g.y <= sampleHi_.y && g.z <= sampleHi_.z;
    entry = 0.0f;
    if (!inside) {
        float t0, t1;
        if (!clipRay(Ray(g, along), sampleLo_, sampleHi_, t0, t1)) {
            entry = kInf;
            return clear;
        }
        entry = t0 * volume_.dx;
        g = vmin(vmax(g + toward * t0, sampleLo_), sampleHi_);
    }
    float value = grid_.weights(g)(grid_.data() + channel);
    if (channel != kSkyChannel) return value;
    // The sky channel holds the smoke's openness: the sky's light there is
    // skyLight of it (render/light/in_scattering.h).
    value = skyLight(value, render_.albedo);
    // The sky is swept with a sideways blur, which leaks a little depth into
    // the box's side columns, where no smoke is: without this fade to the
    // open sky over their two cells, the ground would show the box's outline
    // where its lookups start.
    const float edge =
        std::min({g.x - sampleLo_.x, sampleHi_.x - g.x, g.y - sampleLo_.y, sampleHi_.y - g.y});
    const float w = std::clamp(0.5f * edge, 0.0f, 1.0f);
    return clear + (value - clear) * w;
}

Vec3f SurfaceLight::irradiance(Vec3f p, Vec3f n, bool shadows) const {
    const Vec3f off = p + n * (kShadowOffsetVoxels * volume_.dx);
    const Vec3f lookup = p + n * (kLookupOffsetVoxels * volume_.dx);
    // Through the light grids (smoke, and the solids inside them), then soft
    // shadow rays over the part of the way to the light outside them.
    auto seenThrough = [&](const Ray& along, int channel, float dist) {
        float entry;
        const float depth = channelToward(lookup, along, channel, 0.0f, entry);
        float seen = std::exp(-depth);
        if (entry > 0.0f && seen > 0.0f)
            seen *= unshadowed(solids_, off, along, std::min(entry, dist));
        return seen;
    };
    Vec3f e(0.0f);
    for (size_t l = 0; l < directional_.size(); ++l) {
        const LightSettings& light = directional_[l];
        const Vec3f toward = -light.direction;
        const float cosine = dot(n, toward);
        if (cosine <= 0.0f) continue;
        const float seen =
            shadows ? seenThrough(towardLight_[l], kFirstLightChannel + int(l), kInf) : 1.0f;
        e += light.color * (light.intensity * cosine * seen);
    }
    const int firstPoint = kFirstLightChannel + int(directional_.size());
    for (size_t l = 0; l < point_.size(); ++l) {
        const LightSettings& light = point_[l];
        const Vec3f to = light.position - p;
        const float dist2 = std::max(dot(to, to), 1e-6f);
        const float dist = std::sqrt(dist2);
        const Vec3f toward = to / dist;
        const float cosine = dot(n, toward);
        if (cosine <= 0.0f) continue;
        const float seen =
            shadows ? seenThrough(Ray(Vec3f(0.0f), toward), firstPoint + int(l), dist) : 1.0f;
        e += light.color * (light.intensity * cosine * seen / dist2);
    }
    if (fire_) e += fire_->irradiance((p - volume_.origin) / volume_.dx, n, shadows);
    // A uniform sky of radiance `ambient` over the upper half of what the
    // surface faces, through the smoke (and solids) above; a dimmer world
    // below, which the sky lights.
    float entry;
    const float sky = shadows ? channelToward(lookup, up_, kSkyChannel, 1.0f, entry) : 1.0f;
    const bool skyOn = render_.ambient.x > 0.0f || render_.ambient.y > 0.0f || render_.ambient.z > 0.0f;
    if (skyParts_.empty() || !skyOn) {
        e += render_.ambient * (kPi * 0.5f * (1.0f + n.z) * sky);
    } else {
        // The parts above the horizon, each from its direction; the world
        // below as before.
        Vec3f above(0.0f);
        for (const SkyLight& part : skyParts_)
            if (part.direction.z < 0.0f) above += part.light * std::max(0.0f, -dot(n, part.direction));
        e += above * sky;
    }
    e += below_ * (0.5f * (1.0f - n.z));
    return e;
}

Vec3f SurfaceLight::shade(Vec3f p, const SurfaceHit& hit) const {
    return hit.albedo * irradiance(p, hit.normal, true) / kPi;
}

float SurfaceLight::shadow(Vec3f p, Vec3f n) const {
    const float open = luminance(irradiance(p, n, false));
    if (open <= 0.0f) return 0.0f;
    return std::clamp(1.0f - luminance(irradiance(p, n, true)) / open, 0.0f, 1.0f);
}

Box3i solidCells(const SolidScene& solids, const VolumeView& volume, Vec3i n) {
    if (!solids.hasObstacles()) return {};
    const Vec3f lo = (solids.boundsMin() - volume.origin) / volume.dx;
    const Vec3f hi = (solids.boundsMax() - volume.origin) / volume.dx;
    Box3i box{{std::max(0, int(std::floor(lo.x))), std::max(0, int(std::floor(lo.y))),
               std::max(0, int(std::floor(lo.z)))},
              {std::min(n.x, int(std::ceil(hi.x)) + 1), std::min(n.y, int(std::ceil(hi.y)) + 1),
               std::min(n.z, int(std::ceil(hi.z)) + 1)}};
    if (box.lo.x >= box.hi.x || box.lo.y >= box.hi.y || box.lo.z >= box.hi.z) return {};
    return box;
}

void SolidsInSweep::add(ShadingGrid& grid, const Box3i& box, const VolumeView& volume,
                        float sigmaPerVoxel, const SolidScene& solids) {
    const int nz = box.empty() ? 0 : box.hi.z - box.lo.z;
    slabs_.assign(size_t(nz), {});
    if (nz == 0 || !solids.hasObstacles() || !(sigmaPerVoxel > 0.0f)) return;
    const float opaque = kSolidDepthPerVoxel / sigmaPerVoxel;
    parallelForRange(nz, [&](int k0, int k1) {
        for (int k = box.lo.z + k0; k < box.lo.z + k1; ++k) {
            auto& replaced = slabs_[size_t(k - box.lo.z)];
            for (int j = box.lo.y; j < box.hi.y; ++j)
                for (int i = box.lo.x; i < box.hi.x; ++i) {
                    const Vec3f p = volume.origin + Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * volume.dx;
                    // The part of the cell the solid fills, from its
                    // distance: a staircase of whole voxels would show in
                    // the shadow's edge.
                    const float fill =
                        std::clamp(0.5f - solids.distance(p, volume.dx) / volume.dx, 0.0f, 1.0f);
                    if (fill <= 0.0f) continue;
                    const size_t cell = grid.cellIndex(i, j, k);
                    float& density = grid.cell(cell)[0];
                    replaced.emplace_back(cell, density);
                    density = std::max(density, opaque * fill);
                }
        }
    });
}

void SolidsInSweep::remove(ShadingGrid& grid) {
    for (const auto& slab : slabs_)
        for (const auto& [cell, density] : slab) grid.cell(cell)[0] = density;
    slabs_.clear();
}

}  // namespace plume
