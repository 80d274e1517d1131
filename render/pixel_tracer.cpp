#include "render/pixel_tracer.h"

#include <algorithm>
#include <limits>

#include "core/parallel.h"
#include "render/depth_march.h"
#include "render/hash.h"
#include "render/ray.h"
#include "render/ray_marcher.h"
#include "render/render_passes.h"

namespace plume {

namespace {

constexpr int kTileSize = 16;
constexpr uint32_t kJitterSeed = 0x9e3779b9u;

// A pixel's centre ray.
constexpr float kCentre[2] = {0.0f, 0.0f};

// Pixels where the solid (or ground) seen at the centre changes get these
// four more rays, a rotated grid inside the pixel: smooth silhouettes at four
// times the work on edges only.
constexpr float kEdgeOffsets[4][2] = {
    {0.125f, 0.375f}, {0.375f, -0.125f}, {-0.125f, -0.375f}, {-0.375f, 0.125f}};

// The sample's offset inside each interval of a pixel's ray: hashed, the
// same for the whole ray.
float rayJitter(int x, int y, int frame) {
    return hashToUnit(hashPixel(x, y, uint32_t(frame), kJitterSeed));
}

template <typename PerPixel>
void forEachPixelOf(int width, int height, PerPixel perPixel) {
    parallelForTiles(width, height, kTileSize, [&](int x0, int y0, int x1, int y1) {
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) perPixel(x, y);
    });
}

template <typename Marcher>
class PixelTracer {
  public:
    PixelTracer(const FrameRays& rays, const Marcher& marcher, LinearImage& image,
                std::vector<int>& hitIds)
        : rays_(rays), marcher_(marcher), image_(image), hitIds_(hitIds) {}

    // One jittered ray per pixel (one per moment where solids move), tiles in parallel.
    void tracePixels() {
        if (rays_.solids) hitIds_.assign(size_t(image_.width) * image_.height, 0);
        forEachPixel([&](int x, int y) { tracePixel(x, y); });
    }

    // Anti-aliased silhouettes: a pixel whose centre sees something else
    // than a neighbour's is the mean of four rays spread over it.
    void antialiasEdges() {
        forEachPixel([&](int x, int y) {
            if (!onEdge(x, y)) return;
            store(x, y, meanOf(4, [&](int e) {
                      return traceRay(x, y, kEdgeOffsets[e], rays_.solids, rays_.surfaceLight);
                  }));
        });
    }

  private:
    template <typename PerPixel>
    void forEachPixel(PerPixel perPixel) {
        forEachPixelOf(image_.width, image_.height, perPixel);
    }

    void tracePixel(int x, int y) {
        const size_t pixel = size_t(y) * image_.width + x;
        // Moving solids: a ray per moment, each at its own spot in the pixel.
        const BlurredSolids& blurred = rays_.blurred;
        if (rays_.solids && blurred.pixels.contains(x, y)) {
            store(x, y, meanOf(int(blurred.scenes.size()), [&](int m) {
                      return traceRay(x, y, kBlurOffsets[m % kBlurTimes], blurred.scenes[m].get(),
                                      &blurred.lights[m]);
                  }));
            hitIds_[pixel] = -1;  // already spread over the pixel
            return;
        }
        int id = 0;
        store(x, y, traceRay(x, y, kCentre, rays_.solids, rays_.surfaceLight, &id));
        if (rays_.solids) hitIds_[pixel] = id;
    }

    // Whether a neighbour's centre saw another solid (blurred pixels aside).
    bool onEdge(int x, int y) const {
        const size_t pixel = size_t(y) * image_.width + x;
        const int id = hitIds_[pixel];
        if (id < 0) return false;
        auto differs = [&](size_t other) { return hitIds_[other] >= 0 && hitIds_[other] != id; };
        return (x > 0 && differs(pixel - 1)) || (x + 1 < image_.width && differs(pixel + 1)) ||
               (y > 0 && differs(pixel - image_.width)) ||
               (y + 1 < image_.height && differs(pixel + image_.width));
    }

