#include "sim/forces.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/noise.h"
#include "core/parallel.h"
#include "sim/face_forces.h"

namespace plume {

namespace {

using face_forces::addCellAccelerationToFaces;
using face_forces::addToInteriorFaces;
using face_forces::FaceSlabs;

// Where a flame force can act: the cells of the slabs around those that hold
// flame (one more on each side, whose cells are 0 but feed the faces), and
// the faces of those that touch a burning cell. Empty without flame.
struct FlameSlabs {
    FaceSlabs cells, faces;
    bool empty() const { return faces.begin >= faces.end; }
};
FlameSlabs flameSlabs(const Fields& f) {
    using Span = std::pair<int, int>;  // the first and last slab with flame
    const Span none{f.n.z, -1};
    const Span span = deterministicReduce(
        f.n.z, none,
        [&](int k) {
            const float* p = &f.flame(0, 0, k);
            for (size_t c = 0; c < f.flame.strideZ(); ++c)
                if (p[c] > 0.0f) return Span{k, k};
            return none;
        },
        [](Span a, Span b) {
            return Span{std::min(a.first, b.first), std::max(a.second, b.second)};
        });
    if (span.second < span.first) return {{0, 0}, {0, 0}};
    return {{std::max(span.first - 1, 0), std::min(span.second + 2, f.n.z)},
            {span.first, span.second + 2}};
}

// Noise that evolves: value noise on the time layers either side of tau,
// each layer the lattice shifted by whole cells, blended smoothly.
float evolvingNoise(Vec3f q, float tau) {
    float layer = std::floor(tau);
    float t = tau - layer;
    t = t * t * (3.0f - 2.0f * t);
    auto at = [&](float l) { return valueNoise(q + Vec3f(97.0f, 57.0f, 23.0f) * l); };
    const float a = at(layer);
    return a + (at(layer + 1.0f) - a) * t;
}

}  // namespace

void addTurbulence(Fields& f, float strength, float scale, double time, float dt) {
    if (strength == 0.0f) return;
    const float tau = float(std::fmod(time * std::sqrt(double(strength) / scale), 1000.0));
    const float potential = strength * scale;
    // Each component of the potential is its own noise (offset far apart); it
    // lives on the cell edges along its axis, at grid position g (cell units).
    const Vec3f shift[3] = {{0.0f, 0.0f, 0.0f}, {41.3f, 7.9f, 13.1f}, {5.7f, 63.1f, 29.3f}};
    auto A = [&](int axis, Vec3f g) {
        Vec3f q = (f.origin + g * f.dx) / scale + shift[axis];
        return potential * evolvingNoise(q, tau);
    };
    const float k = dt / f.dx;
    for (int axis = 0; axis < 3; ++axis) {
        // The two other axes, in the order that makes (axis, a, b) right-handed.
        const int a = (axis + 1) % 3, b = (axis + 2) % 3;
        Vec3f ea(0.0f), eb(0.0f);
        ea[a] = 0.5f;
        eb[b] = 0.5f;
        addToInteriorFaces(f, axis, [&](int i, int j, int kk, int, int, int) {
            // Face centre; (curl A)_axis = dA_b/da - dA_a/db by edge differences.
            Vec3f g(i + 0.5f * (axis != 0), j + 0.5f * (axis != 1),
                    (kk + f.partZ) + 0.5f * (axis != 2));
            return k * ((A(b, g + ea) - A(b, g - ea)) - (A(a, g + eb) - A(a, g - eb)));
        });
    }
}

void addBuoyancy(Fields& f, const PhysicsSettings& p, float dt) {
    float g = length(p.gravity);
    if (g == 0.0f || (p.buoyancyDensity == 0.0f && p.buoyancyHeat == 0.0f)) return;
    Vec3f up = p.gravity * (-1.0f / g);
    for (int axis = 0; axis < 3; ++axis) {
        float along = up[axis] * g;
        if (along == 0.0f) continue;
        addCellAccelerationToFaces(f, axis, dt, [&](int i, int j, int k) {
            return along * (-p.buoyancyDensity * f.density(i, j, k) +
                            p.buoyancyHeat * (f.temperature(i, j, k) - p.ambientTemperature));
        });
    }
}

void addWind(Fields& f, Vec3f wind, float dt) {
    if (wind == Vec3f(0.0f)) return;
    const float blend = 1.0f - std::exp(-kWindRate * dt);
    for (int axis = 0; axis < 3; ++axis) {
        ScalarGrid& c = f.component(axis);
        const float target = wind[axis];
        parallelForSlabs(c.nz(), [&](int k) {
            float* row = &c(0, 0, k);
            for (size_t n = 0; n < c.strideZ(); ++n) row[n] += (target - row[n]) * blend;
        });
    }
}

std::uint64_t vorticityScratchBytes(Vec3i n) {
    const std::uint64_t c = std::uint64_t(n.x) * n.y * n.z;
    return 2 * ScratchArena::rounded(c * sizeof(Vec3f));
}

void addVorticityConfinement(Fields& f, float epsilon, float flameEpsilon, float dt,
                             ScratchArena& arena) {
    const bool flames = flameEpsilon != 0.0f && f.burns();
    if (epsilon == 0.0f && !flames) return;
    const Vec3i n = f.n;
    const float inv2dx = 0.5f / f.dx;
    const size_t cells = f.cellCount();
    ScratchArena::Lease scratch(arena);
    // Each cell's centred velocity is read by its six neighbours: made once.
    Vec3f* centred = scratch.take<Vec3f>(cells);
    Vec3f* curl = scratch.take<Vec3f>(cells);  // omega at cell centres, 1/s; then the force
    auto at = [&](int i, int j, int k) { return (size_t(k) * n.y + j) * n.x + i; };

    parallelForSlabs(n.z, [&](int k) {
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) centred[at(i, j, k)] = f.centredVelocity(i, j, k);
    });

