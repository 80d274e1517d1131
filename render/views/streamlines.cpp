#include "render/views/streamlines.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "render/march/hash.h"

namespace plume {

namespace {

// Seeds across the plane's longer side: about one line per 40 pixels of a
// 720-line frame that shows the whole domain, sparse enough to read each.
constexpr int kSeedsAcross = 22;
// Steps either way from a seed, each an eighth of the seed spacing: a line
// is at most two spacings long, so neighbours rarely run into each other.
constexpr int kStepsEachWay = 8;
constexpr float kStepOfSpacing = 1.0f / 8.0f;
// Below this share of the plane's fastest in-plane flow a line stops.
constexpr float kStillShare = 0.03f;

struct LinePoint {
    Vec3f p;
    float speed;  // in-plane, m/s
};

}  // namespace

void drawStreamlines(Image& image, const Camera& camera, const StreamlinePlane& plane,
                     const SliceSampler& sampler, const std::function<bool(Vec3f)>& insideSolid,
                     Vec3f colour) {
    const int a = plane.axis, b = (a + 1) % 3, c = (a + 2) % 3;
    const float extentB = plane.hi[b] - plane.lo[b], extentC = plane.hi[c] - plane.lo[c];
    if (!(extentB > 0.0f) || !(extentC > 0.0f)) return;
    const float spacing = std::max(extentB, extentC) / float(kSeedsAcross);
    const int seedsB = std::max(1, int(extentB / spacing)),
              seedsC = std::max(1, int(extentC / spacing));
    auto inPlane = [&](Vec3f v) {
        v[a] = 0.0f;
        return v;
    };
    auto inside = [&](Vec3f p) {
        return p[b] >= plane.lo[b] && p[b] <= plane.hi[b] && p[c] >= plane.lo[c] &&
               p[c] <= plane.hi[c] && !insideSolid(p);
    };

    // The seeds, jittered a third of a spacing by a hash of their place, so
    // they do not line up in rows yet stay put from frame to frame.
    std::vector<Vec3f> seeds;
    float peak = 0.0f;
    for (int j = 0; j < seedsC; ++j)
        for (int i = 0; i < seedsB; ++i) {
            const uint32_t h = hashPixel(uint32_t(i), uint32_t(j), 0u, 0x5eedu);
            Vec3f p;
            p[a] = plane.position;
            p[b] = plane.lo[b] +
                   (float(i) + 0.5f + 0.6f * (hashToUnit(h) - 0.5f)) * extentB / float(seedsB);
            p[c] = plane.lo[c] +
                   (float(j) + 0.5f + 0.6f * (hashToUnit(hashPixel(h, 1u, 0u, 0u)) - 0.5f)) *
                       extentC / float(seedsC);
            if (!inside(p)) continue;
            seeds.push_back(p);
            peak = std::max(peak, length(inPlane(sampler.velocity(p))));
        }
    if (!(peak > 0.0f)) return;

    // Trace each line both ways (midpoint steps of fixed length along the
    // flow), tail first.
    const float step = spacing * kStepOfSpacing;
    auto advance = [&](Vec3f p, float sign, Vec3f& next, float& speed) {
        const Vec3f v0 = inPlane(sampler.velocity(p));
        speed = length(v0);
        if (speed < kStillShare * peak) return false;
        const Vec3f mid = p + v0 * (sign * 0.5f * step / speed);
        const Vec3f v1 = inPlane(sampler.velocity(mid));
        const float s1 = length(v1);
        if (s1 < kStillShare * peak) return false;
        next = p + v1 * (sign * step / s1);
        return inside(next);
    };
    std::vector<float> alpha(size_t(image.width) * image.height, 0.0f);
    const float width = std::max(1.0f, float(image.height) / 480.0f);  // pixels
    std::vector<LinePoint> line;
    for (const Vec3f& seed : seeds) {
        line.clear();
        Vec3f p = seed, next;
        float speed = 0.0f;
        for (int s = 0; s < kStepsEachWay && advance(p, -1.0f, next, speed); ++s) {
            line.push_back({p, speed});
            p = next;
        }
        std::reverse(line.begin(), line.end());
        p = seed;
        line.push_back({seed, length(inPlane(sampler.velocity(seed)))});
        for (int s = 0; s < kStepsEachWay && advance(p, 1.0f, next, speed); ++s) {
            line.push_back({next, speed});
            p = next;
        }
        if (line.size() < 2) continue;

        // Splat the line's segments: coverage of a round pen at points a
        // third of a pixel apart, the larger where lines overlap.
        for (size_t n = 1; n < line.size(); ++n) {
            float x0, y0, x1, y1;
            if (!camera.project(line[n - 1].p, x0, y0) || !camera.project(line[n].p, x1, y1))
                continue;
            // Faint at the tail, solid at the head; fainter in slow air.
            const float along = float(n) / float(line.size() - 1);
            const float opacity =
                (0.15f + 0.85f * along) * std::min(1.0f, std::sqrt(line[n].speed / peak) * 1.4f);
            const float len = std::hypot(x1 - x0, y1 - y0);
            const int dots = int(std::ceil(len * 3.0f)) + 1;
            const float radius = 0.5f * width + 0.5f;
            for (int d = 0; d <= dots; ++d) {
                const float t = float(d) / float(dots);
                const float x = x0 + (x1 - x0) * t, y = y0 + (y1 - y0) * t;
                for (int py = int(std::floor(y - radius)); py <= int(std::ceil(y + radius)); ++py)
                    for (int px = int(std::floor(x - radius)); px <= int(std::ceil(x + radius));
                         ++px) {
                        if (px < 0 || py < 0 || px >= image.width || py >= image.height) continue;
                        const float dist = std::hypot(float(px) + 0.5f - x, float(py) + 0.5f - y);
                        const float cover = std::clamp(radius - dist, 0.0f, 1.0f);
                        float& at = alpha[size_t(py) * image.width + px];
                        at = std::max(at, cover * opacity);
                    }
            }
        }
    }

    // Over the picture.
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const float k = alpha[size_t(y) * image.width + x];
            if (k <= 0.0f) continue;
            uint8_t* px = image.pixel(x, y);
            for (int ch = 0; ch < 3; ++ch)
                px[ch] = uint8_t(std::lround(float(px[ch]) * (1.0f - k) + colour[ch] * 255.0f * k));
        }
}

}  // namespace plume
