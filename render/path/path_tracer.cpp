#include "render/path/path_tracer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/parallel.h"
#include "render/light/in_scattering.h"
#include "render/path/emitters.h"
#include "render/path/path_random.h"
#include "render/path/scattering.h"

namespace plume {

// Named, not anonymous: the unity build joins this file with others.
namespace path_tracing {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr float kInf = std::numeric_limits<float>::infinity();
// Bounces before Russian roulette may end a path.
constexpr int kRouletteFrom = 4;
// A path ends here whatever its weight (a guard; roulette ends them long before).
constexpr int kMaxBounces = 1024;
// Ratio tracking plays roulette on a shadow ray's transmittance below this.
constexpr float kShadowRoulette = 0.1f;
// Surfaces: a new ray starts this far (metres) off the surface it leaves.
constexpr float kSurfaceOffset = 1e-4f;
// A scattered ray looks the flame up by roulette at points whose weight
// against next-event is below this (flameAlong).
constexpr float kLineRoulette = 0.25f;

// One tentative collision of ratio tracking: the transmittance t times the
// null part of the majorant, with roulette once it is small. False: t is 0
// and the tracking stops.
bool ratioStep(float& t, float sigma, float majorant, PathRandom& random) {
    t *= 1.0f - std::min(1.0f, sigma / majorant);
    if (t < kShadowRoulette) {
        if (random.uniform() >= 0.5f) {
            t = 0.0f;
            return false;
        }
        t *= 2.0f;
    }
    return true;
}

float maxComponent(Vec3f c) { return std::max({c.x, c.y, c.z}); }

float powerHeuristic(float a, float b) {
    const float a2 = a * a, b2 = b * b;
    return a2 + b2 > 0.0f ? a2 / (a2 + b2) : 0.0f;
}

// Where a path is: in the medium, or on a surface.
struct Vertex {
    Vec3f world;       // position, metres
    Vec3f normal{0};   // on a surface: unit, on the side the path arrived from
    Vec3f albedo{0};   // scattering colour
    bool surface = false;
};

class PathIntegrator {
  public:
    explicit PathIntegrator(const PathScene& scene)
        : s_(scene), m_(*scene.medium), dx_(scene.medium->dx()), inv_(1.0f / scene.medium->dx()) {
        if (scene.flameEvents && m_.glows()) flames_ = EmissionSampler(m_);
        flameEvents_ = scene.flameEvents && m_.glows();
    }

    // One camera path from eye along d: the radiance it brings back (the
    // background excluded) and the transmittance to the background.
    Vec3f radiance(Vec3f eye, Vec3f d, PathRandom& random, float& transmittance) const;

  private:
    Vec3f toGrid(Vec3f world) const { return (world - s_.origin) * inv_; }

    // The transmittance from `from` along unit d over `distance` metres
    // (infinity: out of the scene): ratio tracking through the medium, 0
    // when a surface is in the way.
    float transmittance(Vec3f from, Vec3f d, float distance, PathRandom& random) const;
    // Light from the lights, the sky and the flame arriving at v toward a
    // path that travelled along d (medium) and scattering toward it.
    Vec3f nextEvent(const Vertex& v, Vec3f d, PathRandom& random) const;
    // The flame's part of it: a point of the flame drawn by its light.
    Vec3f flameEvent(const Vertex& v, Vec3f from, Vec3f d, PathRandom& random) const;
    // The flame's light along a ray that travels tEnd (grid units) before
    // it scatters or meets a surface: its integral by stratified points a
    // voxel apart (where the flame may glow). Over the tracked tEnd, whose
    // chance to pass t is the transmittance to t, its mean is the emission
    // seen through the medium (the track-length estimator; unlike gathering
    // at tentative collisions, its noise does not grow where a bright flame
    // is thin). The ray's direction had density scatterPdf: each point is
    // weighed against flameEvent's draw of it (lineWeight).
    Vec3f flameAlong(const Ray& ray, float tEnd, float scatterPdf, PathRandom& random) const;
    // The flame's light along the camera ray up to tEnd (grid units), added
    // to `light`: at stratified points a voxel apart, each through the
    // ratio-tracked transmittance to it (wherever the ray scatters, unlike
    // flameAlong's track length: the flame seen directly is smooth). Returns
    // the transmittance through the grid (tEnd infinite) or to tEnd.
    float flameSeen(const Ray& ray, float tEnd, Vec3f& light, PathRandom& random) const;
    // The two ways to the flame's light at a point r voxels away, weighed by
    // the power heuristic in volume measure: a direction drawn with density
    // scatterPdf reaches it with density scatterPdf / r^2, flameEvent with
    // flamePdf. The line's weight; flameEvent's is 1 minus it.
    static float lineWeight(float scatterPdf, float r2, float flamePdf) {
        const float a = scatterPdf, b = flamePdf * r2;
        return a > 0.0f ? a * a / (a * a + b * b) : 0.0f;
    }
    // The phase function or the surface's BRDF for light from wi, times cos
    // on a surface.
    float scatter(const Vertex& v, Vec3f d, Vec3f wi) const {
        if (!v.surface) return henyeyGreenstein(dot(d, wi), s_.phase);
        return std::max(0.0f, dot(v.normal, wi)) / kPi;
    }
    // The nearest surface along the ray, or false.
    bool hitSurface(Vec3f o, Vec3f d, float tMax, SurfaceHit& hit) const {
        return s_.solids && s_.solids->intersect(o, d, tMax, hit);
    }

