// The smoke as the path tracer (render/path/path_tracer.h) and the light
// cache see it: extinction, emission and colour at any point, read as the
// march reads them (the B-spline over the values for render.filter "cubic",
// over their coefficients for "sharp", trilinear for "linear"), and a
// majorant per 4^3 block of cells for null-scattering tracking.
//
// Positions and lengths are in grid units (voxels from the grid's min
// corner), as the march's; the extinction is per voxel of path.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "core/grid3.h"
#include "core/vec.h"
#include "core/volume.h"
#include "render/march/ray.h"
#include "render/output/color_space.h"
#include "scene/scene.h"

namespace plume {

// How the medium reads its grids between cells.
enum class MediumFilter { Linear, Cubic, Sharp };

class Medium {
  public:
    // `volume` as the rays see it (the flame's own density added) and
    // `smokeDensity` the smoke's alone, which its colour grids are
    // premultiplied by; `albedo` the smoke's scattering colour in `space`,
    // which its own colour (volume.color, authored in Rec. 709) is taken to.
    void build(const VolumeView& volume, const ScalarGrid* smokeDensity,
               const RenderSettings& settings, Vec3f albedo, MediumFilter filter,
               const WorkingSpace& space);

    Vec3i n() const { return n_; }
    float dx() const { return dx_; }
    bool empty() const { return empty_; }
    bool glows() const { return glows_; }

    // Extinction per voxel of path at pGrid; 0 outside the grid.
    float sigma(Vec3f pGrid) const;
    // The light a voxel of path emits at pGrid (a flame's, before the smoke
    // in front absorbs it).
    Vec3f emission(Vec3f pGrid) const;
    // The single-scattering albedo at pGrid (the smoke's colour where it has one).
    Vec3f albedo(Vec3f pGrid) const;

    // Null-scattering tracking along the ray over [t0, t1] (clipped to the
    // grid): exponential steps against each block's majorant, calling
    // visit(t, majorant) at every tentative collision until it returns
    // false. Returns whether visit stopped it.
    template <typename Random, typename Visit>
    bool track(const Ray& ray, float t0, float t1, Random& random, Visit&& visit) const;

    // Whether any smoke lies within `radius` cells of pGrid (by the blocks'
    // majorants).
    bool near(Vec3f pGrid, float radius) const {
        if (empty_) return false;
        Vec3i lo, hi;
        for (int a = 0; a < 3; ++a) {
            lo[a] = std::clamp(int(std::floor(pGrid[a] - radius)) >> kBlockShift, 0, blocks_[a] - 1);
            hi[a] = std::clamp(int(std::floor(pGrid[a] + radius)) >> kBlockShift, 0, blocks_[a] - 1);
        }
        for (int z = lo.z; z <= hi.z; ++z)
            for (int y = lo.y; y <= hi.y; ++y)
                for (int x = lo.x; x <= hi.x; ++x)
                    if (majorant({x, y, z}) > 0.0f) return true;
        return false;
    }

    static constexpr int kBlockShift = 2;
    // The blocks of 4^3 cells the majorants are kept over (the last ones
    // cut by the grid's edge).
    Vec3i blocks() const { return blocks_; }
    // A bound on the sum of emission()'s channels at any point of the cells
    // [lo, hi) (by the values within the filter's reach): positive wherever
    // they emit. What the path tracer draws the flame's points by
    // (render/path/emitters.h).
    float emissionBound(Vec3i lo, Vec3i hi) const;

  private:
    float density(Vec3f pGrid) const;
    float majorant(Vec3i block) const {
        return majorant_[(size_t(block.z) * blocks_.y + block.y) * blocks_.x + block.x];
    }
    void buildMajorants(int apron);

    Vec3i n_{0, 0, 0}, blocks_{0, 0, 0};
    float dx_ = 1.0f;
    float sigmaPerVoxel_ = 0.0f;
    bool empty_ = true, glows_ = false;
    int apron_ = 1;  // cells beyond a block a lookup in it reads
    MediumFilter filter_ = MediumFilter::Linear;
    const ScalarGrid* density_ = nullptr;
    const ScalarGrid* temperature_ = nullptr;
    const ScalarGrid* flame_ = nullptr;
    std::array<const ScalarGrid*, 3> color_{};
    const ScalarGrid* smokeDensity_ = nullptr;
    bool colorPremultiplied_ = true;
    const WorkingSpace* space_ = nullptr;
    Vec3f albedo_{0.9f};
    float emission_ = 0.0f, fireTemperature_ = 0.0f, heatGlow_ = 0.0f;
    // "sharp": the B-spline coefficients of density, temperature and flame.
    std::vector<float> densityCoefficients_, temperatureCoefficients_, flameCoefficients_;
    std::vector<float> majorant_;  // largest extinction a lookup in the block can read
};

template <typename Random, typename Visit>
bool Medium::track(const Ray& ray, float t0, float t1, Random& random, Visit&& visit) const {
    float lo, hi;
    if (empty_ || !clipRay(ray, Vec3f(0.0f), Vec3f(float(n_.x), float(n_.y), float(n_.z)), lo, hi))
        return false;
    t0 = std::max(t0, lo);
    t1 = std::min(t1, hi);
    if (!(t0 < t1)) return false;

    // A 3D DDA over the blocks (Amanatides and Woo), from the block holding
    // the entry point.
    constexpr float kBlock = float(1 << kBlockShift);
    const Vec3f entry = ray.at(t0);
    Vec3i block, step;
    Vec3f tNext, tDelta;
    for (int a = 0; a < 3; ++a) {
        block[a] = std::clamp(int(entry[a]) >> kBlockShift, 0, blocks_[a] - 1);
        if (ray.d[a] > 0.0f) {
            step[a] = 1;
            tNext[a] = (float(block[a] + 1) * kBlock - ray.o[a]) * ray.invD[a];
            tDelta[a] = kBlock * ray.invD[a];
        } else if (ray.d[a] < 0.0f) {
            step[a] = -1;
            tNext[a] = (float(block[a]) * kBlock - ray.o[a]) * ray.invD[a];
            tDelta[a] = -kBlock * ray.invD[a];
        } else {
            step[a] = 0;
            tNext[a] = tDelta[a] = INFINITY;
        }
    }
    float t = t0;
    for (;;) {
        const int axis = tNext.x < tNext.y ? (tNext.x < tNext.z ? 0 : 2) : (tNext.y < tNext.z ? 1 : 2);
        const float blockEnd = std::min(tNext[axis], t1);
        const float m = majorant(block);
        if (m > 0.0f) {
            // Exponential steps are memoryless: past the block's end the
            // next block starts afresh from its entry.
            for (;;) {
                t += random.exponential() / m;
                if (t >= blockEnd) break;
                if (!visit(t, m)) return true;
            }
        }
        t = blockEnd;
        if (blockEnd >= t1) return false;
        block[axis] += step[axis];
        if (block[axis] < 0 || block[axis] >= blocks_[axis]) return false;
        tNext[axis] += tDelta[axis];
    }
}

}  // namespace plume
