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

#include "core/interpolation.h"
#include "core/vec.h"
#include "render/march/cubic.h"

namespace plume {

// Trilinear weights for one position, shared by every channel of a cell
// (core/interpolation.h: clamps and blends exactly like Grid3::sample).
struct Trilinear {
    Stencil stencil;  // in floats, from channel 0 of the grid's first cell
    float operator()(const float* channel) const { return blend(channel, stencil); }
    float density(const float* data) const { return blend(data, stencil); }
    // A glowing field (temperature, flame): trilinear from its channel.
    float glow(const float*, const float* channel) const { return blend(channel, stencil); }
};

class ShadingGrid {
  public:
    void resize(Vec3i n, int channels) {
        n_ = n;
        channels_ = channels;
        size_t count = size_t(n.x) * n.y * n.z * channels;
        if (data_.size() != count) data_.assign(count, 0.0f);
        // Zeros when allocated, then what earlier frames left: a blend reads
        // only cells fillSource set this frame, with weights that may be 0
        // at some of them, and 0 times anything finite stays 0.
        if (source_.size() != size_t(n.x) * n.y * n.z * 4)
            source_.assign(size_t(n.x) * n.y * n.z * 4, 0.0f);
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
        return {SampleLayout(n_.x, n_.y, n_.z, channels_, Vec3f(0.5f)).stencil(pGrid)};
    }
    // The same weights from a GridPoint of this grid (bit for bit: the same
    // clamp and fraction, the cell one lower at the last centre).
    Trilinear weights(const GridPoint& g) const {
        Trilinear w;
        Stencil& s = w.stencil;
        const ptrdiff_t stride[3] = {channels_, ptrdiff_t(channels_) * n_.x,
                                     ptrdiff_t(channels_) * n_.x * n_.y};
        float* frac[3] = {&s.fx, &s.fy, &s.fz};
        ptrdiff_t* step[3] = {&s.dx, &s.dy, &s.dz};
        for (int a = 0; a < 3; ++a) {
            if (n_[a] <= 1) continue;
            const int i = std::min(g.cell[a], n_[a] - 2);
            *frac[a] = g.x[a] - float(i);
            *step[a] = stride[a];
            s.at += ptrdiff_t(i) * stride[a];
        }
        return w;
    }
    GridPoint gridPoint(Vec3f pGrid) const { return plume::gridPoint(pGrid, n_); }

    // The light each cell sends toward the camera (InScattering::fillSource):
    // four floats per cell (RGB, and a fire's light apart or 0), x fastest, apart from the
    // channels so the march reads it four-wide, one cache line per corner.
    // Sized with resize; only the cells of the frame's lit box are set.
    float* source(int i, int j, int k) { return source_.data() + cellIndex(i, j, k) * 4; }
    // The source at g, blended like weights(g) blends a channel (the same
    // clamp and fractions), four lanes at once.
    simd::F4 sourceAt(const GridPoint& g) const {
        const ptrdiff_t stride[3] = {4, ptrdiff_t(4) * n_.x, ptrdiff_t(4) * n_.x * n_.y};
        float f[3] = {0.0f, 0.0f, 0.0f};
        ptrdiff_t step[3] = {0, 0, 0}, at = 0;
        for (int a = 0; a < 3; ++a) {
            if (n_[a] <= 1) continue;
            const int i = std::min(g.cell[a], n_[a] - 2);
            f[a] = g.x[a] - float(i);
            step[a] = stride[a];
            at += ptrdiff_t(i) * stride[a];
        }
        const float* p = source_.data() + at;
        const simd::F4 v[8] = {simd::load(p),
                               simd::load(p + step[0]),
                               simd::load(p + step[1]),
                               simd::load(p + step[1] + step[0]),
                               simd::load(p + step[2]),
                               simd::load(p + step[2] + step[0]),
                               simd::load(p + step[2] + step[1]),
                               simd::load(p + step[2] + step[1] + step[0])};
        return trilinear(v, simd::splat(f[0]), simd::splat(f[1]), simd::splat(f[2]));
    }

    // The source at g through the B-spline (render/march/cubic.h), its fourth lane
    // (a fire's light, where fillSource put it apart) through Catmull-Rom,
    // from the 4x4x4 cells the density lookup at g reads. Blended like
    // sourceAt under a B-spline density, the light drew the voxel lattice as
    // creases on a coarse close-up. The fire's light peaks within a voxel or
    // two of its lamps, where the B-spline, which approximates, dimmed the
    // flame's cores on a coarse grid; Catmull-Rom goes through every cell's
    // value, smooth (C1) all the same. It reaches one cell further than
    // trilinear: the lit box and the filled blocks take lightApron.
    simd::F4 smoothSourceAt(const GridPoint& g) const {
        simd::F4 b[4], c[4];
        bsplineWeights(g.t, b);
        catmullRomWeights(g.t, c);
        return sourceSplineAt(g, b, c);
    }
    // The source at g with all four lanes through the B-spline: where the
    // fourth float of each cell is its density (packsDensity), the density
    // and the light from one read of the 4x4x4 cells.
    simd::F4 bsplineSourceAt(const GridPoint& g) const {
        simd::F4 b[4];
        bsplineWeights(g.t, b);
        return sourceSplineAt(g, b, b);
    }