    // Curl of the centred velocity, by central differences (one-sided at the
    // edges: a neighbour beyond the box is the edge cell itself).
    parallelForSlabs(n.z, [&](int k) {
        const int kLo = std::max(k - 1, 0), kHi = std::min(k + 1, n.z - 1);
        for (int j = 0; j < n.y; ++j) {
            const int jLo = std::max(j - 1, 0), jHi = std::min(j + 1, n.y - 1);
            for (int i = 0; i < n.x; ++i) {
                const size_t c = at(i, j, k);
                if (f.solid[c]) {
                    curl[c] = Vec3f(0.0f);
                    continue;
                }
                const int iLo = std::max(i - 1, 0), iHi = std::min(i + 1, n.x - 1);
                Vec3f dX = centred[at(iHi, j, k)] - centred[at(iLo, j, k)];
                Vec3f dY = centred[at(i, jHi, k)] - centred[at(i, jLo, k)];
                Vec3f dZ = centred[at(i, j, kHi)] - centred[at(i, j, kLo)];
                Vec3f w{(dY.z - dZ.y) * inv2dx, (dZ.x - dX.z) * inv2dx, (dX.y - dY.x) * inv2dx};
                curl[c] = w;
            }
        }
    });

    // |omega|, in the bytes of the centred velocity, which the curl was the
    // last to read (a third buffer would make this the solver's hungriest
    // stage).
    float* magnitude = reinterpret_cast<float*>(centred);
    parallelForSlabs(n.z, [&](int k) {
        const size_t row = at(0, 0, k);
        for (size_t c = row; c < row + size_t(n.x) * n.y; ++c) magnitude[c] = length(curl[c]);
    });

    // Force eps * dx * (N x omega) at cells, N the normalised gradient of
    // |omega|. A cell's force needs its own curl only (the gradient is of the
    // magnitude), so it takes the curl's place. In a fire eps grows with the
    // cell's flame.
    const float scale = epsilon * f.dx;
    auto scaleAt = [&](size_t c) {
        if (!flames) return scale;
        return (epsilon + flameEpsilon * std::clamp(f.flame[c], 0.0f, 1.0f)) * f.dx;
    };
    parallelForSlabs(n.z, [&](int k) {
        const int kLo = std::max(k - 1, 0), kHi = std::min(k + 1, n.z - 1);
        for (int j = 0; j < n.y; ++j) {
            const int jLo = std::max(j - 1, 0), jHi = std::min(j + 1, n.y - 1);
            for (int i = 0; i < n.x; ++i) {
                const int iLo = std::max(i - 1, 0), iHi = std::min(i + 1, n.x - 1);
                Vec3f grad{magnitude[at(iHi, j, k)] - magnitude[at(iLo, j, k)],
                           magnitude[at(i, jHi, k)] - magnitude[at(i, jLo, k)],
                           magnitude[at(i, j, kHi)] - magnitude[at(i, j, kLo)]};
                float len = length(grad);
                const size_t cell = at(i, j, k);
                Vec3f& c = curl[cell];
                // No gradient, no direction: a uniform flow gets no force.
                c = len == 0.0f ? Vec3f(0.0f) : cross(grad / len, c) * scaleAt(cell);
            }
        }
    });

    for (int axis = 0; axis < 3; ++axis)
        addCellAccelerationToFaces(f, axis, dt,
                                   [&](int i, int j, int k) { return curl[at(i, j, k)][axis]; });
}

void addFlameDisturbance(Fields& f, float strength, float scale, double time, float dt,
                         ScratchArena& arena) {
    if (strength == 0.0f || !f.burns()) return;
    const FlameSlabs slabs = flameSlabs(f);
    if (slabs.empty()) return;
    ScratchArena::Lease scratch(arena);
    Vec3f* push = scratch.take<Vec3f>(f.cellCount());
    face_forces::blockPushes(
        f, strength, scale, time, dt, slabs.cells,
        [&](size_t c) { return std::min(f.flame[c], 1.0f); }, push, false);
    const Vec3i n = f.n;
    auto at = [&](int i, int j, int k) { return (size_t(k) * n.y + j) * n.x + i; };
    for (int axis = 0; axis < 3; ++axis)
        addCellAccelerationToFaces(
            f, axis, dt, [&](int i, int j, int k) { return push[at(i, j, k)][axis]; }, slabs.faces);
}

std::uint64_t flameForceScratchBytes(Vec3i n) {
    return ScratchArena::rounded(std::uint64_t(n.x) * n.y * n.z * sizeof(Vec3f));
}

void addFlameShredding(Fields& f, float rate, float dt, ScratchArena& arena) {
    if (rate == 0.0f || !f.burns()) return;
    const Vec3i n = f.n;
    const FlameSlabs slabs = flameSlabs(f);
    if (slabs.empty()) return;
    ScratchArena::Lease scratch(arena);
    Vec3f* change = scratch.take<Vec3f>(f.cellCount());  // m/s, at cell centres
    auto at = [&](int i, int j, int k) { return (size_t(k) * n.y + j) * n.x + i; };

    face_forces::shreddingChanges(
        f, rate, dt, slabs.cells, [&](size_t c) { return std::clamp(f.flame[c], 0.0f, 1.0f); },
        change);
    for (int axis = 0; axis < 3; ++axis)
        addToInteriorFaces(
            f, axis,
            [&](int i, int j, int k, int im, int jm, int km) {
                return 0.5f * (change[at(im, jm, km)][axis] + change[at(i, j, k)][axis]);
            },
            slabs.faces);
}

}  // namespace plume
