#include "sim/point_emitters.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/noise.h"
#include "core/parallel.h"
#include "core/point_sequence.h"

namespace plume {

namespace {

// The frame whose points a substep uses: the one nearest its middle.
int nearestFrame(const ShotSpan& shot) {
    return int(std::floor((shot.start + 0.5 * shot.length) * shot.fps + 0.5));
}

// One point's sweep over the substep: a capsule from `a` to a + ab.
struct Sweep {
    Vec3f a, ab;
    float inverseLength2 = 0.0f;  // 1 / |ab|^2, 0 for a point at rest
    float radius = 0.0f;
    Vec3f velocity;  // imposed on the faces it covers, m/s of simulated time
    bool moves = false;
    Vec3i lo, hi;  // cells of f it may reach, [lo, hi)
};

float distanceTo(const Sweep& s, Vec3f p) {
    const Vec3f ap = p - s.a;
    const float t =
        s.inverseLength2 > 0.0f ? std::clamp(dot(ap, s.ab) * s.inverseLength2, 0.0f, 1.0f) : 0.0f;
    return length(ap - s.ab * t) - s.radius;
}

// Cells [lo, hi) of f around world box [a, b], a cell beyond each side.
void cellsAround(const Fields& f, Vec3f a, Vec3f b, Vec3i& lo, Vec3i& hi) {
    int l[3], h[3];
    for (int axis = 0; axis < 3; ++axis) {
        const int n = f.n[axis];
        const float ga = (a[axis] - f.origin[axis]) / f.dx, gb = (b[axis] - f.origin[axis]) / f.dx;
        l[axis] = int(std::clamp(std::floor(ga) - 1.0f, 0.0f, float(n)));
        h[axis] = int(std::clamp(std::ceil(gb) + 1.0f, 0.0f, float(n)));
    }
    lo = {l[0], l[1], l[2]};
    hi = {h[0], h[1], h[2]};
}

// Every point's sweep that reaches f, in point order.
std::vector<Sweep> sweeps(const Fields& f, const EmitterSettings& e, const PointFrame& points,
                          const ShotSpan& shot, int frame) {
    // Seconds of the shot from the frame's own moment to the substep's ends.
    const double at = double(frame) / shot.fps;
    const float from = float(shot.start - at), to = float(shot.start + shot.length - at);
    const float perSimSecond = float(1.0 / shot.scale);  // shot m/s to simulated m/s
    std::vector<Sweep> out;
    out.reserve(points.position.size());
    for (std::size_t n = 0; n < points.position.size(); ++n) {
        Sweep s;
        s.radius = points.radius.empty() ? e.radius : points.radius[n];
        const Vec3f v = points.velocity.empty() ? Vec3f(0.0f) : points.velocity[n];
        s.a = points.position[n] + v * from;
        const Vec3f b = points.position[n] + v * to;
        s.ab = b - s.a;
        const float length2 = dot(s.ab, s.ab);
        s.inverseLength2 = length2 > 0.0f ? 1.0f / length2 : 0.0f;
        s.velocity = e.velocity + v * (e.inheritVelocity * perSimSecond);
        s.moves = s.velocity != Vec3f(0.0f);
        // The soft edge reaches half a cell beyond the radius.
        const Vec3f reach(s.radius + f.dx);
        cellsAround(f, vmin(s.a, b) - reach, vmax(s.a, b) + reach, s.lo, s.hi);
        if (s.lo.x < s.hi.x && s.lo.y < s.hi.y && s.lo.z < s.hi.z) out.push_back(s);
    }
    return out;
}

// For each z index in [0, planes): the sweeps reaching it (their cells, or
// the face above their last cell), in point order. Flattened: the sweeps of
// plane k are list[start[k] .. start[k + 1]).
struct PlaneLists {
    std::vector<int> start, list;
};

PlaneLists byPlane(const std::vector<Sweep>& all, int planes) {
    PlaneLists p;
    p.start.assign(std::size_t(planes) + 1, 0);
    for (const Sweep& s : all)
        for (int k = s.lo.z; k < std::min(s.hi.z + 1, planes); ++k) ++p.start[std::size_t(k) + 1];
    for (int k = 0; k < planes; ++k) p.start[std::size_t(k) + 1] += p.start[std::size_t(k)];
    p.list.resize(std::size_t(p.start.back()));
    std::vector<int> fill(p.start.begin(), p.start.end() - 1);
    for (int n = 0; n < int(all.size()); ++n)
        for (int k = all[std::size_t(n)].lo.z; k < std::min(all[std::size_t(n)].hi.z + 1, planes);
             ++k)
            p.list[std::size_t(fill[std::size_t(k)]++)] = n;
    return p;
}

}  // namespace

bool pointEmitterBounds(const EmitterSettings& e, const ShotSpan& shot, Vec3f& lo, Vec3f& hi) {
    if (!e.points) return false;
    const int frame = nearestFrame(shot);
    const PointSequence::File* file = e.points->file(frame);
    if (!file || file->count == 0) return false;
    const double at = double(frame) / shot.fps;
    const float away =
        float(std::max(std::fabs(shot.start - at), std::fabs(shot.start + shot.length - at)));
    lo = file->lo - Vec3f(file->maxSpeed * away);
    hi = file->hi + Vec3f(file->maxSpeed * away);
    return true;
}

void applyPointEmitter(Fields& f, const EmitterSettings& e, double time, const ShotSpan& shot) {
    if (!e.points) return;
    const int frame = nearestFrame(shot);
    const std::shared_ptr<const PointFrame> points = e.points->points(frame);
    if (!points) return;
    const std::vector<Sweep> all = sweeps(f, e, *points, shot, frame);
    if (all.empty()) return;
    const PlaneLists planes = byPlane(all, f.n.z + 1);
    const float softness = f.dx;
    auto coverage = [&](const Sweep& s, Vec3f p) {
        return std::clamp(0.5f - distanceTo(s, p) / softness, 0.0f, 1.0f);
    };
    // Noise features a third of the points' size unless given, drifting up.
    const float noiseScale =
        e.noiseScale > 0.0f ? 1.0f / e.noiseScale : 3.0f / std::max(1e-6f, 2.0f * e.radius);
    const float drift = float(std::fmod(time, 1000.0)) * e.noiseSpeed;
    const bool fuel = e.fuel > 0.0f && f.burns();

    // Smoke, heat and fuel: raised to the emitter's amounts, max over points.
    parallelForRange(f.n.z, [&](int k0, int k1) {
        for (int k = k0; k < k1; ++k)
            for (int at = planes.start[std::size_t(k)]; at < planes.start[std::size_t(k) + 1];
                 ++at) {
                const Sweep& s = all[std::size_t(planes.list[std::size_t(at)])];
                if (k >= s.hi.z) continue;  // listed for the face above its last cell
                for (int j = s.lo.y; j < s.hi.y; ++j)
                    for (int i = s.lo.x; i < s.hi.x; ++i) {
                        if (f.solid(i, j, k)) continue;
                        const Vec3f p = f.origin + Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * f.dx;
                        float amount = coverage(s, p);
                        if (amount <= 0.0f) continue;
                        if (e.noise > 0.0f) {
                            Vec3f q = p * noiseScale;
                            q.z -= drift;
                            amount *= std::max(0.0f, 1.0f + e.noise * valueNoise(q));
                        }
                        f.density(i, j, k) = std::max(f.density(i, j, k), amount * e.density);
                        f.temperature(i, j, k) =
                            std::max(f.temperature(i, j, k), amount * e.temperature);
                        if (fuel) f.fuel(i, j, k) = std::max(f.fuel(i, j, k), amount * e.fuel);
                    }
            }
    });

    // Velocity: each face blended toward the coverage-weighted mean of the
    // moving points over it, as far as the most covering one covers it.
    // Upres's fine scalars hold no velocity: the base grid's emitters set it.
    if (f.u.size() == 0 ||
        std::none_of(all.begin(), all.end(), [](const Sweep& s) { return s.moves; }))
        return;
    for (int axis = 0; axis < 3; ++axis) {
        ScalarGrid& c = f.component(axis);
        const Vec3f off = c.offset();
        const int nx = c.nx(), ny = c.ny();
        parallelForRange(c.nz(), [&](int k0, int k1) {
            // Per face of a plane: the most coverage, and the weighted sums.
            std::vector<float> most(std::size_t(nx) * std::size_t(ny), 0.0f);
            std::vector<float> weight(most.size(), 0.0f), sum(most.size(), 0.0f);
            for (int k = k0; k < k1; ++k) {
                int loX = nx, loY = ny, hiX = 0, hiY = 0;  // the faces touched
                for (int at = planes.start[std::size_t(k)]; at < planes.start[std::size_t(k) + 1];
                     ++at) {
                    const Sweep& s = all[std::size_t(planes.list[std::size_t(at)])];
                    if (!s.moves || k >= s.hi.z + (axis == 2)) continue;
                    const int iEnd = std::min(s.hi.x + (axis == 0), nx);
                    const int jEnd = std::min(s.hi.y + (axis == 1), ny);
                    for (int j = s.lo.y; j < jEnd; ++j)
                        for (int i = s.lo.x; i < iEnd; ++i) {
                            const Vec3f p =
                                f.origin + Vec3f(i + off.x, j + off.y, k + off.z) * f.dx;
                            const float w = coverage(s, p);
                            if (w <= 0.0f) continue;
                            const std::size_t n = std::size_t(i) + std::size_t(j) * std::size_t(nx);
                            most[n] = std::max(most[n], w);
                            weight[n] += w;
                            sum[n] += w * s.velocity[axis];
                        }
                    loX = std::min(loX, s.lo.x), loY = std::min(loY, s.lo.y);
                    hiX = std::max(hiX, iEnd), hiY = std::max(hiY, jEnd);
                }
                for (int j = loY; j < hiY; ++j)
                    for (int i = loX; i < hiX; ++i) {
                        const std::size_t n = std::size_t(i) + std::size_t(j) * std::size_t(nx);
                        if (weight[n] > 0.0f) {
                            float& u = c(i, j, k);
                            u += (sum[n] / weight[n] - u) * most[n];
                        }
                        most[n] = weight[n] = sum[n] = 0.0f;
                    }
            }
        });
    }
}

}  // namespace plume
