// Upres::feed (sim/upres/upres.h): the fine smoke's mass held to a cache's,
// for a cache whose scene plume does not have.
#include <algorithm>
#include <cmath>

#include "core/parallel.h"
#include "sim/upres/upres.h"
#include "sim/upres/upres_grids.h"

namespace plume {

namespace {

// Below this a fine value is nothing, as the solver's dissipation floors it:
// the smooth corrections would otherwise leave faint values over the whole
// box, and the advection skips only what is exactly its background.
constexpr float kNegligible = 1e-6f;

// How far (base cells) the fine smoke may differ from a cache it is fed
// from, without a scene: its mass follows the cache's over boxes this many
// cells each way, so eddies smaller than that (the detail) are its own.
constexpr int kFeedReach = 4;

// A box filter `reach` cells each way along x, y and z in turn (clamped at
// the grid's ends): each cell the mean of its window along the line, summed
// in a fixed order (the same bits for any thread count).
void boxBlur(ScalarGrid& g, int reach, ScalarGrid& scratch) {
    const int size[3] = {g.nx(), g.ny(), g.nz()};
    const ptrdiff_t step[3] = {1, ptrdiff_t(g.nx()), ptrdiff_t(g.nx()) * g.ny()};
    for (int axis = 0; axis < 3; ++axis) {
        scratch.reshape(g.nx(), g.ny(), g.nz(), Vec3f(0.5f));
        const int a1 = axis == 0 ? 1 : 0, a2 = axis == 2 ? 1 : 2;
        const int len = size[axis];
        parallelForSlabs(size[a2], [&](int q) {
            for (int p = 0; p < size[a1]; ++p) {
                const ptrdiff_t start = ptrdiff_t(p) * step[a1] + ptrdiff_t(q) * step[a2];
                const float* in = g.data() + start;
                float* out = scratch.data() + start;
                for (int x = 0; x < len; ++x) {
                    const int lo = std::max(0, x - reach), hi = std::min(len - 1, x + reach);
                    float sum = 0.0f;
                    for (int y = lo; y <= hi; ++y) sum += in[ptrdiff_t(y) * step[axis]];
                    out[ptrdiff_t(x) * step[axis]] = sum / float(hi - lo + 1);
                }
            }
        });
        g.swap(scratch);
    }
}

}  // namespace

void Upres::feed(const UpresInput& in) {
    const int f = factor_;
    const Vec3i n = box_.size();
    const float inv = 1.0f / float(f), cell = inv * inv * inv;
    ScalarGrid base, coarse, support, scratch;
    auto one = [&](const ScalarGrid& from, ScalarGrid& fine, float background) {
        if (from.size() == 0 || fine.size() == 0) return;
        // The base over the fine box and the fine cells' mean in each base
        // cell, both less the background and smoothed beyond the mid band.
        upres::copyOver(from, in.box, base, box_, background);
        coarse.reshape(n.x, n.y, n.z, Vec3f(0.5f));
        parallelForSlabs(n.z, [&](int k) {
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    float sum = 0.0f;
                    for (int c = 0; c < f; ++c)
                        for (int b = 0; b < f; ++b)
                            for (int a = 0; a < f; ++a)
                                sum += fine(i * f + a, j * f + b, k * f + c) - background;
                    coarse(i, j, k) = sum * cell;
                    base(i, j, k) -= background;
                }
        });
        support = base;  // where the cache has any, before the smoothing spreads it
        boxBlur(base, kFeedReach, scratch);
        boxBlur(coarse, kFeedReach, scratch);
        // base becomes what to add (where the fine grid lacks smoke), coarse
        // the factor to keep (where it holds too much): the fine smoke's mass
        // follows the cache's at the scale of the smoothing, and what is
        // finer (the detail) is its own.
        parallelForSlabs(n.z, [&](int k) {
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const float want = base(i, j, k), have = coarse(i, j, k);
                    base(i, j, k) = want > have ? want - have : 0.0f;
                    coarse(i, j, k) = have > want && have > 0.0f ? std::max(want, 0.0f) / have
                                                                 : 1.0f;
                }
        });
        const Vec3i nf = fine_.n;
        parallelForSlabs(nf.z, [&](int k) {
            for (int j = 0; j < nf.y; ++j)
                for (int i = 0; i < nf.x; ++i) {
                    // The fine cell's centre in base cells of the box.
                    const Vec3f at{(float(i) + 0.5f) * inv, (float(j) + 0.5f) * inv,
                                   (float(k) + 0.5f) * inv};
                    // Smoke is put in only where the cache has some, so
                    // none shows beyond the cache's own.
                    const float keep = coarse.sample(at);
                    const float add = support.sample(at) > kNegligible ? base.sample(at) : 0.0f;
                    float& v = fine(i, j, k);
                    if (keep == 1.0f && add <= kNegligible) continue;
                    const float out = background + (v - background) * keep + add;
                    v = std::fabs(out - background) > kNegligible ? out : background;
                }
        });
    };
    one(in.density, fine_.density, 0.0f);
    one(in.temperature, fine_.temperature, ambient_);
    if (in.burns() && fine_.burns()) {
        one(in.fuel, fine_.fuel, 0.0f);
        one(in.flame, fine_.flame, 0.0f);
    }
    if (in.colored() && fine_.colored())
        for (int c = 0; c < 3; ++c) one(in.color[c], fine_.color[c], 0.0f);
}

}  // namespace plume