    const PathScene& s_;
    const Medium& m_;
    float dx_, inv_;
    EmissionSampler flames_;
    bool flameEvents_ = false;
};

float PathIntegrator::transmittance(Vec3f from, Vec3f d, float distance,
                                    PathRandom& random) const {
    SurfaceHit hit;
    float t = 1.0f;
    if (hitSurface(from, d, distance, hit)) {
        if (hit.coverage >= 1.0f) return 0.0f;
        t = 1.0f - hit.coverage;  // the ground fading toward the horizon
    }
    const Ray ray(toGrid(from), d);
    const float tEnd = std::isinf(distance) ? kInf : distance * inv_;
    m_.track(ray, 0.0f, tEnd, random, [&](float tc, float majorant) {
        return ratioStep(t, m_.sigma(ray.at(tc)), majorant, random);
    });
    return t;
}

Vec3f PathIntegrator::nextEvent(const Vertex& v, Vec3f d, PathRandom& random) const {
    Vec3f light(0.0f);
    const Vec3f from = v.surface ? v.world + v.normal * kSurfaceOffset : v.world;
    for (const LightSettings& sun : s_.directional) {
        const Vec3f wi = -sun.direction;
        const float f = scatter(v, d, wi);
        if (f <= 0.0f) continue;
        const float t = transmittance(from, wi, kInf, random);
        light += sun.color * (sun.intensity * f * t);
    }
    for (const LightSettings& lamp : s_.point) {
        const Vec3f toLamp = lamp.position - from;
        const float dist2 = std::max(dot(toLamp, toLamp), 1e-8f), dist = std::sqrt(dist2);
        const Vec3f wi = toLamp / dist;
        const float f = scatter(v, d, wi);
        if (f <= 0.0f) continue;
        const float t = transmittance(from, wi, dist, random);
        light += lamp.color * (lamp.intensity * f * t / dist2);
    }
    // The sky or environment, weighted against the scattering's own sample.
    const Environment& env = *s_.environment;
    float pdf;
    const Vec3f wi = env.sample(random.uniform(), random.uniform(), pdf);
    if (pdf > 0.0f) {
        const float f = scatter(v, d, wi);
        if (f > 0.0f) {
            // The scattering draws its directions in proportion to f: f is its density.
            const float scatterPdf = f;
            const float t = transmittance(from, wi, kInf, random);
            if (t > 0.0f)
                light += env.radiance(wi) * (f * t * powerHeuristic(pdf, scatterPdf) / pdf);
        }
    }
    if (flameEvents_) light += flameEvent(v, from, d, random);
    return light;
}

Vec3f PathIntegrator::flameEvent(const Vertex& v, Vec3f from, Vec3f d, PathRandom& random) const {
    if (flames_.empty()) return Vec3f(0.0f);
    // A point of the flame p, drawn by its light: the light arriving over the
    // volume is emission(p) T f / r^2 per cubic voxel, over the point's density.
    float pdf;
    const float u0 = random.uniform(), u1 = random.uniform(), u2 = random.uniform(),
                u3 = random.uniform();
    const Vec3f p = flames_.sample(u0, u1, u2, u3, random.uniform(), pdf);
    const Vec3f toPoint = p - toGrid(from);
    const float r2 = dot(toPoint, toPoint);
    if (!(pdf > 0.0f) || !(r2 > 0.0f)) return Vec3f(0.0f);
    const Vec3f e = m_.emission(p);
    if (!(maxComponent(e) > 0.0f)) return Vec3f(0.0f);
    const float r = std::sqrt(r2);
    const Vec3f wi = toPoint / r;
    const float f = scatter(v, d, wi);
    if (f <= 0.0f) return Vec3f(0.0f);
    const float t = transmittance(from, wi, r * dx_, random);
    // Near the vertex, where 1/r^2 would spike, the next ray's line takes
    // the light over.
    return e * (f * t / (r2 * pdf) * (1.0f - lineWeight(f, r2, pdf)));
}

Vec3f PathIntegrator::flameAlong(const Ray& ray, float tEnd, float scatterPdf,
                                 PathRandom& random) const {
    float lo, hi;
    const Vec3i n = m_.n();
    if (flames_.empty() ||
        !clipRay(ray, Vec3f(0.0f), Vec3f(float(n.x), float(n.y), float(n.z)), lo, hi))
        return Vec3f(0.0f);
    hi = std::min(hi, tEnd);
    if (!(lo < hi)) return Vec3f(0.0f);
    // A point in each voxel-long stratum, all at the same offset.
    const int strata = int(std::ceil(hi - lo));
    const float length = (hi - lo) / float(strata), u = random.uniform();
    Vec3f light(0.0f);
    for (int s = 0; s < strata; ++s) {
        const float t = lo + (float(s) + u) * length;
        const Vec3f p = ray.at(t);
        if (!flames_.mayGlow(p)) continue;
        // Far from the vertex next-event takes most of the light: there the
        // point is looked up by roulette, with a chance by its weight.
        const float w = lineWeight(scatterPdf, t * t, flames_.pdf(p));
        const float keep = std::min(1.0f, w * (1.0f / kLineRoulette)) * flames_.lookupChance(p);
        if (!(keep > 0.0f) || (keep < 1.0f && random.uniform() >= keep)) continue;
        light += m_.emission(p) * (w / keep);
    }
    return light * length;
}

float PathIntegrator::flameSeen(const Ray& ray, float tEnd, Vec3f& light,
                                PathRandom& random) const {
    float lo, hi;
    const Vec3i n = m_.n();
    if (!clipRay(ray, Vec3f(0.0f), Vec3f(float(n.x), float(n.y), float(n.z)), lo, hi)) return 1.0f;
    hi = std::min(hi, tEnd);
    if (!(lo < hi)) return 1.0f;
    // The points before tUntil, through the transmittance so far.
    const int strata = flames_.empty() ? 0 : int(std::ceil(hi - lo));
    const float length = strata > 0 ? (hi - lo) / float(strata) : 0.0f, u = random.uniform();
    Vec3f flame(0.0f);
    float transmittance = 1.0f;
    int s = 0;
    auto gatherTo = [&](float tUntil) {
        for (; s < strata; ++s) {
            const float t = lo + (float(s) + u) * length;
            if (t >= tUntil) break;
            const Vec3f p = ray.at(t);
            if (!flames_.mayGlow(p)) continue;
            const float keep = flames_.lookupChance(p);
            if (!(keep > 0.0f) || (keep < 1.0f && random.uniform() >= keep)) continue;
            flame += m_.emission(p) * (transmittance / keep);
        }
    };
    // Ratio tracking, as transmittance() does.
    m_.track(ray, lo, hi, random, [&](float tc, float majorant) {
        gatherTo(tc);
        return ratioStep(transmittance, m_.sigma(ray.at(tc)), majorant, random);
    });
    if (transmittance > 0.0f) gatherTo(kInf);
    light += flame * length;
    return transmittance;
}

Vec3f PathIntegrator::radiance(Vec3f eye, Vec3f d, PathRandom& random,
                               float& transmittanceOut) const {
    Vec3f sum(0.0f), beta(1.0f);
    Vec3f o = eye;
    float scatterPdf = 0.0f;  // of the direction d after a scattering; 0 on the camera ray
    transmittanceOut = 0.0f;
    for (int bounce = 0; bounce < kMaxBounces; ++bounce) {
        SurfaceHit hit;
        bool onSurface = hitSurface(o, d, kInf, hit);
        const bool surfaceAhead = onSurface;
        // The ground fades into the background toward the horizon: a part of
        // the rays pass.
        if (onSurface && hit.coverage < 1.0f && random.uniform() >= hit.coverage) onSurface = false;
        const float tSurface = onSurface ? hit.t : kInf;

        if (bounce == 0 && flameEvents_) {
            // The flame seen directly, and what of the background shows, by
            // one ratio tracking (a ground fading toward the horizon lets
            // 1 - coverage through, as transmittance() has it).
            const bool fading = surfaceAhead && !onSurface;
            const float t = flameSeen(Ray(toGrid(o), d), tSurface * inv_, sum, random);
            transmittanceOut = onSurface ? 0.0f : fading ? t * (1.0f - hit.coverage) : t;
        } else if (bounce == 0) {
            // What of the background shows: ratio-tracked, for a smooth alpha.
            transmittanceOut = onSurface ? 0.0f : transmittance(o, d, kInf, random);
        }

        // Delta tracking to the first real collision before the surface,
        // gathering the flame's light on the way (flameAlong, or at every
        // tentative collision without flame events).
        const Ray ray(toGrid(o), d);
        Vertex v;
        float tCollision = kInf;  // grid units
        bool collided = m_.track(ray, 0.0f, tSurface * inv_, random, [&](float t, float majorant) {
            const Vec3f p = ray.at(t);
            if (m_.glows() && !flameEvents_) sum += beta * m_.emission(p) / majorant;
            if (random.uniform() * majorant < m_.sigma(p)) {
                v.world = s_.origin + p * dx_;
                v.albedo = m_.albedo(p);
                tCollision = t;
                return false;
            }
            return true;
        });
        if (flameEvents_ && bounce > 0)
            sum +=
                beta * flameAlong(ray, std::min(tCollision, tSurface * inv_), scatterPdf, random);
        if (!collided && !onSurface) {
            // Out of the scene: the sky's light, weighted against next-event's
            // sample of it (the camera ray's background is composited apart).
            if (bounce > 0) {
                const float envPdf = s_.environment->pdf(d);
                sum += beta * s_.environment->radiance(d) * powerHeuristic(scatterPdf, envPdf);
            }
            break;
        }
        if (!collided) {
            v.world = o + d * hit.t;
            v.normal = hit.normal;
            v.albedo = hit.albedo;
            v.surface = true;
        }
        beta = beta * v.albedo;
        sum += beta * nextEvent(v, d, random);

        // The next direction, drawn in proportion to the phase function or
        // to cos on a surface: its weight f / pdf is 1.
        if (v.surface) {
            d = sampleCosine(v.normal, random.uniform(), random.uniform());
            scatterPdf = std::max(0.0f, dot(v.normal, d)) / kPi;
            o = v.world + v.normal * kSurfaceOffset;
        } else {
            const Vec3f next = sampleHenyeyGreenstein(d, s_.phase, random.uniform(), random.uniform());
            scatterPdf = henyeyGreenstein(dot(d, next), s_.phase);
            d = next;
            o = v.world;
        }
        if (!(scatterPdf > 0.0f)) break;

        if (bounce + 1 >= kRouletteFrom) {
            const float keep = std::min(0.95f, maxComponent(beta));
            if (random.uniform() >= keep) break;
            beta = beta / keep;
        }
    }
    return sum;
}

}  // namespace path_tracing

void tracePaths(const PathScene& scene, LinearImage& image) {
    const path_tracing::PathIntegrator integrator(scene);
    const Camera& camera = *scene.camera;
    const int width = image.width, samples = std::max(1, scene.samples);
    parallelForTiles(image.width, image.height, 16, [&](int x0, int y0, int x1, int y1) {
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) {
                Vec3f sum(0.0f);
                double transmittance = 0.0;
                for (int s = 0; s < samples; ++s) {
                    PathRandom random(uint32_t(x), uint32_t(y), uint32_t(scene.frame), uint32_t(s));
                    const float jx = random.uniform(), jy = random.uniform();
                    const Vec3f d = camera.direction(float(x) + jx, float(y) + jy);
                    float t;
                    sum += integrator.radiance(camera.origin(float(x) + jx, float(y) + jy), d,
                                               random, t);
                    transmittance += t;
                }
                const size_t i = size_t(y) * width + x;
                const float inv = 1.0f / float(samples);
                image.rgb[i * 3] = sum.x * inv;
                image.rgb[i * 3 + 1] = sum.y * inv;
                image.rgb[i * 3 + 2] = sum.z * inv;
                image.transmittance[i] = float(transmittance * inv);
            }
    });
}

}  // namespace plume
