#include "sim/guide.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/parallel.h"

namespace plume {

namespace {

// The guide's component `a` at domain point p (metres), or false outside its box.
bool guideAt(const GuideFrame& g, int a, Vec3f p, float& value) {
    if (g.empty()) {
        value = 0.0f;  // the start: still air
        return true;
    }
    const ScalarGrid& c = g.velocity[a];
    const Vec3f q = (p - g.origin) / g.dx;
    if (q.x < -1.0f || q.y < -1.0f || q.z < -1.0f || q.x > float(c.nx()) + 1.0f ||
        q.y > float(c.ny()) + 1.0f || q.z > float(c.nz()) + 1.0f)
        return false;
    value = c.sample(q);
    return true;
}

// Three box blurs along one axis of the grid (a Gaussian of sigma `cells`,
// as Wells' running sums make one), zero beyond the grid's ends; each row
// summed in order, so the same for any thread count.
void blurAxis(Grid3<float>& g, int axis, float cells) {
    const int n[3] = {g.nx(), g.ny(), g.nz()};
    const int len = n[axis];
    // Three boxes of width 2r + 1 have a variance of 3 ((2r + 1)^2 - 1) / 12.
    const int r = int(std::lround((std::sqrt(4.0f * cells * cells + 1.0f) - 1.0f) / 2.0f));
    if (r <= 0 || len < 2) return;
    const int b = (axis + 1) % 3, c = (axis + 2) % 3;
    const size_t stride[3] = {1, g.strideY(), g.strideZ()};
    const double inv = 1.0 / double(2 * r + 1);
    parallelForRange(n[b] * n[c], [&](int r0, int r1) {
        std::vector<float> in(size_t(len + 2 * r), 0.0f);
        std::vector<float> out(static_cast<size_t>(len));
        for (int row = r0; row < r1; ++row) {
            float* line = g.data() + size_t(row % n[b]) * stride[b] + size_t(row / n[b]) * stride[c];
            for (int i = 0; i < len; ++i) in[size_t(r + i)] = line[size_t(i) * stride[axis]];
            for (int pass = 0; pass < 3; ++pass) {
                double sum = 0.0;
                for (int q = 0; q <= 2 * r; ++q) sum += in[size_t(q)];
                for (int i = 0; i < len; ++i) {
                    out[size_t(i)] = float(sum * inv);
                    if (i + 1 < len) sum += double(in[size_t(i + 2 * r + 1)]) - double(in[size_t(i)]);
                }
                std::copy(out.begin(), out.end(), in.begin() + r);
            }
            for (int i = 0; i < len; ++i) line[size_t(i) * stride[axis]] = in[size_t(r + i)];
        }
    });
}

}  // namespace

void addGuide(Fields& f, const GuideSettings& settings, GuideFrames& guide, double at,
              double frames) {
    if (settings.weight <= 0.0f) return;
    const int before = std::max(0, int(std::floor(at)));
    const float t = float(at - double(before));
    const GuideFrame& a = guide.frame(before);
    const GuideFrame& b = guide.frame(before + 1);
    // The share of the low-frequency difference taken this substep: `weight`
    // of it a frame, compounded.
    const float take = float(1.0 - std::pow(1.0 - double(std::min(settings.weight, 1.0f)), frames));
    const float cells = settings.blur / f.dx;
    for (int axis = 0; axis < 3; ++axis) {
        ScalarGrid& u = f.component(axis);
        const Vec3f offset = u.offset();
        Grid3<float> diff(u.nx(), u.ny(), u.nz(), offset, 0.0f);
        parallelForRange(u.nz(), [&](int k0, int k1) {
            for (int k = k0; k < k1; ++k)
                for (int j = 0; j < u.ny(); ++j)
                    for (int i = 0; i < u.nx(); ++i) {
                        const Vec3f p = f.point(i, j, k, offset);
                        float ga = 0.0f, gb = 0.0f;
                        if (!guideAt(a, axis, p, ga) || !guideAt(b, axis, p, gb)) continue;
                        diff(i, j, k) = ga + t * (gb - ga) - u(i, j, k);
                    }
        });
        for (int d = 0; d < 3; ++d) blurAxis(diff, d, cells);
        parallelForRange(u.nz(), [&](int k0, int k1) {
            for (int k = k0; k < k1; ++k)
                for (int j = 0; j < u.ny(); ++j)
                    for (int i = 0; i < u.nx(); ++i) u(i, j, k) += take * diff(i, j, k);
        });
    }
}

}  // namespace plume
