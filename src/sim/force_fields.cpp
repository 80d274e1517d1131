#include "sim/force_fields.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/noise.h"
#include "core/parallel.h"

namespace plume {

namespace {

Vec3f unitOf(Vec3f v) {
    const float len = length(v);
    return len > 0.0f ? v / len : Vec3f(0.0f);
}

// The axis a field's tube and cone lie along: a wind's direction, else its axis.
Vec3f shapeAxis(const FieldSettings& field) {
    return unitOf(field.type == FieldType::Wind ? field.direction : field.axis);
}

// The point of a polyline nearest p, its distance, and the unit tangent of
// the segment it lies on (the way from the first point to the last).
struct CurveNearest {
    Vec3f at{0.0f}, tangent{0.0f};
    float distance = 0.0f;
};
CurveNearest nearestOnCurve(const std::vector<Vec3f>& points, Vec3f p) {
    CurveNearest best;
    best.distance = INFINITY;
    for (size_t s = 0; s + 1 < points.size(); ++s) {
        const Vec3f a = points[s], ab = points[s + 1] - a;
        const float len2 = dot(ab, ab);
        if (len2 == 0.0f) continue;
        const float t = std::fmin(std::fmax(dot(p - a, ab) / len2, 0.0f), 1.0f);
        const Vec3f q = a + ab * t;
        const float d = length(p - q);
        if (d < best.distance) best = {q, ab / std::sqrt(len2), d};
    }
    return best;
}

// Value noise that evolves with tau (renewals): the lattice of each whole
// renewal moved by an offset hashed from it and the seed, blended smoothly
// into the next. Hashed offsets, not ones that grow with time, keep a long
// shot's noise as fine as its first second's.
float fieldNoise(Vec3f q, double tau, int seed, int component) {
    using noise_detail::lattice;
    const double layerStart = std::floor(tau);
    float t = float(tau - layerStart);
    t = t * t * (3.0f - 2.0f * t);
    const int layer = int(std::int64_t(layerStart) & 0x3fffffff);
    auto at = [&](int l) {
        const int h = seed * 3 + component;
        const Vec3f shift{lattice(l, h, 1), lattice(l, h, 2), lattice(l, h, 3)};
        return valueNoise(q + shift * 256.0f);
    };
    const float a = at(layer);
    return a + (at(layer + 1) - a) * t;
}

// Calls change(face, i, j, k) for every face of `axis` not touching a solid,
// those on the box's sides too (an open side's air is pushed as the rest is;
// the projection then holds walls and inflows to theirs), and stores what it
// returns.
template <typename FaceChange>
void changeFluidFaces(Fields& f, int axis, FaceChange change) {
    ScalarGrid& c = f.component(axis);
    const Vec3i n = f.n;
    const int di = axis == 0, dj = axis == 1, dk = axis == 2;
    const int nx = n.x + di, ny = n.y + dj;
    parallelForSlabs(c.nz(), [&](int k) {
        for (int j = 0; j < ny; ++j) {
            float* face = &c(0, j, k);
            // The cells either side: (i, j, k) and (i, j, k) - e_axis, where they are.
            auto solidAt = [&](int i, int jj, int kk) {
                return i >= 0 && jj >= 0 && kk >= 0 && i < n.x && jj < n.y && kk < n.z &&
                       f.solid(i, jj, kk);
            };
            for (int i = 0; i < nx; ++i) {
                if (solidAt(i, j, k) || solidAt(i - di, j - dj, k - dk)) continue;
                face[i] = change(face[i], i, j, k);
            }
        }
    });
}

}  // namespace

float fieldFalloff(const FieldSettings& field, float distance) {
    if (field.falloffMax > 0.0f && distance > field.falloffMax) return 0.0f;
    if (distance <= field.falloffMin || field.falloffPower == 0.0f) return 1.0f;
    return std::pow(1.0f + distance - field.falloffMin, -field.falloffPower);
}

float fieldWeight(const FieldSettings& field, Vec3f p) {
    if (field.type == FieldType::Curve) {
        const CurveNearest near = nearestOnCurve(field.points, p);
        return near.distance > field.radius ? 0.0f : fieldFalloff(field, near.distance);
    }
    const Vec3f r = p - field.center;
    switch (field.shape) {
        case FieldShape::Everywhere:
            return 1.0f;
        case FieldShape::Sphere:
            return fieldFalloff(field, length(r));
        case FieldShape::Tube: {
            const Vec3f a = shapeAxis(field);
            return fieldFalloff(field, length(r - a * dot(r, a)));
        }
        case FieldShape::Cone: {
            const Vec3f a = shapeAxis(field);
            const float along = dot(r, a);
            if (!(along > 0.0f) || length(r - a * along) > along) return 0.0f;
            return fieldFalloff(field, length(r));
        }
    }
    return 0.0f;
}

namespace {

// The turbulence fields' vector potential, summed, on the cell edges: A_c on
// the edges along axis c, edge (I, J, K) at grid point (I, J, K) + e_c / 2.
// Each edge is formed once, so the faces that share it see the same value and
// the curl is divergence-free on the grid, not only in the limit.
// Borrowed from the solver's scratch for the call.
struct EdgePotential {
    Vec3i n{0, 0, 0};  // edges per axis: cells + 1
    float* a[3] = {nullptr, nullptr, nullptr};
    size_t at(int i, int j, int k) const { return (size_t(k) * n.y + j) * n.x + i; }
};

Vec3i edgeCounts(Vec3i cells) { return Vec3i{cells.x + 1, cells.y + 1, cells.z + 1}; }

// The share of the (up to four) cells around edge (i, j, k) along axis c that
// hold smoke or fuel: a smoke_only turbulence's potential is weighed by it, so
// its curl stays divergence-free and stirs only around the smoke.
float edgeSmoke(const Fields& f, int c, int i, int j, int k) {
    const int p = (c + 1) % 3, q = (c + 2) % 3;
    const bool burns = f.burns();
    float smoke = 0.0f;
    int cells = 0;
    for (int dp = -1; dp <= 0; ++dp)
        for (int dq = -1; dq <= 0; ++dq) {
            Vec3i cell{i, j, k};
            cell[p] += dp;
            cell[q] += dq;
            if (cell.x < 0 || cell.y < 0 || cell.z < 0 || cell.x >= f.n.x || cell.y >= f.n.y ||
                cell.z >= f.n.z)
                continue;
            ++cells;
            if (f.density(cell.x, cell.y, cell.z) > 0.0f ||
                (burns && f.fuel(cell.x, cell.y, cell.z) > 0.0f))
                smoke += 1.0f;
        }
    return cells > 0 ? smoke / float(cells) : 0.0f;
}

EdgePotential turbulencePotential(const Fields& f, const std::vector<FieldSettings>& fields,
                                  double time, ScratchArena::Lease& scratch) {
    EdgePotential e;
    e.n = edgeCounts(f.n);
    const size_t count = size_t(e.n.x) * e.n.y * e.n.z;
    for (int c = 0; c < 3; ++c) {
        e.a[c] = scratch.take<float>(count);
        std::fill(e.a[c], e.a[c] + count, 0.0f);
    }
    for (const FieldSettings& field : fields) {
        if (field.type != FieldType::Turbulence) continue;
        const float scale = field.strength * field.size;
        const double tau = time * double(field.speed);
        for (int c = 0; c < 3; ++c)
            parallelForSlabs(e.n.z, [&](int k) {
                for (int j = 0; j < e.n.y; ++j)
                    for (int i = 0; i < e.n.x; ++i) {
                        // Whole and half numbers of cells: exact in float.
                        const Vec3f g(i + 0.5f * (c == 0), j + 0.5f * (c == 1),
                                      float(k + f.partZ) + 0.5f * (c == 2));
                        const Vec3f q = f.origin + g * f.dx;
                        const float w = fieldWeight(field, q) *
                                        (field.smokeOnly ? edgeSmoke(f, c, i, j, k) : 1.0f);
                        if (w == 0.0f) continue;
                        e.a[c][e.at(i, j, k)] +=
                            scale * w * fieldNoise(q / field.size, tau, field.seed, c);
                    }
            });
    }
    return e;
}

}  // namespace

std::uint64_t forceFieldScratchBytes(Vec3i cells) {
    const Vec3i n = edgeCounts(cells);
    return 3 * ScratchArena::rounded(std::uint64_t(n.x) * n.y * n.z * sizeof(float));
}

void addForceFields(Fields& f, const std::vector<FieldSettings>& fields, double time, float dt,
                    ScratchArena& arena) {
    if (fields.empty()) return;
    auto facePoint = [&](int axis, int i, int j, int k) {
        return f.point(i, j, k, Vec3f(0.5f * (axis != 0), 0.5f * (axis != 1), 0.5f * (axis != 2)));
    };
    // Each field's unit direction (wind) or axis (vortex), once.
    std::vector<Vec3f> unit(fields.size());
    bool turbulent = false;
    for (size_t n = 0; n < fields.size(); ++n) {
        unit[n] = unitOf(fields[n].type == FieldType::Wind ? fields[n].direction : fields[n].axis);
        turbulent = turbulent || fields[n].type == FieldType::Turbulence;
    }
    ScratchArena::Lease scratch(arena);
    const EdgePotential potential =
        turbulent ? turbulencePotential(f, fields, time, scratch) : EdgePotential{};

    // A cell holds smoke (for smoke_only fields): density or fuel above 0.
    const bool burns = f.burns();
    auto smokeIn = [&](int i, int j, int k) {
        if (i < 0 || j < 0 || k < 0 || i >= f.n.x || j >= f.n.y || k >= f.n.z) return -1.0f;
        return f.density(i, j, k) > 0.0f || (burns && f.fuel(i, j, k) > 0.0f) ? 1.0f : 0.0f;
    };

    for (int axis = 0; axis < 3; ++axis) {
        const int a = (axis + 1) % 3, b = (axis + 2) % 3;  // (axis, a, b) right-handed
        const Vec3i da{a == 0, a == 1, a == 2}, db{b == 0, b == 1, b == 2};
        const Vec3i back{axis == 0, axis == 1, axis == 2};
        changeFluidFaces(f, axis, [&](float u, int i, int j, int k) {
            // How much of a smoke_only field acts on the face: the mean of the
            // cells either side (the one cell on the box's side).
            float smoke = -1.0f;
            auto smokeHere = [&] {
                if (smoke < 0.0f) {
                    const float s0 = smokeIn(i, j, k),
                                s1 = smokeIn(i - back.x, j - back.y, k - back.z);
                    smoke = s0 < 0.0f ? s1 : s1 < 0.0f ? s0 : 0.5f * (s0 + s1);
                }
                return smoke;
            };
            // The turbulence: (curl A)_axis = dA_b/da - dA_a/db by edge differences.
            if (turbulent) {
                const float *Ab = potential.a[b], *Aa = potential.a[a];
                const size_t here = potential.at(i, j, k);
                u += dt / f.dx *
                     ((Ab[potential.at(i + da.x, j + da.y, k + da.z)] - Ab[here]) -
                      (Aa[potential.at(i + db.x, j + db.y, k + db.z)] - Aa[here]));
            }
            const Vec3f p = facePoint(axis, i, j, k);
            // Then pushes and relaxations in the file's order; drag after them all.
            for (size_t n = 0; n < fields.size(); ++n) {
                const FieldSettings& field = fields[n];
                if (field.type == FieldType::Drag || field.type == FieldType::Turbulence) continue;
                const float w = fieldWeight(field, p) * (field.smokeOnly ? smokeHere() : 1.0f);
                if (w == 0.0f) continue;
                switch (field.type) {
                    case FieldType::Wind:
                        u += dt * field.strength * w * unit[n][axis];
                        break;
                    case FieldType::Attract:
                        u += dt * field.strength * w * unitOf(field.center - p)[axis];
                        break;
                    case FieldType::Curve: {
                        const CurveNearest near = nearestOnCurve(field.points, p);
                        const Vec3f pull = near.tangent + (near.at - p) / field.radius;
                        u += dt * field.strength * w * pull[axis];
                        break;
                    }
                    case FieldType::Vortex: {
                        // Only the flow across the axis turns: along it the air
                        // keeps what buoyancy and wind give it. A face holds one
                        // component, so its share across the axis is
                        // 1 - axis_i^2 (exact for an axis along x, y or z).
                        const Vec3f target = cross(unit[n], p - field.center) * field.strength;
                        const float across = 1.0f - unit[n][axis] * unit[n][axis];
                        const float blend =
                            -std::expm1(-std::fabs(field.strength) * w * across * dt);
                        u += (target[axis] - u) * blend;
                        break;
                    }
                    default:
                        break;
                }
            }
            for (const FieldSettings& field : fields) {
                if (field.type != FieldType::Drag) continue;
                const float w = fieldWeight(field, p) * (field.smokeOnly ? smokeHere() : 1.0f);
                if (w > 0.0f) u /= 1.0f + field.strength * w * dt;
            }
            return u;
        });
    }
}

}  // namespace plume