    // One ray through pixel (x, y) at `offset` from its centre: the smoke in
    // front of the nearest solid, then the solid; `id` says what it hit.
    RaySum traceRay(int x, int y, const float offset[2], const SolidScene* solids,
                    const SurfaceLight* surfaceLight, int* id = nullptr) const {
        const Camera& camera = rays_.camera;
        const Vec3f d =
            camera.direction(float(x) + 0.5f + offset[0], float(y) + 0.5f + offset[1]);
        const Ray ray(rays_.eye, d);
        SurfaceHit hit;
        const bool solid = solids && solids->intersect(camera.position(), d,
                                                       std::numeric_limits<float>::infinity(), hit);
        if (id) *id = solid ? hit.id : 0;
        // The smoke: clip the ray to it and march the part inside; a pixel
        // away from the smoke's image misses it.
        RaySum sum;
        float t0, t1;
        if (rays_.smoke.contains(x, y) && clipRay(ray, rays_.marchLo, rays_.marchHi, t0, t1)) {
            if (solid) t1 = std::min(t1, hit.t / rays_.dx);
            if (t0 < t1) sum = marcher_.march(ray, t0, t1, jitter(x, y));
        }
        if (solid) {
            const Vec3f p = camera.position() + d * hit.t;
            if (hit.id == kGroundId && solids->shadowCatcher()) {
                // Only the shadow: it darkens what lies behind, in alpha.
                sum.transmittance *= 1.0f - hit.coverage * surfaceLight->shadow(p, hit.normal);
            } else {
                sum.radiance += surfaceLight->shade(p, hit) * (sum.transmittance * hit.coverage);
                sum.transmittance *= 1.0f - hit.coverage;
            }
        }
        return sum;
    }

    // The mean of rays 0 .. count-1.
    template <typename RayAt>
    static RaySum meanOf(int count, RayAt rayAt) {
        RaySum mean;
        mean.transmittance = 0.0f;
        const float share = 1.0f / float(count);
        for (int r = 0; r < count; ++r) {
            const RaySum s = rayAt(r);
            mean.radiance += s.radiance * share;
            mean.transmittance += s.transmittance * share;
        }
        return mean;
    }

    float jitter(int x, int y) const { return rayJitter(x, y, rays_.frame); }

    void store(int x, int y, const RaySum& sum) {
        const size_t pixel = size_t(y) * image_.width + x;
        image_.rgb[pixel * 3 + 0] = sum.radiance.x;
        image_.rgb[pixel * 3 + 1] = sum.radiance.y;
        image_.rgb[pixel * 3 + 2] = sum.radiance.z;
        image_.transmittance[pixel] = sum.transmittance;
    }

    const FrameRays& rays_;
    const Marcher& marcher_;
    LinearImage& image_;
    std::vector<int>& hitIds_;
};

}  // namespace

template <typename Marcher>
void traceFrame(const FrameRays& rays, const Marcher& marcher, LinearImage& image,
                std::vector<int>& hitIds) {
    PixelTracer<Marcher> tracer(rays, marcher, image, hitIds);
    tracer.tracePixels();
    if (rays.solids) tracer.antialiasEdges();
}

template <typename Marcher>
void traceDepth(const FrameRays& rays, const Marcher& marcher, int width, int height,
                std::vector<float>& depth) {
    depth.assign(size_t(width) * height, kNoDepth);
    const Camera& camera = rays.camera;
    forEachPixelOf(width, height, [&](int x, int y) {
        const Vec3f d = camera.direction(x, y);
        const Ray ray(rays.eye, d);
        SurfaceHit hit;
        const bool solid = rays.solids &&
                           rays.solids->intersect(camera.position(), d,
                                                  std::numeric_limits<float>::infinity(), hit) &&
                           !(hit.id == kGroundId && rays.solids->shadowCatcher());
        // The smoke in front of the solid, then the solid.
        float t = 1.0f;
        float t0, t1;
        if (rays.smoke.contains(x, y) && clipRay(ray, rays.marchLo, rays.marchHi, t0, t1)) {
            if (solid) t1 = std::min(t1, hit.t / rays.dx);
            if (t0 < t1) {
                const float half = halfDepth(marcher, ray, t0, t1, rayJitter(x, y, rays.frame), t);
                if (half >= 0.0f) {
                    depth[size_t(y) * width + x] = half * rays.dx;
                    return;
                }
            }
        }
        if (solid && t * (1.0f - hit.coverage) <= 0.5f) depth[size_t(y) * width + x] = hit.t;
    });
}

template void traceFrame(const FrameRays&, const RayMarcher<LinearLookup>&, LinearImage&,
                         std::vector<int>&);
template void traceFrame(const FrameRays&, const RayMarcher<CubicLookup>&, LinearImage&,
                         std::vector<int>&);
template void traceDepth(const FrameRays&, const RayMarcher<LinearLookup>&, int, int,
                         std::vector<float>&);
template void traceDepth(const FrameRays&, const RayMarcher<CubicLookup>&, int, int,
                         std::vector<float>&);

}  // namespace plume
