#include "render/march/pixel_tracer.h"

#include <algorithm>
#include <limits>

#include "core/parallel.h"
#include "render/march/depth_march.h"
#include "render/march/filter.h"
#include "render/march/hash.h"
#include "render/march/ray.h"
#include "render/march/ray_marcher.h"
#include "render/output/render_passes.h"

namespace plume {

namespace {

constexpr int kTileSize = 16;
static_assert(kTileSize % kMaxFillStride == 0, "every tile starts on each fill grid");
constexpr uint32_t kJitterSeed = 0x9e3779b9u;

// How far apart two neighbouring known pixels may be for the pixels
// between them to be filled rather than traced (fillPixel): per channel of
// light, a share of the larger plus a floor; in opacity (1 - transmittance)
// a share of the larger, so the faint foot of the smoke, cheap to trace, is
// traced and the fill never rings below a fading rim
// (RenderFilter.CubicSpikeIsSmoothWhereTrilinearCreases). At 0.1 of the
// light the filled frame is nearer a reference of four times the steps than
// the traced one (tests/bench/README.md, a coarse close-up's grain): the
// fill takes out jitter noise and adds less.
constexpr float kFillRelative = 0.1f;
constexpr float kFillAbsolute = 0.002f;
constexpr float kFillOpacity = 0.05f;
constexpr float kFillOpacityFloor = 1e-6f;

// The six-point interpolating rule at the midpoint, outermost pair first.
constexpr int kFillTaps = 6;
constexpr float kFillWeights[kFillTaps / 2] = {3.0f / 256.0f, -25.0f / 256.0f, 150.0f / 256.0f};

// How fillPixel made a pixel (traceFrame's `filled`).
constexpr uint8_t kTraced = 0, kSixPoints = 1, kFourPoints = 2;

// A pixel's centre ray.
constexpr float kCentre[2] = {0.0f, 0.0f};

// Pixels where the solid (or ground) seen at the centre changes get these
// four more rays, a rotated grid inside the pixel: smooth silhouettes at four
// times the work on edges only.
constexpr float kEdgeOffsets[4][2] = {
    {0.125f, 0.375f}, {0.375f, -0.125f}, {-0.125f, -0.375f}, {-0.375f, 0.125f}};

// The pixels every `columns` columns of every `rows` rows (powers of two up
// to the tile's size, so every tile starts on those grids), tiles in parallel.
template <typename PerPixel>
void forEachPixelOf(int width, int height, PerPixel perPixel, int columns = 1, int rows = 1) {
    parallelForTiles(width, height, kTileSize, [&](int x0, int y0, int x1, int y1) {
        for (int y = y0; y < y1; y += rows)
            for (int x = x0; x < x1; x += columns) perPixel(x, y);
    });
}

template <typename Marcher>
class PixelTracer {
  public:
    PixelTracer(const FrameRays& rays, const Marcher& marcher, LinearImage& image,
                std::vector<int>& hitIds, std::vector<uint8_t>& filled)
        : rays_(rays), marcher_(marcher), image_(image), hitIds_(hitIds), filled_(filled) {}

