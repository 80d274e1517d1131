// Every pixel's centre ray, marched as the beauty marches it (the same
// samples: render/march/pixel_tracer.h rayOffset), with the parts it
// integrates handed over (RayMarcher::marchSegments): what the deep image
// and the motion pass are made of (render/output/segment_passes.cpp).
#pragma once

#include <limits>
#include <vector>

#include "core/parallel.h"
#include "render/march/pixel_tracer.h"
#include "render/march/ray.h"
#include "render/march/ray_marcher.h"
#include "render/output/deep_image.h"

namespace plume {

// What a pixel's centre ray met: its parts front to back (a solid's surface
// last), the metres to where it enters the smoke's box (or the solid; -1:
// neither), and its direction.
struct PixelSegments {
    std::vector<RaySegment> parts;
    float entry = -1.0f;
    Vec3f direction{0.0f};
};

namespace detail {

struct SegmentList {
    static constexpr bool kNone = false;
    std::vector<RaySegment>* parts;
    float dx;  // metres per grid unit
    void operator()(float t0, float t1, Vec3f added, float before, float transmittance) {
        parts->push_back({t0 * dx, t1 * dx, added, before, transmittance, false});
    }
};

}  // namespace detail

// Calls perRow(y, rowParts) for every row, rows in parallel, with the row's
// PixelSegments (width of them), each pixel's ray traced as
// PixelTracer::traceRay traces the centre ray.
template <typename Marcher, typename PerRow>
void traceSegments(const FrameRays& rays, const Marcher& marcher, int width, int height,
                   PerRow perRow) {
    const Camera& camera = rays.camera;
    parallelForRange(height, [&](int y0, int y1) {
        std::vector<PixelSegments> row(static_cast<size_t>(width));
        for (int y = y0; y < y1; ++y) {
            for (int x = 0; x < width; ++x) {
                PixelSegments& px = row[size_t(x)];
                px.parts.clear();
                px.entry = -1.0f;
                const Vec3f d = camera.direction(x, y);
                px.direction = d;
                const Vec3f from = camera.origin(x, y);
                const Ray ray(rays.rayOrigin(float(x) + 0.5f, float(y) + 0.5f), d);
                SurfaceHit hit;
                const bool solid =
                    rays.solids &&
                    rays.solids->intersect(from, d, std::numeric_limits<float>::infinity(), hit);
                RaySum sum;
                float t0, t1;
                if (rays.smoke.contains(x, y) && clipRay(ray, rays.marchLo, rays.marchHi, t0, t1)) {
                    if (solid) t1 = std::min(t1, hit.t / rays.dx);
                    if (t0 < t1) {
                        px.entry = t0 * rays.dx;
                        detail::SegmentList sink{&px.parts, rays.dx};
                        sum = marcher.marchSegments(ray, t0, t1, rayOffset(x, y, rays), sink);
                    }
                }
                if (!solid) continue;
                if (px.entry < 0.0f) px.entry = hit.t;
                RaySegment s;
                s.z0 = s.z1 = hit.t;
                s.solid = true;
                s.before = sum.transmittance;
                const Vec3f p = from + d * hit.t;
                if (hit.id == kGroundId && rays.solids->shadowCatcher()) {
                    s.transmittance =
                        1.0f - hit.coverage * rays.surfaceLight->shadow(p, hit.normal);
                } else {
                    s.added = rays.surfaceLight->shade(p, hit) * (sum.transmittance * hit.coverage);
                    s.transmittance = 1.0f - hit.coverage;
                }
                px.parts.push_back(s);
            }
            perRow(y, row);
        }
    });
}

}  // namespace plume
