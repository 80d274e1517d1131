#include "sim/point_emitters.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/noise.h"
#include "core/parallel.h"
#include "core/point_sequence.h"
#include "sim/emitter_cell.h"

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
    // The soft edge's width: a cell, or the radius if less (a point under a
    // cell across reaches its values, as sim/emitters.cpp's shapes do), but
    // no less than a cell less the radius (it never slips between the
    // cells' centres).
    float softness = 0.0f;
    // Squared distances from the segment within which a sample is fully
    // covered, and beyond which not at all (half the soft edge either side of
    // the radius).
    float inner2 = 0.0f, outer2 = 0.0f;
    Vec3f velocity;  // imposed on the faces it covers, m/s of simulated time
    bool moves = false;
    Vec3f lo, hi;        // the box its soft edge reaches, in f's cells (x = 0 at f's min corner)
    int k0 = 0, k1 = 0;  // the z planes of cells or faces it reaches, [k0, k1)
};

// The indices [first, last) along one axis of samples at `offset` (0.5: cell
// centres, 0: faces) inside [lo, hi] (cells), clamped to [0, n).
inline void samplesIn(float lo, float hi, float offset, int n, int& first, int& last) {
    first = int(std::clamp(std::ceil(lo - offset), 0.0f, float(n)));
    last = int(std::clamp(std::floor(hi - offset) + 1.0f, 0.0f, float(n)));
}

// How much of the cell or face at p the sweep covers, in [0, 1]: a soft
// edge around the capsule, as the other emitters' (sim/emitters.cpp).
inline float coverageOf(const Sweep& s, Vec3f p) {
    const Vec3f ap = p - s.a;
    const float t =
        s.inverseLength2 > 0.0f ? std::clamp(dot(ap, s.ab) * s.inverseLength2, 0.0f, 1.0f) : 0.0f;
    const Vec3f d = ap - s.ab * t;
    const float d2 = dot(d, d);
    if (d2 >= s.outer2) return 0.0f;
    if (d2 <= s.inner2) return 1.0f;
    return std::clamp(0.5f - (std::sqrt(d2) - s.radius) / s.softness, 0.0f, 1.0f);
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
        s.softness = std::min(std::max(s.radius, f.dx - s.radius), f.dx);
        const float inner = std::max(0.0f, s.radius - 0.5f * s.softness);
        s.inner2 = inner * inner;
        s.outer2 = (s.radius + 0.5f * s.softness) * (s.radius + 0.5f * s.softness);
        s.velocity = e.velocity + v * (e.inheritVelocity * perSimSecond);
        s.moves = s.velocity != Vec3f(0.0f);
        // The soft edge reaches half its width beyond the radius.
        const Vec3f reach(s.radius + 0.5f * s.softness);
        s.lo = (vmin(s.a, b) - reach - f.origin) / f.dx;
        s.hi = (vmax(s.a, b) + reach - f.origin) / f.dx;
        s.lo.z = f.gridZ(s.lo.z), s.hi.z = f.gridZ(s.hi.z);
        int first, last;
        samplesIn(s.lo.z, s.hi.z, 0.5f, f.n.z, s.k0, last);       // cells
        samplesIn(s.lo.z, s.hi.z, 0.0f, f.n.z + 1, first, s.k1);  // faces
        s.k0 = std::min(s.k0, first), s.k1 = std::max(s.k1, last);
        if (s.hi.x > 0.0f && s.hi.y > 0.0f && s.lo.x < float(f.n.x) && s.lo.y < float(f.n.y) &&
            s.k0 < s.k1)
            out.push_back(s);
    }
    return out;
}

// For each z index in [0, planes): the sweeps reaching it (a cell or a face
// of it), in point order. Flattened: the sweeps of plane k are
// list[start[k] .. start[k + 1]).
struct PlaneLists {
    std::vector<int> start, list;
};