    // One jittered ray per pixel (one per moment where solids move), tiles in
    // parallel. Where a voxel spans several pixels (rays_.fillStride), only
    // the pixels every fillStride rows and columns are traced first; then,
    // halving the spacing h each time, the rows between them are filled
    // along x and the columns along y (fillPixel), tracing where the picture
    // does not agree with a smooth fill.
    void tracePixels() {
        if (rays_.solids) hitIds_.assign(size_t(image_.width) * image_.height, 0);
        const int stride = rays_.fillStride;
        if (stride > 1 && !rays_.replayFill)
            filled_.assign(size_t(image_.width) * image_.height, 0);
        forEachPixel([&](int x, int y) { tracePixel(x, y); }, stride, stride);
        for (int h = stride / 2; h >= 1; h /= 2) {
            // Rows 2h apart: the pixels between their known ones.
            forEachPixel(
                [&](int x, int y) {
                    if (x & h) fillPixel(x, y, h, 0);
                },
                h, 2 * h);
            // Then the rows between those, every pixel h apart.
            forEachPixel(
                [&](int x, int y) {
                    if (y & h) fillPixel(x, y, h, 1);
                },
                h, h);
        }
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
    void forEachPixel(PerPixel perPixel, int columns = 1, int rows = 1) {
        forEachPixelOf(image_.width, image_.height, perPixel, columns, rows);
    }

    void tracePixel(int x, int y) {
        // Clear air: no ray to make (most of a frame's pixels).
        if (!rays_.solids && !rays_.smoke.contains(x, y)) return store(x, y, RaySum{});
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

    // A pixel h from known ones along `axis` (0: x, 1: y), known also 3h
    // and 5h away. Where the six saw the same solid (or none) as this
    // pixel's centre does and their light agrees pair by pair (agree), the
    // pixel is their six-point interpolation (Deslauriers and Dubuc; kFillTaps):
    // exact for a quintic, and what it builds is smooth (C2), so a close-up
    // shows no crease where a mean of two would draw one at every traced
    // pixel. The four-point rule alone, C1, would leave the curvature of a
    // lone voxel's bump jumping by a third of its largest from pixel to pixel
    // (RenderFilter.SharpSpikeIsSmoothOverItsBump: 0.34, against 0.17 traced
    // and 0.17 with six points); beside an edge, where only the four nearest
    // agree, it fills what the six cannot (7% of the bench frames' CPU). Else the pixel is traced. Only pixels of
    // earlier passes are read, so the frame is the same for any thread count.
    void fillPixel(int x, int y, int h, int axis) {
        if (!rays_.smoke.contains(x, y)) return tracePixel(x, y);
        const int dx = axis == 0 ? h : 0, dy = axis == 1 ? h : 0;
        int px[kFillTaps], py[kFillTaps];
        for (int a = 0; a < kFillTaps; ++a) {
            px[a] = x + (2 * a + 1 - kFillTaps) * dx;
            py[a] = y + (2 * a + 1 - kFillTaps) * dy;
            if (px[a] < 0 || px[a] >= image_.width || py[a] < 0 || py[a] >= image_.height ||
                !rays_.smoke.contains(px[a], py[a]))
                return tracePixel(x, y);
        }
        int id = 0;
        if (rays_.solids) {
            if (rays_.blurred.pixels.contains(x, y)) return tracePixel(x, y);
            const Camera& camera = rays_.camera;
            SurfaceHit hit;
            if (rays_.solids->intersect(camera.origin(x, y),
                                        camera.direction(float(x) + 0.5f, float(y) + 0.5f),
                                        std::numeric_limits<float>::infinity(), hit))
                id = hit.id;
            for (int a = 0; a < kFillTaps; ++a)
                if (hitIds_[size_t(py[a]) * image_.width + px[a]] != id) return tracePixel(x, y);
        }
        const size_t pixel = size_t(y) * image_.width + x;
        RaySum known[kFillTaps];
        for (int a = 0; a < kFillTaps; ++a) known[a] = stored(px[a], py[a]);
        uint8_t rule;
        if (rays_.replayFill) {
            rule = filled_[pixel];
        } else {
            const bool inner = agree(known[2], known[3]);
            const bool middle = inner && agree(known[1], known[2]) && agree(known[3], known[4]);
            const bool outer = middle && agree(known[0], known[1]) && agree(known[4], known[5]);
            rule = outer ? kSixPoints : middle ? kFourPoints : kTraced;
            filled_[pixel] = rule;
        }
        if (rule == kTraced) return tracePixel(x, y);
        RaySum fill;
        fill.transmittance = 0.0f;
        if (rule == kSixPoints) {
            // Symmetric pairs summed first, outermost to innermost.
            for (int a = 0; a < kFillTaps / 2; ++a) {
                const RaySum& l = known[a];
                const RaySum& r = known[kFillTaps - 1 - a];
                fill.radiance += (l.radiance + r.radiance) * kFillWeights[a];
                fill.transmittance += (l.transmittance + r.transmittance) * kFillWeights[a];
            }
        } else {
            // Where only the four nearest agree (beside an edge the six
            // reach across): the four-point rule, C1. A mean of the two
            // nearest as a third rule drew the spike's bump with creases
            // (RenderFilter.SharpSpikeIsSmoothOverItsBump 1.67).
            constexpr float w[2] = {-1.0f / 16.0f, 9.0f / 16.0f};
            for (int a = 0; a < 2; ++a) {
                const RaySum& l = known[1 + a];
                const RaySum& r = known[4 - a];
                fill.radiance += (l.radiance + r.radiance) * w[a];
                fill.transmittance += (l.transmittance + r.transmittance) * w[a];
            }
        }
        // The interpolation overshoots a little beside a steep rise.
        fill.radiance = vmax(fill.radiance, Vec3f(0.0f));
        fill.transmittance = std::clamp(fill.transmittance, 0.0f, 1.0f);
        store(x, y, fill);
        if (rays_.solids) hitIds_[pixel] = id;
    }

    // Whether two neighbouring known pixels differ by less than what shows.
    static bool agree(const RaySum& a, const RaySum& b) {
        for (int c = 0; c < 3; ++c) {
            const float lo = std::min(a.radiance[c], b.radiance[c]);
            const float hi = std::max(a.radiance[c], b.radiance[c]);
            if (hi - lo > kFillRelative * hi + kFillAbsolute) return false;
        }
        const float lo = 1.0f - std::max(a.transmittance, b.transmittance);
        const float hi = 1.0f - std::min(a.transmittance, b.transmittance);
        return hi - lo <= kFillOpacity * hi + kFillOpacityFloor;
    }

    RaySum stored(int x, int y) const {
        const size_t pixel = size_t(y) * image_.width + x;
        RaySum s;
        s.radiance = {image_.rgb[pixel * 3 + 0], image_.rgb[pixel * 3 + 1],
                      image_.rgb[pixel * 3 + 2]};
        s.transmittance = image_.transmittance[pixel];
        return s;
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
        const float px = float(x) + 0.5f + offset[0], py = float(y) + 0.5f + offset[1];
        const Vec3f d = camera.direction(px, py);
        const Vec3f from = camera.origin(px, py);
        const Ray ray(rays_.rayOrigin(px, py), d);
        SurfaceHit hit;
        const bool solid =
            solids && solids->intersect(from, d, std::numeric_limits<float>::infinity(), hit);
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
            const Vec3f p = from + d * hit.t;
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

    float jitter(int x, int y) const { return rayOffset(x, y, rays_); }

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
    std::vector<uint8_t>& filled_;
};

}  // namespace

// The sample's offset inside each interval of a pixel's ray, the same for
// the whole ray: hashed per pixel, so the sample shells of neighbouring rays
// do not line up into bands where the step resolves the smoke poorly (the
// trilinear lookup's creases, a coarse render.step). A frame read through the
// B-spline at a step of half a voxel or less samples what it reconstructs
// finely enough (next to nothing of the B-spline lies above half a cycle a
// voxel), so there every ray takes the midpoints: hashed, the error of each
// ray's sums showed as grain, and where a voxel spans several pixels the
// fill between traced pixels shaped it into a texture of blobs four pixels
// apart (RenderFilter.CloseUpHasNoGrain).
float rayOffset(int x, int y, const FrameRays& rays) {
    if (!rays.jittered) return 0.5f;
    return hashToUnit(hashPixel(x, y, uint32_t(rays.frame), kJitterSeed));
}

template <typename Marcher>
void traceFrame(const FrameRays& rays, const Marcher& marcher, LinearImage& image,
                std::vector<int>& hitIds, std::vector<uint8_t>& filled) {
    PixelTracer<Marcher> tracer(rays, marcher, image, hitIds, filled);
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
        const Ray ray(rays.rayOrigin(float(x) + 0.5f, float(y) + 0.5f), d);
        SurfaceHit hit;
        const bool solid = rays.solids &&
                           rays.solids->intersect(camera.origin(x, y), d,
                                                  std::numeric_limits<float>::infinity(), hit) &&
                           !(hit.id == kGroundId && rays.solids->shadowCatcher());
        // The smoke in front of the solid, then the solid.
        float t = 1.0f;
        float t0, t1;
        if (rays.smoke.contains(x, y) && clipRay(ray, rays.marchLo, rays.marchHi, t0, t1)) {
            if (solid) t1 = std::min(t1, hit.t / rays.dx);
            if (t0 < t1) {
                const float half = halfDepth(marcher, ray, t0, t1, rayOffset(x, y, rays), t);
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
                         std::vector<int>&, std::vector<uint8_t>&);
template void traceFrame(const FrameRays&, const RayMarcher<CubicLookup>&, LinearImage&,
                         std::vector<int>&, std::vector<uint8_t>&);
template void traceDepth(const FrameRays&, const RayMarcher<LinearLookup>&, int, int,
                         std::vector<float>&);
template void traceDepth(const FrameRays&, const RayMarcher<CubicLookup>&, int, int,
                         std::vector<float>&);

}  // namespace plume
