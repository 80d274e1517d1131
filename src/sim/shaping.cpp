#include "sim/shaping.h"

#include <algorithm>
#include <cmath>

#include "core/parallel.h"
#include "sim/face_forces.h"

namespace plume {

void addDisturbance(Fields& f, const ShapingSettings& s, double time, float dt,
                    ScratchArena& arena) {
    if (s.disturbance == 0.0f) return;
    const Vec3i n = f.n;
    const face_forces::FaceSlabs all{0, n.z};
    const float cutoff = s.disturbanceCutoff;
    auto weight = [&](size_t c) {
        const float d = f.density[c];
        if (!(d > 0.0f)) return 0.0f;
        return cutoff > 0.0f ? std::clamp(1.0f - d / cutoff, 0.0f, 1.0f) : 1.0f;
    };
    ScratchArena::Lease scratch(arena);
    Vec3f* push = scratch.take<Vec3f>(f.cellCount());
    float block = s.disturbanceBlock, strength = s.disturbance;
    for (int octave = 0; octave < s.disturbanceOctaves; ++octave) {
        face_forces::blockPushes(f, strength, block, time, dt, all, weight, push, octave > 0);
        block *= 0.5f;
        strength *= 0.5f;
    }

    // Row by row of each component's interior faces: the push averaged onto
    // the face, none where a cell is at the cutoff, then (rotational) the
    // row's pushed faces scaled back to their kinetic energy before.
    auto at = [&](int i, int j, int k) { return (size_t(k) * n.y + j) * n.x + i; };
    const bool rotational = s.disturbanceRotational;
    for (int axis = 0; axis < 3; ++axis) {
        ScalarGrid& comp = f.component(axis);
        const int di = axis == 0, dj = axis == 1, dk = axis == 2;
        parallelForSlabs(comp.nz(), [&](int k) {
            if (k < dk || k >= n.z) return;
            for (int j = dj; j < n.y; ++j) {
                float* face = &comp(0, j, k);
                double before = 0.0, after = 0.0;
                auto change = [&](int i) {
                    if (f.solid(i, j, k) || f.solid(i - di, j - dj, k - dk)) return 0.0f;
                    const size_t c = at(i, j, k), m = at(i - di, j - dj, k - dk);
                    if (cutoff > 0.0f && (f.density[c] >= cutoff || f.density[m] >= cutoff))
                        return 0.0f;
                    return dt * 0.5f * (push[m][axis] + push[c][axis]);
                };
                if (rotational)
                    for (int i = di; i < n.x; ++i) {
                        const float d = change(i);
                        if (d == 0.0f) continue;
                        const double u = face[i], v = double(face[i] + d);
                        before += u * u;
                        after += v * v;
                    }
                const float scale =
                    !rotational ? 1.0f : after > 0.0 ? float(std::sqrt(before / after)) : 0.0f;
                for (int i = di; i < n.x; ++i) {
                    const float d = change(i);
                    if (d == 0.0f) continue;
                    face[i] = rotational ? (face[i] + d) * scale : face[i] + d;
                }
            }
        });
    }
}

void addShredding(Fields& f, float rate, float dt, ScratchArena& arena) {
    if (rate == 0.0f) return;
    const Vec3i n = f.n;
    ScratchArena::Lease scratch(arena);
    Vec3f* change = scratch.take<Vec3f>(f.cellCount());  // m/s, at cell centres
    face_forces::shreddingChanges(
        f, rate, dt, {0, n.z}, [&](size_t c) { return std::clamp(f.density[c], 0.0f, 1.0f); },
        change);
    auto at = [&](int i, int j, int k) { return (size_t(k) * n.y + j) * n.x + i; };
    for (int axis = 0; axis < 3; ++axis)
        face_forces::addToInteriorFaces(f, axis,
                                        [&](int i, int j, int k, int im, int jm, int km) {
                                            return 0.5f * (change[at(im, jm, km)][axis] +
                                                           change[at(i, j, k)][axis]);
                                        });
}

std::uint64_t shapingScratchBytes(Vec3i n) {
    return ScratchArena::rounded(std::uint64_t(n.x) * n.y * n.z * sizeof(Vec3f));
}

}  // namespace plume
