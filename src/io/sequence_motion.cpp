#include "io/sequence_motion.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/parallel.h"

namespace plume {

namespace {

// The level set's value at sample (i, j, k) of the shared index space: its
// own sample inside its box, beyond it what LevelSet::sample holds there.
float valueAt(const LevelSet& ls, const Lattice& own, int i, int j, int k) {
    const int a = i - own.lo.x, b = j - own.lo.y, c = k - own.lo.z;
    if (ls.distance.inside(a, b, c)) return ls.distance(a, b, c);
    return ls.sample(own.origin() + Vec3f(float(a), float(b), float(c)) * own.voxelSize);
}

Vec3f samplePosition(const Lattice& l, int i, int j, int k) {
    return l.origin() + Vec3f(float(i), float(j), float(k)) * l.voxelSize;
}

// Adds `value` with trilinear weights around pLocal to the lattice's sums.
void splat(const Lattice& l, Vec3f pLocal, Vec3f value, Grid3<float>& weight, Grid3<Vec3f>& sum) {
    const Vec3f g = (pLocal - l.origin()) / l.voxelSize;
    const int i0 = int(std::floor(g.x)), j0 = int(std::floor(g.y)), k0 = int(std::floor(g.z));
    const float fx = g.x - float(i0), fy = g.y - float(j0), fz = g.z - float(k0);
    for (int c = 0; c < 8; ++c) {
        const int i = i0 + (c & 1), j = j0 + ((c >> 1) & 1), k = k0 + ((c >> 2) & 1);
        if (!weight.inside(i, j, k)) continue;
        const float w = (c & 1 ? fx : 1.0f - fx) * ((c >> 1) & 1 ? fy : 1.0f - fy) *
                        ((c >> 2) & 1 ? fz : 1.0f - fz);
        weight(i, j, k) += w;
        sum(i, j, k) += value * w;
    }
}

}  // namespace

Vec3f Lattice::origin() const {
    // As OpenVDB's indexToWorld gives a dense level set's origin (io/scene_geometry).
    return Vec3f(float(double(lo.x) * double(voxelSize)), float(double(lo.y) * double(voxelSize)),
                 float(double(lo.z) * double(voxelSize)));
}

Lattice latticeOf(const LevelSet& ls) {
    Lattice l;
    l.voxelSize = ls.voxelSize;
    l.lo = {int(std::lround(ls.origin.x / ls.voxelSize)),
            int(std::lround(ls.origin.y / ls.voxelSize)),
            int(std::lround(ls.origin.z / ls.voxelSize))};
    l.n = {ls.distance.nx(), ls.distance.ny(), ls.distance.nz()};
    return l;
}

Lattice unite(const Lattice& a, const Lattice& b) {
    Lattice u;
    u.voxelSize = a.voxelSize;
    u.lo = {std::min(a.lo.x, b.lo.x), std::min(a.lo.y, b.lo.y), std::min(a.lo.z, b.lo.z)};
    u.n = {std::max(a.lo.x + a.n.x, b.lo.x + b.n.x) - u.lo.x,
           std::max(a.lo.y + a.n.y, b.lo.y + b.n.y) - u.lo.y,
           std::max(a.lo.z + a.n.z, b.lo.z + b.n.z) - u.lo.z};
    return u;
}

bool sameTopology(const TriangleMesh& a, const TriangleMesh& b) {
    return a.points.size() == b.points.size() && a.triangles == b.triangles;
}

Grid3<Vec3f> displacementField(const TriangleMesh& a, const TriangleMesh& b, const Lattice& lattice,
                               float reach) {
    // Splatted from points on every triangle at both ends, half a voxel or
    // closer apart, so a large triangle (a plate's face) reaches every sample
    // along it, in triangle order (the same sums for any thread count).
    Grid3<float> weight(lattice.n.x, lattice.n.y, lattice.n.z, Vec3f(0.0f), 0.0f);
    Grid3<Vec3f> sum(lattice.n.x, lattice.n.y, lattice.n.z, Vec3f(0.0f), Vec3f(0.0f));
    const float spacing = 0.5f * lattice.voxelSize;
    for (const auto& t : a.triangles) {
        const Vec3f pa[3] = {a.points[t[0]], a.points[t[1]], a.points[t[2]]};
        const Vec3f pb[3] = {b.points[t[0]], b.points[t[1]], b.points[t[2]]};
        const Vec3f d[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
        float edge = 0.0f;
        for (const Vec3f* p : {pa, pb})
            for (int c = 0; c < 3; ++c) edge = std::max(edge, length(p[(c + 1) % 3] - p[c]));
        const int n = std::clamp(int(std::ceil(edge / spacing)), 1, 256);
        for (int u = 0; u <= n; ++u)
            for (int v = 0; u + v <= n; ++v) {
                const float wu = float(u) / float(n), wv = float(v) / float(n);
                const float w0 = 1.0f - wu - wv;
                const Vec3f disp = d[0] * w0 + d[1] * wu + d[2] * wv;
                splat(lattice, pa[0] * w0 + pa[1] * wu + pa[2] * wv, disp, weight, sum);
                splat(lattice, pb[0] * w0 + pb[1] * wu + pb[2] * wv, disp, weight, sum);
            }
    }
    Grid3<Vec3f> field(lattice.n.x, lattice.n.y, lattice.n.z, Vec3f(0.0f), Vec3f(0.0f));
    Grid3<std::uint8_t> known(lattice.n.x, lattice.n.y, lattice.n.z, Vec3f(0.0f), 0);
    for (std::size_t c = 0; c < field.size(); ++c)
        if (weight[c] > 1e-4f) field[c] = sum[c] / weight[c], known[c] = 1;

    // Out to `reach`, a layer of samples a sweep: each takes the mean of its
    // known neighbours (read from the sweep before, so the order of the
    // slabs does not matter).
    const int sweeps = std::min(int(std::ceil(reach / lattice.voxelSize)),
                                lattice.n.x + lattice.n.y + lattice.n.z);
    Grid3<Vec3f> nextField = field;
    Grid3<std::uint8_t> nextKnown = known;
    for (int sweep = 0; sweep < sweeps; ++sweep) {
        const int added = int(deterministicSum(field.nz(), [&](int k) {
            int count = 0;
            for (int j = 0; j < field.ny(); ++j)
                for (int i = 0; i < field.nx(); ++i) {
                    if (known(i, j, k)) continue;
                    Vec3f total(0.0f);
                    int neighbours = 0;
                    const int at[6][3] = {{i - 1, j, k}, {i + 1, j, k}, {i, j - 1, k},
                                          {i, j + 1, k}, {i, j, k - 1}, {i, j, k + 1}};
                    for (const auto& q : at)
                        if (known.inside(q[0], q[1], q[2]) && known(q[0], q[1], q[2])) {
                            total += field(q[0], q[1], q[2]);
                            ++neighbours;
                        }
                    if (!neighbours) continue;
                    nextField(i, j, k) = total / float(neighbours);
                    nextKnown(i, j, k) = 1;
                    ++count;
                }
            return double(count);
        }));
        if (!added) break;
        field = nextField;
        known = nextKnown;
    }
    return field;
}

LevelSet warpBlend(const LevelSet& a, const LevelSet& b, const Grid3<Vec3f>& displacement,
                   const Lattice& lattice, float s) {
    LevelSet out;
    out.distance = Grid3<float>(lattice.n.x, lattice.n.y, lattice.n.z, Vec3f(0.0f));
    out.origin = lattice.origin();
    out.voxelSize = lattice.voxelSize;
    out.background = a.background;
    parallelForSlabs(lattice.n.z, [&](int k) {
        for (int j = 0; j < lattice.n.y; ++j)
            for (int i = 0; i < lattice.n.x; ++i) {
                const Vec3f p = samplePosition(lattice, i, j, k);
                const Vec3f d = displacement(i, j, k);
                out.distance(i, j, k) =
                    (1.0f - s) * a.sample(p - d * s) + s * b.sample(p + d * (1.0f - s));
            }
    });
    return out;
}

SurfaceVelocity levelSetVelocity(const LevelSet& a, const LevelSet& b, const Lattice& lattice,
                                 float seconds) {
    SurfaceVelocity out;
    out.velocity = Grid3<Vec3f>(lattice.n.x, lattice.n.y, lattice.n.z, Vec3f(0.0f), Vec3f(0.0f));
    out.origin = lattice.origin();
    out.voxelSize = lattice.voxelSize;
    const Lattice la = latticeOf(a), lb = latticeOf(b);
    // Within the narrow bands the values are distances; beyond, a clamp.
    const float bandA = 0.9f * std::fabs(a.background), bandB = 0.9f * std::fabs(b.background);
    const float h = lattice.voxelSize;
    parallelForSlabs(lattice.n.z, [&](int k) {
        for (int j = 0; j < lattice.n.y; ++j)
            for (int i = 0; i < lattice.n.x; ++i) {
                const int gi = i + lattice.lo.x, gj = j + lattice.lo.y, gk = k + lattice.lo.z;
                const float pa = valueAt(a, la, gi, gj, gk), pb = valueAt(b, lb, gi, gj, gk);
                if (std::fabs(pa) >= bandA || std::fabs(pb) >= bandB) continue;
                auto mean = [&](int di, int dj, int dk) {
                    return 0.5f * (valueAt(a, la, gi + di, gj + dj, gk + dk) +
                                   valueAt(b, lb, gi + di, gj + dj, gk + dk));
                };
                const Vec3f grad =
                    Vec3f(mean(1, 0, 0) - mean(-1, 0, 0), mean(0, 1, 0) - mean(0, -1, 0),
                          mean(0, 0, 1) - mean(0, 0, -1)) /
                    (2.0f * h);
                const float rate = (pb - pa) / seconds;
                out.velocity(i, j, k) = grad * (-rate / std::max(dot(grad, grad), 0.25f));
            }
    });
    return out;
}

TriangleMesh interpolateMesh(const TriangleMesh& a, const TriangleMesh& b, float s) {
    TriangleMesh out;
    out.triangles = a.triangles;
    out.points.resize(a.points.size());
    for (std::size_t v = 0; v < a.points.size(); ++v)
        out.points[v] = a.points[v] * (1.0f - s) + b.points[v] * s;
    return out;
}

}  // namespace plume
