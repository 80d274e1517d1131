#include "sim/emitters.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/parallel.h"
#include "sim/shapes.h"

namespace plume {

namespace {

inline uint32_t hash3(int x, int y, int z) {
    uint32_t h = uint32_t(x) * 0x8da6b343u ^ uint32_t(y) * 0xd8163841u ^ uint32_t(z) * 0xcb1ab31fu;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

inline float lattice(int x, int y, int z) {
    return float(hash3(x, y, z) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}
inline float smooth(float t) { return t * t * (3.0f - 2.0f * t); }

// Cell range [lo, hi) covering world box [a, b].
inline void cellRange(const Fields& f, Vec3f a, Vec3f b, Vec3i& lo, Vec3i& hi) {
    for (int axis = 0; axis < 3; ++axis) {
        int n = axis == 0 ? f.n.x : (axis == 1 ? f.n.y : f.n.z);
        float ga = (a[axis] - f.origin[axis]) / f.dx, gb = (b[axis] - f.origin[axis]) / f.dx;
        int l = std::clamp(int(std::floor(ga)) - 1, 0, n);
        int h = std::clamp(int(std::ceil(gb)) + 1, 0, n);
        (axis == 0 ? lo.x : axis == 1 ? lo.y : lo.z) = l;
        (axis == 0 ? hi.x : axis == 1 ? hi.y : hi.z) = h;
    }
}

}  // namespace

float valueNoise(Vec3f p) {
    float fx = std::floor(p.x), fy = std::floor(p.y), fz = std::floor(p.z);
    int x = int(fx), y = int(fy), z = int(fz);
    float tx = smooth(p.x - fx), ty = smooth(p.y - fy), tz = smooth(p.z - fz);
    auto lerp = [](float a, float b, float t) { return a + (b - a) * t; };
    float c00 = lerp(lattice(x, y, z), lattice(x + 1, y, z), tx);
    float c10 = lerp(lattice(x, y + 1, z), lattice(x + 1, y + 1, z), tx);
    float c01 = lerp(lattice(x, y, z + 1), lattice(x + 1, y, z + 1), tx);
    float c11 = lerp(lattice(x, y + 1, z + 1), lattice(x + 1, y + 1, z + 1), tx);
    return lerp(lerp(c00, c10, ty), lerp(c01, c11, ty), tz);
}

void applyEmitters(Fields& f, const std::vector<EmitterSettings>& emitters, int frame,
                   double time) {
    for (const EmitterSettings& e : emitters) {
        if (frame < e.frames[0] || frame > e.frames[1]) continue;
        Vec3f half = shapeHalfExtent(e.shape, e.radius, e.size);
        Vec3i lo, hi;
        cellRange(f, e.center - half, e.center + half, lo, hi);
        // Noise features about a third of the emitter's size, drifting upward in time.
        const float noiseScale = 3.0f / std::max(1e-6f, 2.0f * std::max({half.x, half.y, half.z}));
        const float drift = float(std::fmod(time, 1000.0)) * 1.7f;
        const float softness = f.dx;

        // Cell coverage in [0, 1] from the signed distance at the cell centre.
        auto coverage = [&](Vec3f p) {
            float sd = signedDistance(e.shape, e.center, e.radius, e.size, p);
            return std::clamp(0.5f - sd / softness, 0.0f, 1.0f);
        };

        parallelForRange(hi.z - lo.z, [&](int k0, int k1) {
            for (int k = lo.z + k0; k < lo.z + k1; ++k)
                for (int j = lo.y; j < hi.y; ++j)
                    for (int i = lo.x; i < hi.x; ++i) {
                        if (f.solid(i, j, k)) continue;
                        Vec3f p = f.origin + Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * f.dx;
                        float w = coverage(p);
                        if (w <= 0.0f) continue;
                        float amount = w;
                        if (e.noise > 0.0f) {
                            Vec3f q = (p - e.center) * noiseScale;
                            q.z -= drift;
                            amount *= std::max(0.0f, 1.0f + e.noise * valueNoise(q));
                        }
                        f.density(i, j, k) = std::max(f.density(i, j, k), amount * e.density);
                        f.temperature(i, j, k) =
                            std::max(f.temperature(i, j, k), amount * e.temperature);
                    }
        });

        if (e.velocity == Vec3f(0.0f)) continue;
        for (int axis = 0; axis < 3; ++axis) {
            ScalarGrid& c = f.component(axis);
            Vec3f off = c.offset();
            const float target = e.velocity[axis];
            int kEnd = std::min(hi.z + (axis == 2), c.nz());
            parallelForRange(kEnd - lo.z, [&](int k0, int k1) {
                for (int k = lo.z + k0; k < lo.z + k1; ++k)
                    for (int j = lo.y; j < std::min(hi.y + (axis == 1), c.ny()); ++j)
                        for (int i = lo.x; i < std::min(hi.x + (axis == 0), c.nx()); ++i) {
                            Vec3f p = f.origin + Vec3f(i + off.x, j + off.y, k + off.z) * f.dx;
                            float w = coverage(p);
                            if (w > 0.0f) c(i, j, k) += (target - c(i, j, k)) * w;
                        }
            });
        }
    }
}

}  // namespace plume