PlaneLists byPlane(const std::vector<Sweep>& all, int planes) {
    PlaneLists p;
    p.start.assign(std::size_t(planes) + 1, 0);
    for (const Sweep& s : all)
        for (int k = s.k0; k < std::min(s.k1, planes); ++k) ++p.start[std::size_t(k) + 1];
    for (int k = 0; k < planes; ++k) p.start[std::size_t(k) + 1] += p.start[std::size_t(k)];
    p.list.resize(std::size_t(p.start.back()));
    std::vector<int> fill(p.start.begin(), p.start.end() - 1);
    for (int n = 0; n < int(all.size()); ++n)
        for (int k = all[std::size_t(n)].k0; k < std::min(all[std::size_t(n)].k1, planes); ++k)
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

bool firstPointsBounds(const EmitterSettings& e, Vec3f& lo, Vec3f& hi) {
    if (!e.points) return false;
    for (const PointSequence::File& file : e.points->files())
        if (file.count > 0) {
            lo = file.lo, hi = file.hi;
            return true;
        }
    return false;
}

void applyPointEmitter(Fields& f, const EmitterSettings& e, double time, const ShotSpan& shot) {
    if (!e.points) return;
    const int frame = nearestFrame(shot);
    const std::shared_ptr<const PointFrame> points = e.points->points(frame);
    if (!points) return;
    const std::vector<Sweep> all = sweeps(f, e, *points, shot, frame);
    if (all.empty()) return;
    const PlaneLists planes = byPlane(all, f.n.z + 1);
    // Noise features a third of the points' size unless given, drifting up.
    const float noiseScale =
        e.noiseScale > 0.0f ? 1.0f / e.noiseScale : 3.0f / std::max(1e-6f, 2.0f * e.radius);
    const float drift = float(std::fmod(time, 1000.0)) * e.noiseSpeed;
    const bool fuel = e.fuel > 0.0f && f.burns();
    const bool colored = f.colored();

    // What the moving points ask of the velocity, per cell of the box they
    // cover (x fastest): the most coverage, the coverage summed, and the
    // coverage-weighted velocity summed, in point order.
    const bool moves = f.u.size() > 0 &&  // upres's fine scalars hold no velocity
                       std::any_of(all.begin(), all.end(), [](const Sweep& s) { return s.moves; });
    Vec3i lo{f.n.x, f.n.y, f.n.z}, hi{0, 0, 0};
    if (moves)
        for (const Sweep& s : all) {
            int a0, a1, b0, b1, c0, c1;
            samplesIn(s.lo.x, s.hi.x, 0.5f, f.n.x, a0, a1);
            samplesIn(s.lo.y, s.hi.y, 0.5f, f.n.y, b0, b1);
            samplesIn(s.lo.z, s.hi.z, 0.5f, f.n.z, c0, c1);
            lo = {std::min(lo.x, a0), std::min(lo.y, b0), std::min(lo.z, c0)};
            hi = {std::max(hi.x, a1), std::max(hi.y, b1), std::max(hi.z, c1)};
        }
    const Vec3i box{std::max(0, hi.x - lo.x), std::max(0, hi.y - lo.y), std::max(0, hi.z - lo.z)};
    const std::size_t boxCells = std::size_t(box.x) * std::size_t(box.y) * std::size_t(box.z);
    std::vector<float> most(boxCells, 0.0f), weight(boxCells, 0.0f);
    std::vector<Vec3f> sum(boxCells, Vec3f(0.0f));
    auto at = [&](int i, int j, int k) {
        return std::size_t(i - lo.x) +
               std::size_t(box.x) *
                   (std::size_t(j - lo.y) + std::size_t(box.y) * std::size_t(k - lo.z));
    };

    // Smoke, heat and fuel raised to the emitter's amounts (max over the
    // points), and the velocity's sums, z-plane by z-plane: each plane's
    // cells are written by one task, its points in their order.
    parallelForRange(f.n.z, [&](int k0, int k1) {
        for (int k = k0; k < k1; ++k)
            for (int n = planes.start[std::size_t(k)]; n < planes.start[std::size_t(k) + 1]; ++n) {
                const Sweep& s = all[std::size_t(planes.list[std::size_t(n)])];
                if (float(k) + 0.5f < s.lo.z || float(k) + 0.5f > s.hi.z) continue;  // a face's
                int i0, i1, j0, j1;
                samplesIn(s.lo.x, s.hi.x, 0.5f, f.n.x, i0, i1);
                samplesIn(s.lo.y, s.hi.y, 0.5f, f.n.y, j0, j1);
                for (int j = j0; j < j1; ++j)
                    for (int i = i0; i < i1; ++i) {
                        const Vec3f p = f.cellCentre(i, j, k);
                        const float w = coverageOf(s, p);
                        if (w <= 0.0f) continue;
                        if (moves && s.moves) {
                            const std::size_t c = at(i, j, k);
                            most[c] = std::max(most[c], w);
                            weight[c] += w;
                            sum[c] += s.velocity * w;
                        }
                        if (f.solid(i, j, k)) continue;
                        float amount = w;
                        if (e.noise > 0.0f) {
                            Vec3f q = p * noiseScale;
                            q.z -= drift;
                            amount *= std::max(0.0f, 1.0f + e.noise * valueNoise(q));
                        }
                        raiseToEmitter(f, i, j, k, amount, e, colored, fuel);
                    }
            }
    });
    if (!moves) return;

    // Each face between two cells is blended toward the two cells' weighted
    // mean velocity, as far as they are covered on average: one coverage a
    // cell serves the smoke and the three face grids.
    for (int axis = 0; axis < 3; ++axis) {
        ScalarGrid& c = f.component(axis);
        const Vec3i step{axis == 0, axis == 1, axis == 2};
        const int kEnd = std::min(c.nz(), hi.z + step.z);
        parallelForRange(kEnd - lo.z, [&](int k0, int k1) {
            for (int k = lo.z + k0; k < lo.z + k1; ++k)
                for (int j = lo.y; j < std::min(c.ny(), hi.y + step.y); ++j)
                    for (int i = lo.x; i < std::min(c.nx(), hi.x + step.x); ++i) {
                        float m = 0.0f, w = 0.0f, v = 0.0f;
                        // The cells either side: (i, j, k) and the one before it.
                        for (int side = 0; side < 2; ++side) {
                            const int a = i - side * step.x, b = j - side * step.y,
                                      d = k - side * step.z;
                            if (a < lo.x || b < lo.y || d < lo.z || a >= hi.x || b >= hi.y ||
                                d >= hi.z)
                                continue;
                            const std::size_t cell = at(a, b, d);
                            m += most[cell], w += weight[cell], v += sum[cell][axis];
                        }
                        if (w > 0.0f) {
                            float& u = c(i, j, k);
                            u += (v / w - u) * (0.5f * m);
                        }
                    }
        });
    }
}

}  // namespace plume
