// Tricubic B-spline reconstruction of the ShadingGrid: smooth (C2) where
// trilinear creases at every voxel face, never negative and without the
// ringing of an interpolating cubic (Catmull-Rom), like Cycles' "Cubic"
// volume interpolation. It blurs a little: the B-spline approximates, a
// voxel's value spreads over the four cells around it on each axis.
//
// Direct 4x4x4 weights rather than Sigg and Hadwiger's eight trilinear
// lookups (GPU Gems 2, ch. 20): that trick pays where hardware filters a
// lookup for free; on a CPU the eight lookups read the same 64 values, add
// seven lerps each and cannot share the channels' loads. BM_CubicLookup
// (tests/bench/render_bench.cpp, 4 channels): 15 M points/s direct, 4.2 M
// through eight trilinear lookups.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "core/simd.h"
#include "core/vec.h"

namespace plume {

// The four B-spline weights for a fraction t in [0, 1) between taps 1 and 2.
[[gnu::always_inline]] inline void bsplineWeights(float t, float w[4]) {
    const float t2 = t * t, t3 = t2 * t, s = 1.0f - t;
    constexpr float kSixth = 1.0f / 6.0f;
    w[0] = kSixth * s * s * s;
    w[3] = kSixth * t3;
    w[1] = kSixth * (3.0f * t3 - 6.0f * t2 + 4.0f);
    w[2] = 1.0f - w[0] - w[1] - w[3];  // the weights sum to one exactly
}

// The 4x4x4 B-spline stencil around one position of a cell-centred grid with
// `channels` interleaved floats per cell; beyond the edge the outermost cells
// repeat (clamped taps), as trilinear clamps.
//
// Every channel is summed at once, four to a vector: a row of four cells
// holds all the channels a sample reads (density, sky, two lights in the
// default scene) in four loads, so the whole lookup costs what the density
// alone would one float at a time. Reads up to three floats past a cell's
// last channel (ShadingGrid pads its end).
struct Tricubic {
    static constexpr int kMaxChannels = 16;  // beyond: one channel at a time

    Tricubic(Vec3i n, int channels, Vec3f pGrid, const float* data) : data_(data) {
        const ptrdiff_t stride[3] = {channels, ptrdiff_t(channels) * n.x,
                                     ptrdiff_t(channels) * n.x * n.y};
        ptrdiff_t* offsets[3] = {ox_, oy_, oz_};
        float w[3][4];
        for (int a = 0; a < 3; ++a) {
            // Cell centres sit at i + 0.5; clamp like trilinear does.
            const float x = std::clamp(pGrid[a] - 0.5f, 0.0f, float(n[a] - 1));
            const float f = std::floor(x);
            const int i = int(f);
            bsplineWeights(x - f, w[a]);
            for (int tap = 0; tap < 4; ++tap)
                offsets[a][tap] = ptrdiff_t(std::clamp(i - 1 + tap, 0, n[a] - 1)) * stride[a];
        }
        for (int tap = 0; tap < 4; ++tap) wx_[tap] = w[0][tap];
        for (int k = 0; k < 4; ++k)
            for (int j = 0; j < 4; ++j) wyz_[k * 4 + j] = w[2][k] * w[1][j];
        summed_ = channels <= kMaxChannels;
        if (summed_)
            for (int c = 0; c < channels; c += 4) simd::store(value_ + c, sum4(data + c));
    }

    // The value of one channel (a pointer to it in the grid's first cell).
    float operator()(const float* channel) const {
        return summed_ ? value_[channel - data_] : sum(channel);
    }
    float density(const float* data) const { return (*this)(data); }

  private:
    // Four consecutive channels from `channel` on.
    simd::F4 sum4(const float* channel) const {
        simd::F4 total{};
        for (int k = 0; k < 4; ++k)
            for (int j = 0; j < 4; ++j) {
                const float* row = channel + oz_[k] + oy_[j];
                const simd::F4 x = simd::splat(wx_[0]) * simd::load(row + ox_[0]) +
                                   simd::splat(wx_[1]) * simd::load(row + ox_[1]) +
                                   simd::splat(wx_[2]) * simd::load(row + ox_[2]) +
                                   simd::splat(wx_[3]) * simd::load(row + ox_[3]);
                total += simd::splat(wyz_[k * 4 + j]) * x;
            }
        return total;
    }
    float sum(const float* channel) const {
        float total = 0.0f;
        for (int k = 0; k < 4; ++k)
            for (int j = 0; j < 4; ++j) {
                const float* row = channel + oz_[k] + oy_[j];
                const float x = wx_[0] * row[ox_[0]] + wx_[1] * row[ox_[1]] + wx_[2] * row[ox_[2]] +
                                wx_[3] * row[ox_[3]];
                total += wyz_[k * 4 + j] * x;
            }
        return total;
    }

    const float* data_;
    ptrdiff_t ox_[4], oy_[4], oz_[4];  // in floats, per tap and axis
    float wx_[4], wyz_[16];            // x weights; y times z weights, z major
    bool summed_;
    float value_[kMaxChannels + 3];  // every channel, when summed_
};

}  // namespace plume
