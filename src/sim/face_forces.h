// What the velocity forces share (sim/forces.cpp, sim/shaping.cpp): adding
// to a component's interior faces, a cell's acceleration averaged onto them,
// and the two shaping forces, block disturbance and shredding, each weighted
// by a field the caller names (the flame, or the smoke's density).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/noise.h"
#include "core/parallel.h"
#include "core/scratch_arena.h"
#include "sim/fields.h"

namespace plume::face_forces {

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

// A direction hashed from a block of the world and a time layer: each
// component the sum of two lattice values (a triangle distribution, nearer
// to isotropic than one uniform value), normalised.
inline Vec3f blockDirection(int bx, int by, int bz, int layer) {
    using noise_detail::hash3, noise_detail::lattice;
    const int seed = int(hash3(bx, by, bz) >> 1);
    Vec3f d{lattice(seed, layer, 1) + lattice(seed, layer, 2),
            lattice(seed, layer, 3) + lattice(seed, layer, 4),
            lattice(seed, layer, 5) + lattice(seed, layer, 6)};
    const float len = length(d);
    return len > 1e-6f ? d / len : Vec3f(0.0f, 0.0f, 1.0f);
}


// Block disturbance's push (m/s^2) into each cell of the slabs `cells`:
// in each cube of `scale` metres of the world a direction hashed from the
// block and a time layer, blended smoothly from one layer to the next (a layer
// lasts sqrt(2 scale / strength) s, the time the push takes to move the gas a
// block), times `strength` and weight(c) (0: no push). Adds to `push` when
// `add`, for octaves.
template <typename Weight>
void blockPushes(const Fields& f, float strength, float scale, double time, float dt,
                 FaceSlabs cells, Weight weight, Vec3f* push, bool add) {
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

    // The blended direction of a cell's block, kept while a row stays in one block.
    auto at = [&](int i, int j, int k) { return (size_t(k) * n.y + j) * n.x + i; };
    parallelForSlabs(n.z, [&](int k) {
        if (k < cells.begin || k >= cells.end) return;
        const int bz = blocks[2][size_t(k)];
        for (int j = 0; j < n.y; ++j) {
            const int by = blocks[1][size_t(j)];
            int lastBx = 0;
            bool known = false;
            Vec3f direction(0.0f);
            for (int i = 0; i < n.x; ++i) {
                const size_t c = at(i, j, k);
                const float w = weight(c);
                if (!(w > 0.0f)) {
                    if (!add) push[c] = Vec3f(0.0f);
                    continue;
                }
                const int bx = blocks[0][size_t(i)];
                if (!known || bx != lastBx) {
                    const Vec3f a = blockDirection(bx, by, bz, layer);
                    direction = a + (blockDirection(bx, by, bz, layer + 1) - a) * t;
                    lastBx = bx;
                    known = true;
                }
                const Vec3f p = direction * (strength * w);
                push[c] = add ? push[c] + p : p;
            }
        }
    });
}

// Shredding's change (m/s) at each cell centre of the slabs `cells`: where
// weight(c) (in [0, 1]) marks an edge, 4 w (1 - w), the velocity's component
// along the temperature gradient grows by exp(rate * 4 w (1 - w) * dt) - 1,
// so the gas that crosses the edge does so faster and the edge tears into
// streaks.
template <typename Weight>
void shreddingChanges(const Fields& f, float rate, float dt, FaceSlabs cells, Weight weight,
                      Vec3f* change) {
    const Vec3i n = f.n;
    auto at = [&](int i, int j, int k) { return (size_t(k) * n.y + j) * n.x + i; };
    parallelForSlabs(n.z, [&](int k) {
        if (k < cells.begin || k >= cells.end) return;
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const size_t c = at(i, j, k);
                const float phi = weight(c);
                const float w = 4.0f * phi * (1.0f - phi);  // the edge
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
}

}  // namespace plume::face_forces
