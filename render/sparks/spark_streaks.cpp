#include "render/sparks/spark_streaks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/parallel.h"
#include "render/light/planck.h"

namespace plume {

namespace {

// One spark as the image sees it: its streak's ends in pixels and its light
// summed over the pixels it covers (radiance times its disc's area in pixels).
struct Streak {
    float ax = 0, ay = 0, bx = 0, by = 0;
    Vec3f energy{0, 0, 0};
    bool seen = false;
    int samples = 1;           // splats along it, about one a pixel
    std::uint64_t hidden = 0;  // bit j: its j-th of kSolidTests parts is behind a solid
};

// Solid tests along a streak: a camera ray to each of up to this many
// points of it (one a splat on shorter streaks).
constexpr int kSolidTests = 64;

int solidTests(int samples) { return std::min(samples, kSolidTests); }

// Whether a solid surface lies between the camera and `p`.
bool behindSolid(const SolidScene& solids, Vec3f eye, Vec3f p) {
    const Vec3f d = p - eye;
    const float distance = length(d);
    if (!(distance > 0.0f)) return false;
    SurfaceHit hit;
    return solids.intersect(eye, d / distance, distance, hit);
}

// The part [t0, t1] of the segment from a to b inside the box [lo, hi].
bool clip(Vec3f a, Vec3f b, Vec3f lo, Vec3f hi, float& t0, float& t1) {
    t0 = 0.0f, t1 = 1.0f;
    for (int axis = 0; axis < 3; ++axis) {
        const float d = b[axis] - a[axis];
        if (std::fabs(d) < 1e-12f) {
            if (a[axis] < lo[axis] || a[axis] > hi[axis]) return false;
            continue;
        }
        float s0 = (lo[axis] - a[axis]) / d, s1 = (hi[axis] - a[axis]) / d;
        if (s0 > s1) std::swap(s0, s1);
        t0 = std::max(t0, s0), t1 = std::min(t1, s1);
    }
    return t0 < t1;
}

// A bilinear splat of `e` at pixel point (x, y): energy kept whole inside.
void splat(float x, float y, Vec3f e, int w, int h, float* rgb, float* layer) {
    const float fx = x - 0.5f, fy = y - 0.5f;
    const int x0 = int(std::floor(fx)), y0 = int(std::floor(fy));
    const float tx = fx - float(x0), ty = fy - float(y0);
    const float weight[4] = {(1 - tx) * (1 - ty), tx * (1 - ty), (1 - tx) * ty, tx * ty};
    for (int c = 0; c < 4; ++c) {
        const int px = x0 + (c & 1), py = y0 + (c >> 1);
        if (px < 0 || py < 0 || px >= w || py >= h) continue;
        const size_t n = (size_t(py) * w + px) * 3;
        for (int ch = 0; ch < 3; ++ch) {
            rgb[n + ch] += e[ch] * weight[c];
            if (layer) layer[n + ch] += e[ch] * weight[c];
        }
    }
}

}  // namespace

Vec3f sparkRadiance(float kelvin) { return blackbody(kelvin); }

float sparkTransmittance(const VolumeView& volume, float extinction, Vec3f from, Vec3f to) {
    if (!volume.density || volume.density->size() == 0) return 1.0f;
    float t0, t1;
    if (!clip(from, to, volume.worldMin(), volume.worldMax(), t0, t1)) return 1.0f;
    const float length = ::plume::length(to - from) * (t1 - t0);
    const int steps = std::max(1, int(std::ceil(length / (0.5f * volume.dx))));
    const float ds = length / float(steps);
    float optical = 0.0f;
    for (int s = 0; s < steps; ++s) {
        const float t = t0 + (t1 - t0) * (float(s) + 0.5f) / float(steps);
        const Vec3f p = from + (to - from) * t;
        optical += volume.density->sample((p - volume.origin) / volume.dx);
    }
    return std::exp(-extinction * optical * ds);
}

void drawSparks(const SparkList& sparks, const Camera& camera, const VolumeView& volume,
                const SparkLook& look, LinearImage& image, std::vector<float>* layer,
                const SolidScene* solids) {
    if (sparks.empty()) return;
    const int w = image.width, h = image.height;
    // The angle one pixel spans at the image's centre: a spark's radius in pixels.
    const float pixelAngle = std::acos(std::clamp(
        dot(camera.direction(0.5f * w, 0.5f * h), camera.direction(0.5f * w + 1.0f, 0.5f * h)),
        -1.0f, 1.0f));
    std::vector<Streak> streaks(sparks.size());
    parallelForRange(int(sparks.size()), [&](int b, int e) {
        for (int i = b; i < e; ++i) {
            const Spark& s = sparks[size_t(i)];
            Streak& out = streaks[size_t(i)];
            const Vec3f half = s.v * (0.5f * look.shutter);
            if (!camera.project(s.p - half, out.ax, out.ay) ||
                !camera.project(s.p + half, out.bx, out.by))
                continue;
            // Orthographic: a pixel spans the same metres at any distance.
            const float distance = length(s.p - camera.position());
            const float footprint =
                camera.orthographic() ? camera.pixelSizeAt(distance) : distance * pixelAngle;
            const float radius = s.pscale / std::max(footprint, 1e-9f);
            const float disc = 3.14159265f * radius * radius;
            const float seen =
                sparkTransmittance(volume, look.extinction, camera.originToward(s.p), s.p);
            out.energy = sparkRadiance(s.temperature) * (look.glow * disc * seen);
            out.seen = out.energy.x + out.energy.y + out.energy.z > 0.0f;
            out.samples = std::max(1, int(std::ceil(std::hypot(out.bx - out.ax, out.by - out.ay))));
            if (!out.seen || !solids) continue;
            // The streak's path in the world, tested at the middle of each part.
            const int tests = solidTests(out.samples);
            for (int j = 0; j < tests; ++j) {
                const float t = (float(j) + 0.5f) / float(tests);
                const Vec3f at = s.p - half + half * (2.0f * t);
                if (behindSolid(*solids, camera.originToward(at), at))
                    out.hidden |= std::uint64_t(1) << j;
            }
            if (out.hidden == (tests == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << tests) - 1))
                out.seen = false;
        }
    });
    float* layerData = layer ? layer->data() : nullptr;
    for (const Streak& s : streaks) {
        if (!s.seen) continue;
        const float len = std::hypot(s.bx - s.ax, s.by - s.ay);
        if (len > 4.0f * float(std::max(w, h))) continue;  // across the lens: not drawn
        const int samples = s.samples;
        const int tests = solidTests(samples);
        const Vec3f each = s.energy / float(samples);
        for (int k = 0; k < samples; ++k) {
            if (s.hidden >> (k * tests / samples) & 1) continue;
            const float t = (float(k) + 0.5f) / float(samples);
            splat(s.ax + (s.bx - s.ax) * t, s.ay + (s.by - s.ay) * t, each, w, h, image.rgb.data(),
                  layerData);
        }
    }
}

}  // namespace plume
