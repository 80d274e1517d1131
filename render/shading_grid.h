// ShadingGrid: what a camera ray reads at a sample, packed per cell so one
// trilinear lookup (8 nearby cache lines) serves density, sky occlusion and
// the transmittance toward every distant light.
//
// Channel 0 is density; the renderer decides what the other channels hold.
// Cells are cell-centred, x fastest, like ScalarGrid.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/vec.h"

namespace plume {

// An inclusive box of cell indices; empty when lo > hi on any axis.
struct CellBox {
    Vec3i lo{0, 0, 0}, hi{-1, -1, -1};
    bool empty() const { return lo.x > hi.x || lo.y > hi.y || lo.z > hi.z; }
};

// Trilinear weights for one position, shared by every channel of a cell.
// Clamps to the outermost samples exactly like Grid3::sample.
struct Trilinear {
    size_t base = 0;                // float index of corner (i, j, k), channel 0
    size_t sx = 0, sy = 0, sz = 0;  // float offsets to the +1 neighbours (0 at an edge)
    float fx = 0, fy = 0, fz = 0;

    float operator()(const float* channel) const {
        const float* p = channel + base;
        float c00 = p[0] + (p[sx] - p[0]) * fx;
        float c10 = p[sy] + (p[sy + sx] - p[sy]) * fx;
        float c01 = p[sz] + (p[sz + sx] - p[sz]) * fx;
        float c11 = p[sz + sy] + (p[sz + sy + sx] - p[sz + sy]) * fx;
        float c0 = c00 + (c10 - c00) * fy;
        float c1 = c01 + (c11 - c01) * fy;
        return c0 + (c1 - c0) * fz;
    }
};

class ShadingGrid {
  public:
    void resize(Vec3i n, int channels) {
        n_ = n;
        channels_ = channels;
        size_t count = size_t(n.x) * n.y * n.z * channels;
        if (data_.size() != count) data_.assign(count, 0.0f);
    }

    Vec3i n() const { return n_; }
    int channels() const { return channels_; }
    size_t cellIndex(int i, int j, int k) const { return (size_t(k) * n_.y + j) * n_.x + i; }
    float* cell(size_t cellIndex) { return data_.data() + cellIndex * channels_; }
    const float* cell(size_t cellIndex) const { return data_.data() + cellIndex * channels_; }
    float* data() { return data_.data(); }
    const float* data() const { return data_.data(); }

    // Weights at pGrid, a position in cell units from the min corner.
    Trilinear weights(Vec3f pGrid) const {
        Trilinear w;
        int i, j, k;
        axisWeights(pGrid.x, n_.x, i, w.fx);
        axisWeights(pGrid.y, n_.y, j, w.fy);
        axisWeights(pGrid.z, n_.z, k, w.fz);
        size_t c = size_t(channels_);
        w.base = cellIndex(i, j, k) * c;
        w.sx = i + 1 < n_.x ? c : 0;
        w.sy = j + 1 < n_.y ? c * n_.x : 0;
        w.sz = k + 1 < n_.z ? c * n_.x * n_.y : 0;
        return w;
    }

  private:
    static void axisWeights(float p, int n, int& i, float& f) {
        float x = std::clamp(p - 0.5f, 0.0f, float(n - 1));
        i = std::max(0, std::min(int(x), n - 2));
        f = x - float(i);
    }

    Vec3i n_;
    int channels_ = 1;
    std::vector<float> data_;
};

}  // namespace plume
