#include "sim/forces.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/noise.h"
#include "core/parallel.h"

namespace plume {

namespace {

// Calls add(i, j, k, im, jm, km) for each interior face (i, j, k) of `axis`
// between two fluid cells, (im, jm, km) = (i, j, k) - e_axis and (i, j, k),
// and adds what it returns to the face; faces on the domain boundary are left
// to the projection's boundary conditions.
// Only the faces in the z-slabs [slabs.begin, slabs.end) when given.
struct FaceSlabs {
    int begin = 0, end = std::numeric_limits<int>::max();
};

template <typename FaceIncrement>
void addToInteriorFaces(Fields& f, int axis, FaceIncrement add, FaceSlabs slabs = {}) {
    ScalarGrid& c = f.component(axis);
    const Vec3i n = f.n;
    // The first interior face along each axis: 1 along `axis`, 0 across it;
    // the last is below n on every axis. Rows, not a bounds test per face.
    const int di = axis == 0, dj = axis == 1, dk = axis == 2;
    parallelForSlabs(c.nz(), [&](int k) {
        if (k < dk || k >= n.z || k < slabs.begin || k >= slabs.end) return;
        for (int j = dj; j < n.y; ++j) {
            float* face = &c(0, j, k);
            const uint8_t* solid = &f.solid(0, j, k);
            const uint8_t* behind = &f.solid(0, j - dj, k - dk);  // [i - di]: (i, j, k) - e_axis
            for (int i = di; i < n.x; ++i) {
                if (solid[i] || behind[i - di]) continue;
                face[i] += add(i, j, k, i - di, j - dj, k - dk);
            }
        }
    });
}

// Adds dt * a(cell) averaged onto each interior face of `axis`.
template <typename CellAccel>
void addCellAccelerationToFaces(Fields& f, int axis, float dt, CellAccel accel,
                                FaceSlabs slabs = {}) {
    addToInteriorFaces(
        f, axis,
        [&](int i, int j, int k, int im, int jm, int km) {
            return dt * 0.5f * (accel(im, jm, km) + accel(i, j, k));
        },
        slabs);
}

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

namespace {

// A direction hashed from a block of the world and a time layer: each
// component the sum of two lattice values (a triangle distribution, nearer
// to isotropic than one uniform value), normalised.
Vec3f blockDirection(int bx, int by, int bz, int layer) {
    using noise_detail::hash3, noise_detail::lattice;
    const int seed = int(hash3(bx, by, bz) >> 1);
    Vec3f d{lattice(seed, layer, 1) + lattice(seed, layer, 2),
            lattice(seed, layer, 3) + lattice(seed, layer, 4),
            lattice(seed, layer, 5) + lattice(seed, layer, 6)};
    const float len = length(d);
    return len > 1e-6f ? d / len : Vec3f(0.0f, 0.0f, 1.0f);
}

}  // namespace

void addFlameDisturbance(Fields& f, float strength, float scale, double time, float dt,
                         ScratchArena& arena) {
    if (strength == 0.0f || !f.burns()) return;
    const Vec3i n = f.n;
    // The layer at the middle of the substep (the force's mean over it, to
    // second order) and the smoothstep blend towards the next.
    const double period = std::sqrt(2.0 * double(scale) / double(strength));
    const double tau = (time + 0.5 * double(dt)) / period;
    const double layerStart = std::floor(tau);
    float t = float(tau - layerStart);
    t = t * t * (3.0f - 2.0f * t);
    const int layer = int(std::fmod(layerStart, 1 << 30));

    // Blocks of the world, not of the grid: every island of a sparse solve
    // sees the same blocks. The lattice is shifted by a fraction of a block
    // (2 minus the golden ratio) that no usual cell size divides, so no cell
    // centre sits on a block's face, where a rounding would pick the block.
    const Vec3f o = f.domainOrigin();
    std::vector<int> blocks[3];
    for (int axis = 0; axis < 3; ++axis) {
        blocks[axis].resize(size_t(n[axis]));
        for (int c = 0; c < n[axis]; ++c) {
            const double world = double(o[axis]) + (f.offset[axis] + c + 0.5) * double(f.dx);
            blocks[axis][size_t(c)] = int(std::floor(world / double(scale) + 0.3819660112501051));
        }
    }

    // Each cell's push (m/s^2), made once: the blended direction of its
    // block (kept while a row stays in one block) times strength and flame.
    const FlameSlabs slabs = flameSlabs(f);
    if (slabs.empty()) return;
    ScratchArena::Lease scratch(arena);
    Vec3f* push = scratch.take<Vec3f>(f.cellCount());
    auto at = [&](int i, int j, int k) { return (size_t(k) * n.y + j) * n.x + i; };
    parallelForSlabs(n.z, [&](int k) {
        if (k < slabs.cells.begin || k >= slabs.cells.end) return;
        const int bz = blocks[2][size_t(k)];
        for (int j = 0; j < n.y; ++j) {
            const int by = blocks[1][size_t(j)];
            int lastBx = 0;
            bool known = false;
            Vec3f direction(0.0f);
            for (int i = 0; i < n.x; ++i) {
                const size_t c = at(i, j, k);
                const float phi = std::min(f.flame[c], 1.0f);
                if (!(phi > 0.0f)) {
                    push[c] = Vec3f(0.0f);
                    continue;
                }
                const int bx = blocks[0][size_t(i)];
                if (!known || bx != lastBx) {
                    const Vec3f a = blockDirection(bx, by, bz, layer);
                    direction = a + (blockDirection(bx, by, bz, layer + 1) - a) * t;
                    lastBx = bx;
                    known = true;
                }
                push[c] = direction * (strength * phi);
            }
        }
    });
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

    // Each cell's change from the velocity before any: the component along
    // the temperature gradient's direction, grown by exp(rate * w * dt) - 1.
    parallelForSlabs(n.z, [&](int k) {
        if (k < slabs.cells.begin || k >= slabs.cells.end) return;
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const size_t c = at(i, j, k);
                const float phi = std::clamp(f.flame[c], 0.0f, 1.0f);
                const float w = 4.0f * phi * (1.0f - phi);  // the flame's edge
                change[c] = Vec3f(0.0f);
                if (!(w > 0.0f) || f.solid[c]) continue;
                // Central differences; a neighbour beyond the box or in a
                // solid (held at ambient) is the cell itself.
                auto T = [&](int ii, int jj, int kk) {
                    if (ii < 0 || jj < 0 || kk < 0 || ii >= n.x || jj >= n.y || kk >= n.z ||
                        f.solid(ii, jj, kk))
                        return f.temperature[c];
                    return f.temperature(ii, jj, kk);
                };
                const Vec3f grad{T(i + 1, j, k) - T(i - 1, j, k), T(i, j + 1, k) - T(i, j - 1, k),
                                 T(i, j, k + 1) - T(i, j, k - 1)};
                const float len = length(grad);
                if (len == 0.0f) continue;
                const Vec3f normal = grad / len;
                const float across = dot(f.centredVelocity(i, j, k), normal);
                change[c] = normal * (across * std::expm1(rate * w * dt));
            }
    });

    for (int axis = 0; axis < 3; ++axis)
        addToInteriorFaces(
            f, axis,
            [&](int i, int j, int k, int im, int jm, int km) {
                return 0.5f * (change[at(im, jm, km)][axis] + change[at(i, j, k)][axis]);
            },
            slabs.faces);
}

}  // namespace plume
