#include "sim/emitters.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/parallel.h"
#include "core/shape_sequence.h"
#include "scene/shapes.h"
#include "sim/emitter_cell.h"
#include "sim/point_emitters.h"

namespace plume {

namespace {

// Cell range [lo, hi) covering world box [a, b].
inline void cellRange(const Fields& f, Vec3f a, Vec3f b, Vec3i& lo, Vec3i& hi) {
    for (int axis = 0; axis < 3; ++axis) {
        int n = axis == 0 ? f.n.x : (axis == 1 ? f.n.y : f.n.z);
        float ga = (a[axis] - f.origin[axis]) / f.dx, gb = (b[axis] - f.origin[axis]) / f.dx;
        if (axis == 2) ga = f.gridZ(ga), gb = f.gridZ(gb);
        int l = std::clamp(int(std::floor(ga)) - 1, 0, n);
        int h = std::clamp(int(std::ceil(gb)) + 1, 0, n);
        (axis == 0 ? lo.x : axis == 1 ? lo.y : lo.z) = l;
        (axis == 0 ? hi.x : axis == 1 ? hi.y : hi.z) = h;
    }
}

}  // namespace

void applyEmitters(Fields& f, const std::vector<EmitterSettings>& emitters, int frame, double time,
                   const ShotSpan& shot) {
    for (const EmitterSettings& e : emitters) {
        if (frame < e.frames[0] || frame > e.frames[1]) continue;
        if (e.shape == Shape::Points) {
            applyPointEmitter(f, e, time, shot);
            continue;
        }
        const PlacedShape shape(e);
        Vec3f half = shape.halfExtent();
        Vec3f boxLo, boxHi;
        shape.worldBounds(boxLo, boxHi);
        // A surface shell reaches half its thickness outside the surface.
        const bool surface = e.mode == EmitMode::Surface;
        const float halfShell = 0.5f * e.thickness;
        if (surface) boxLo -= Vec3f(halfShell), boxHi += Vec3f(halfShell);
        Vec3i lo, hi;
        cellRange(f, boxLo, boxHi, lo, hi);
        // Noise features a third of the emitter's size unless given, drifting upward in time.
        const float noiseScale =
            e.noiseScale > 0.0f ? 1.0f / e.noiseScale
                                : 3.0f / std::max(1e-6f, 2.0f * std::max({half.x, half.y, half.z}));
        const float drift = float(std::fmod(time, 1000.0)) * e.noiseSpeed;
        // The ramp from outside to inside is a cell wide, but no wider than
        // half the shape's thinnest extent: a box a cell thick then still
        // reaches its values in a cell on a coarse grid (not two-thirds of
        // them, which left a campfire's bed below ignition at 32 cells), and
        // the smoke it holds in all is the same (a ramp no wider than the
        // shape keeps its integral). A shape under a cell thick keeps a ramp
        // of a cell less half its thickness, so it reaches beyond half a cell
        // from its middle and never slips between the cells' centres.
        const float thinnest = surface ? e.thickness : 2.0f * std::min({half.x, half.y, half.z});
        const float softness = std::min(std::max(0.5f * thinnest, f.dx - 0.5f * thinnest), f.dx);
        const bool colored = f.colored(), fuel = e.fuel > 0.0f && f.burns();

        // Cell coverage in [0, 1] from the signed distance at the cell centre;
        // a shell is the region within half its thickness of the surface.
        auto coverage = [&](Vec3f p) {
            float sd = shape.signedDistance(p);
            if (surface) sd = std::fabs(sd) - halfShell;
            return std::clamp(0.5f - sd / softness, 0.0f, 1.0f);
        };

        // Coverage times the noise at a cell centre.
        auto emitted = [&](Vec3f p) {
            const float w = coverage(p);
            if (w <= 0.0f || e.noise <= 0.0f) return std::max(w, 0.0f);
            Vec3f q = (p - e.center) * noiseScale;
            q.z -= drift;
            return w * std::max(0.0f, 1.0f + e.noise * valueNoise(q));
        };
        parallelForRange(hi.z - lo.z, [&](int k0, int k1) {
            for (int k = lo.z + k0; k < lo.z + k1; ++k)
                for (int j = lo.y; j < hi.y; ++j)
                    for (int i = lo.x; i < hi.x; ++i) {
                        if (f.solid(i, j, k)) continue;
                        float amount = emitted(f.cellCentre(i, j, k));
                        // What the solid cells right below would give comes out
                        // here, on the solid's top: a bed of fuel over logs that
                        // fill its cells on a coarse grid still burns, as the gas
                        // leaves the wood's surface (each cell writes itself only).
                        // Four cells down at most: within a split bake's halo.
                        for (int kb = k - 1; kb >= std::max(lo.z, k - 4) && f.solid(i, j, kb); --kb)
                            amount = std::max(amount, emitted(f.cellCentre(i, j, kb)));
                        if (amount <= 0.0f) continue;
                        raiseToEmitter(f, i, j, k, amount, e, colored, fuel);
                    }
        });

        // Upres's fine scalars hold no velocity: the base grid's emitters set it.
        // A mesh sequence's smoke also takes its surface's own motion there.
        const SurfaceVelocity* own = e.inheritVelocity != 0.0f ? e.surfaceVelocity.get() : nullptr;
        if ((e.velocity == Vec3f(0.0f) && !own) || f.u.size() == 0) continue;
        auto ownVelocity = [&](Vec3f p) {
            const Transform& t = shape.transform();
            return t.vectorToWorld(own->sample(t.toLocal(p)));
        };
        for (int axis = 0; axis < 3; ++axis) {
            ScalarGrid& c = f.component(axis);
            Vec3f off = c.offset();
            int kEnd = std::min(hi.z + (axis == 2), c.nz());
            parallelForRange(kEnd - lo.z, [&](int k0, int k1) {
                for (int k = lo.z + k0; k < lo.z + k1; ++k)
                    for (int j = lo.y; j < std::min(hi.y + (axis == 1), c.ny()); ++j)
                        for (int i = lo.x; i < std::min(hi.x + (axis == 0), c.nx()); ++i) {
                            Vec3f p = f.point(i, j, k, off);
                            float w = coverage(p);
                            if (w <= 0.0f) continue;
                            float target = e.velocity[axis];
                            if (own) target += e.inheritVelocity * ownVelocity(p)[axis];
                            c(i, j, k) += (target - c(i, j, k)) * w;
                        }
            });
        }
    }
}

}  // namespace plume