    // A cubic frame without a fire's light apart keeps in the source's fourth
    // float what the B-spline reads for density (fillSource copies it), so a
    // sample reads density and light in one lookup (bsplineSourceAt): two
    // reads of the 4x4x4 cells would be most of the march.
    void setPacksDensity(bool packs) { packsDensity_ = packs; }
    bool packsDensity() const { return packsDensity_; }
    // What the B-spline reads for density at cell index c (its value, or its
    // coefficient in a sharp frame).
    float densityCoefficient(size_t c) const { return densityCoefficients_[c]; }

  private:
    // The B-spline's 4x4x4 sum over the source with weights b for lanes 0-2
    // and c for lane 3 (w[tap] per axis in lanes x, y, z).
    [[gnu::always_inline]] simd::F4 sourceSplineAt(const GridPoint& g, const simd::F4 b[4],
                                                   const simd::F4 c[4]) const {
        using simd::F4;
        F4 w[4][3];  // w[tap][axis]: lanes 0-2 b's weight, lane 3 c's
        for (int tap = 0; tap < 4; ++tap)
            for (int a = 0; a < 3; ++a) w[tap][a] = F4{b[tap][a], b[tap][a], b[tap][a], c[tap][a]};
        const int cell[3] = {g.cell[0], g.cell[1], g.cell[2]};
        if (cell[0] >= 1 && cell[0] + 2 < n_.x && cell[1] >= 1 && cell[1] + 2 < n_.y &&
            cell[2] >= 1 && cell[2] + 2 < n_.z) [[likely]] {
            // Inside: the taps need no clamp, and the 4x4 rows of four cells
            // sit at fixed strides (the same sums in the same order as at an
            // edge, so the same bits). Clamping each tap, and the loops the
            // compiler keeps for it, would be a third of the march (perf,
            // 128^3 bench frames at 720p).
            const ptrdiff_t sy = ptrdiff_t(4) * n_.x, sz = sy * n_.y;
            const float* p = source_.data() + (cell[2] - 1) * sz + (cell[1] - 1) * sy +
                             ptrdiff_t(cell[0] - 1) * 4;
            F4 sum{};
#pragma GCC unroll 4
            for (int k = 0; k < 4; ++k, p += sz) {
                F4 y{};
#pragma GCC unroll 4
                for (int j = 0; j < 4; ++j) {
                    const float* row = p + j * sy;
                    y += w[j][1] * (w[0][0] * simd::load(row) + w[1][0] * simd::load(row + 4) +
                                    w[2][0] * simd::load(row + 8) + w[3][0] * simd::load(row + 12));
                }
                sum += w[k][2] * y;
            }
            return sum;
        }
        ptrdiff_t ox[4], oy[4], oz[4];  // clamped taps, as bsplineSample's at an edge
        for (int tap = 0; tap < 4; ++tap) {
            ox[tap] = ptrdiff_t(std::clamp(g.cell[0] - 1 + tap, 0, n_.x - 1)) * 4;
            oy[tap] = ptrdiff_t(std::clamp(g.cell[1] - 1 + tap, 0, n_.y - 1)) * 4 * n_.x;
            oz[tap] = ptrdiff_t(std::clamp(g.cell[2] - 1 + tap, 0, n_.z - 1)) * 4 * n_.x * n_.y;
        }
        F4 sum{};
        for (int k = 0; k < 4; ++k) {
            F4 y{};
            for (int j = 0; j < 4; ++j) {
                const float* row = source_.data() + oz[k] + oy[j];
                y += w[j][1] *
                     (w[0][0] * simd::load(row + ox[0]) + w[1][0] * simd::load(row + ox[1]) +
                      w[2][0] * simd::load(row + ox[2]) + w[3][0] * simd::load(row + ox[3]));
            }
            sum += w[k][2] * y;
        }
        return sum;
    }

  public:
    // The frame's density (one float per cell, x fastest, like channel 0),
    // as the grid holds it; set for each frame.
    void setDensity(const float* density) { density_ = density; }
    const float* densityValues() const { return density_; }
    // What the B-spline of a cubic frame reads for the frame's density,
    // temperature and flame (one float per cell, or null): their values
    // (render.filter "cubic"), or their B-spline coefficients
    // (bsplineCoefficients; "sharp"), over which it passes through every
    // cell's value. Blackbody light climbs so steeply with temperature that a
    // trilinear crease at every voxel shows as a band.
    void setCoefficients(const float* density, const float* temperature, const float* flame) {
        densityCoefficients_ = density;
        temperatureCoefficients_ = temperature;
        flameCoefficients_ = flame;
    }
    const float* temperatureCoefficients() const { return temperatureCoefficients_; }
    const float* flameCoefficients() const { return flameCoefficients_; }
    // Density at pGrid through the B-spline, at least 0: beside a sharp edge
    // the spline over the coefficients rings below it (over non-negative
    // values it never does, and the clamp changes nothing).
    float cubicDensity(Vec3f pGrid) const { return cubicDensity(gridPoint(pGrid)); }
    float cubicDensity(const GridPoint& g) const {
        return std::max(0.0f, bsplineSample(densityCoefficients_, n_, g));
    }

  private:
    Vec3i n_;
    int channels_ = 1;
    std::vector<float> data_;
    const float* density_ = nullptr;
    const float* densityCoefficients_ = nullptr;
    const float* temperatureCoefficients_ = nullptr;
    const float* flameCoefficients_ = nullptr;
    bool packsDensity_ = false;
    std::vector<float> source_;
};

}  // namespace plume
