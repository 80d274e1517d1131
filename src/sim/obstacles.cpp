#include "sim/obstacles.h"

#include <algorithm>
#include <cmath>

#include "core/parallel.h"
#include "core/shape_sequence.h"
#include "core/transform.h"
#include "scene/shapes.h"

namespace plume {

void rasterizeObstacles(Fields& f, const std::vector<ObstacleSettings>& obstacles) {
    f.solid.fill(0);
    std::vector<PlacedShape> placed(obstacles.begin(), obstacles.end());
    parallelForSlabs(f.n.z, [&](int k) {
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                Vec3f p = f.cellCentre(i, j, k);
                for (const PlacedShape& o : placed)
                    if (o.signedDistance(p) < 0.0f) f.solid(i, j, k) = 1;
            }
    });
}

float rasterizeMovingObstacles(Fields& f, const std::vector<ObstacleSettings>& now,
                               const std::vector<ObstacleSettings>& before,
                               const std::vector<ObstacleSettings>& after, float seconds) {
    // Which obstacle covers each cell (0: none), so a face takes the motion
    // of the solid it touches.
    const std::vector<PlacedShape> placed(now.begin(), now.end());
    f.solid.fill(0);
    parallelForSlabs(f.n.z, [&](int k) {
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                const Vec3f p = f.cellCentre(i, j, k);
                for (size_t o = 0; o < placed.size(); ++o)
                    if (placed[o].signedDistance(p) < 0.0f) {
                        f.solid(i, j, k) = uint8_t(std::min<size_t>(o + 1, 255));
                        break;
                    }
            }
    });
    std::vector<Transform> at, from, to;
    for (size_t o = 0; o < now.size(); ++o) {
        at.emplace_back(now[o].center, now[o].rotation, now[o].scale);
        from.emplace_back(before[o].center, before[o].rotation, before[o].scale);
        to.emplace_back(after[o].center, after[o].rotation, after[o].scale);
    }
    if (!f.solidsMove()) f.solidVelocity = MacVelocity(f.n);
    float fastest = 0.0f;
    for (int axis = 0; axis < 3; ++axis) {
        ScalarGrid& faces = f.solidVelocity.component(axis);
        const Vec3f off = faces.offset();
        auto slabFastest = [&](int k) {
            float m = 0.0f;
            for (int j = 0; j < faces.ny(); ++j)
                for (int i = 0; i < faces.nx(); ++i) {
                    // The solid cell on either side of the face, if any.
                    const int im = i - (axis == 0), jm = j - (axis == 1), km = k - (axis == 2);
                    int owner = 0;
                    if (i < f.n.x && j < f.n.y && k < f.n.z) owner = f.solid(i, j, k);
                    if (!owner && im >= 0 && jm >= 0 && km >= 0) owner = f.solid(im, jm, km);
                    if (!owner) {
                        faces(i, j, k) = 0.0f;
                        continue;
                    }
                    const Vec3f p = f.point(i, j, k, off);
                    // A central difference of the point of the solid that
                    // is at p now: a chord from `before` to `after` would
                    // cut the arc of a turning solid short (by 13% at the
                    // tip of a paddle turning 7.5 degrees a substep).
                    const size_t o = size_t(owner - 1);
                    const Vec3f local = at[o].toLocal(p);
                    Vec3f v = (to[o].toWorld(local) - from[o].toWorld(local)) / seconds;
                    // A mesh sequence's surface moves by itself too.
                    if (const SurfaceVelocity* own = now[o].surfaceVelocity.get())
                        v += at[o].vectorToWorld(own->sample(local));
                    faces(i, j, k) = v[axis];
                    m = std::max(m, std::fabs(v[axis]));
                }
            return m;
        };
        fastest =
            std::max(fastest, deterministicReduce(faces.nz(), 0.0f, slabFastest, maxOf<float>));
    }
    return fastest;
}

void clearSolidScalars(Fields& f, float ambientTemperature) {
    parallelForSlabs(f.n.z, [&](int k) {
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i)
                if (f.solid(i, j, k)) {
                    f.density(i, j, k) = 0.0f;
                    f.temperature(i, j, k) = ambientTemperature;
                    if (f.burns()) f.fuel(i, j, k) = f.flame(i, j, k) = 0.0f;
                    if (f.colored())
                        for (ScalarGrid& c : f.color) c(i, j, k) = 0.0f;
                }
    });
}

}  // namespace plume
