// The smoke's colour as the renderer draws it (sim/smoke_color.h): each
// cell's light is times its own colour where the volume has one.
#include <algorithm>

#include "core/error.h"
#include "core/parallel.h"
#include "core/volume.h"
#include "render/renderer.h"

namespace plume {

namespace {

constexpr float kUnset = -1.0f;

// The sum over the 3x3x3 cells around (i, j, k) inside `box` of what `at`
// gives for each: a weight and a colour, added as weight times colour.
template <typename At>
bool neighbourMix(const Box3i& box, int i, int j, int k, const At& at, float out[3]) {
    float weight = 0.0f, sum[3] = {0.0f, 0.0f, 0.0f};
    for (int c = -1; c <= 1; ++c)
        for (int b = -1; b <= 1; ++b)
            for (int a = -1; a <= 1; ++a) {
                const int x = i + a, y = j + b, z = k + c;
                if (x < box.lo.x || y < box.lo.y || z < box.lo.z || x >= box.hi.x ||
                    y >= box.hi.y || z >= box.hi.z)
                    continue;
                float color[3];
                const float w = at(x, y, z, color);
                if (w <= 0.0f) continue;
                weight += w;
                for (int ch = 0; ch < 3; ++ch) sum[ch] += w * color[ch];
            }
    if (weight <= 0.0f) return false;
    for (int ch = 0; ch < 3; ++ch) out[ch] = sum[ch] / weight;
    return true;
}

}  // namespace

void Renderer::packColors(const VolumeView& volume) {
    colored_ = volume.color[0] && volume.color[1] && volume.color[2] && !lit_.empty();
    if (!colored_) return;
    const ScalarGrid& density = *smokeDensity_;
    const Vec3i n = shading_.n();
    for (const ScalarGrid* c : volume.color)
        if (c->nx() != n.x || c->ny() != n.y || c->nz() != n.z)
            throw RunError("renderer: colour and density grids differ in size");
    const size_t cells = size_t(n.x) * n.y * n.z;
    if (colors_.size() != 3 * cells) colors_.assign(3 * cells, 0.0f);
    if (colorScratch_.size() != 3 * cells) colorScratch_.assign(3 * cells, 0.0f);

    // The light a sample sees is blended from the cells around it, some of
    // which may hold no smoke: those take the colour of the smoke beside them
    // (its density-weighted mix), and cells farther out the mean of their
    // neighbours', out to three cells (the farthest the B-spline reads from
    // a sample with smoke), so the smoke's edge keeps its colour rather than
    // fading to black or taking on another. Farther cells, which no sample
    // with smoke reads, are black. Only the blocks fillSource fills (empty
    // space's other blocks are unset throughout).
    const Box3i box = lit_;
    auto forBox = [&](const auto& cell) {
        parallelForRange(box.hi.z - box.lo.z, [&](int z0, int z1) {
            for (int k = box.lo.z + z0; k < box.lo.z + z1; ++k)
                for (int j = box.lo.y; j < box.hi.y; ++j)
                    for (int i = box.lo.x; i < box.hi.x; ++i) {
                        const Vec3f p(float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f);
                        cell(i, j, k, !emptySpace_.empty(emptySpace_.blockAt(p)));
                    }
        });
    };
    // Each cell's own colour, where it holds smoke.
    const bool premultiplied = volume.colorPremultiplied;
    forBox([&](int i, int j, int k, bool filled) {
        const size_t c = density.index(i, j, k);
        float* out = &colorScratch_[3 * c];
        const float d = density[c];
        if (!filled || !(d > 0.0f)) {
            out[0] = kUnset;
            return;
        }
        for (int ch = 0; ch < 3; ++ch) {
            const float v = (*volume.color[ch])[c];
            out[ch] = premultiplied ? shownColor(v, d) : std::clamp(v, 0.0f, 1.0f);
        }
        // The smoke's colour is authored in Rec. 709: the march's is the working space's.
        if (!space_->rec709) {
            const Vec3f w = space_->albedo(Vec3f(out[0], out[1], out[2]));
            out[0] = w.x, out[1] = w.y, out[2] = w.z;
        }
    });
    // Three rings around the smoke, each from the last (scratch into colors_
    // and back): the first weighted by density, the others evenly.
    for (int ring = 0; ring < 3; ++ring) {
        const std::vector<float>& from = ring == 1 ? colors_ : colorScratch_;
        std::vector<float>& to = ring == 1 ? colorScratch_ : colors_;
        auto set = [&](int i, int j, int k, float color[3]) {
            const size_t c = density.index(i, j, k);
            const float* v = &from[3 * c];
            if (v[0] == kUnset) return 0.0f;
            std::copy(v, v + 3, color);
            return ring == 0 ? density[c] : 1.0f;
        };
        forBox([&](int i, int j, int k, bool filled) {
            float* out = &to[3 * density.index(i, j, k)];
            const float* own = &from[3 * density.index(i, j, k)];
            if (own[0] != kUnset || !filled) {
                std::copy(own, own + 3, out);
                return;
            }
            if (!neighbourMix(box, i, j, k, set, out)) out[0] = kUnset;
        });
    }
    forBox([&](int i, int j, int k, bool) {
        float* out = &colors_[3 * density.index(i, j, k)];
        if (out[0] == kUnset) out[0] = out[1] = out[2] = 0.0f;
    });
}

}  // namespace plume
