#include "render/path/medium.h"

#include <algorithm>

#include "core/parallel.h"
#include "render/light/planck.h"
#include "render/march/cubic.h"

namespace plume {

void Medium::build(const VolumeView& volume, const ScalarGrid* smokeDensity,
                   const RenderSettings& settings, Vec3f albedo, MediumFilter filter,
                   const WorkingSpace& space) {
    density_ = volume.density;
    n_ = {density_->nx(), density_->ny(), density_->nz()};
    dx_ = volume.dx;
    sigmaPerVoxel_ = settings.extinction * volume.dx;
    filter_ = filter;
    albedo_ = albedo;
    space_ = &space;
    // A flame glows by render.emission; hot smoke where nothing burns by
    // render.heat_glow, as the march's (render/march/ray_marcher.h).
    const bool glows = volume.flame ? settings.emission > 0.0f : settings.heatGlow > 0.0f;
    temperature_ = glows ? volume.temperature : nullptr;
    flame_ = temperature_ ? volume.flame : nullptr;
    glows_ = temperature_ != nullptr;
    emission_ = settings.emission;
    fireTemperature_ = settings.fireTemperature;
    heatGlow_ = settings.heatGlow;
    const bool colored = volume.color[0] && volume.color[1] && volume.color[2];
    color_ = colored ? volume.color : std::array<const ScalarGrid*, 3>{};
    smokeDensity_ = smokeDensity ? smokeDensity : volume.density;
    colorPremultiplied_ = volume.colorPremultiplied;
    if (filter_ == MediumFilter::Sharp) {
        bsplineCoefficients(density_->data(), n_, densityCoefficients_);
        if (temperature_) bsplineCoefficients(temperature_->data(), n_, temperatureCoefficients_);
        if (flame_) bsplineCoefficients(flame_->data(), n_, flameCoefficients_);
    }
    apron_ = filter_ == MediumFilter::Linear ? 1 : 2;
    buildMajorants(apron_);
}

void Medium::buildMajorants(int apron) {
    constexpr int kBlock = 1 << kBlockShift;
    blocks_ = {(n_.x + kBlock - 1) >> kBlockShift, (n_.y + kBlock - 1) >> kBlockShift,
               (n_.z + kBlock - 1) >> kBlockShift};
    majorant_.assign(size_t(blocks_.x) * blocks_.y * blocks_.z, 0.0f);
    // The B-spline's weights are positive and sum to one, trilinear's too:
    // no lookup reads more than the largest value within its reach.
    const float* values =
        filter_ == MediumFilter::Sharp ? densityCoefficients_.data() : density_->data();
    parallelForRange(blocks_.z, [&](int bz0, int bz1) {
        for (int bz = bz0; bz < bz1; ++bz)
            for (int by = 0; by < blocks_.y; ++by)
                for (int bx = 0; bx < blocks_.x; ++bx) {
                    const Vec3i lo{std::max(0, (bx << kBlockShift) - apron),
                                   std::max(0, (by << kBlockShift) - apron),
                                   std::max(0, (bz << kBlockShift) - apron)};
                    const Vec3i hi{std::min(n_.x, ((bx + 1) << kBlockShift) + apron),
                                   std::min(n_.y, ((by + 1) << kBlockShift) + apron),
                                   std::min(n_.z, ((bz + 1) << kBlockShift) + apron)};
                    float m = 0.0f;
                    for (int k = lo.z; k < hi.z; ++k)
                        for (int j = lo.y; j < hi.y; ++j) {
                            const float* row = values + (size_t(k) * n_.y + j) * n_.x;
                            for (int i = lo.x; i < hi.x; ++i) m = std::max(m, row[i]);
                        }
                    majorant_[(size_t(bz) * blocks_.y + by) * blocks_.x + bx] =
                        m * sigmaPerVoxel_;
                }
    });
    empty_ = std::all_of(majorant_.begin(), majorant_.end(), [](float m) { return m <= 0.0f; });
}

float Medium::emissionBound(Vec3i lo, Vec3i hi) const {
    if (!glows_) return 0.0f;
    // The largest value a lookup in the cells can read, as buildMajorants
    // bounds the density: the filter's weights are positive and sum to one.
    const Vec3i readLo{std::max(0, lo.x - apron_), std::max(0, lo.y - apron_),
                       std::max(0, lo.z - apron_)};
    const Vec3i readHi{std::min(n_.x, hi.x + apron_), std::min(n_.y, hi.y + apron_),
                       std::min(n_.z, hi.z + apron_)};
    auto largest = [&](const ScalarGrid& grid, const std::vector<float>& coefficients) {
        const float* values = filter_ == MediumFilter::Sharp ? coefficients.data() : grid.data();
        float m = 0.0f;
        for (int k = readLo.z; k < readHi.z; ++k)
            for (int j = readLo.y; j < readHi.y; ++j) {
                const float* row = values + (size_t(k) * n_.y + j) * n_.x;
                for (int i = readLo.x; i < readHi.x; ++i) m = std::max(m, row[i]);
            }
        return m;
    };
    const float kelvin = largest(*temperature_, temperatureCoefficients_) * fireTemperature_;
    if (!(kelvin > 0.0f)) return 0.0f;
    // Planck's light grows with the temperature at every wavelength, and a
    // flame's as T^4: the hottest lookup bounds the light (within the few
    // per cent its colour's channel sum moves, which only weighs the draw).
    Vec3f light;
    if (!flame_) {
        light = blackbody(kelvin) *
                (heatGlow_ * largest(*density_, densityCoefficients_) * sigmaPerVoxel_);
    } else {
        const float flame = largest(*flame_, flameCoefficients_);
        if (!(flame > 0.0f)) return 0.0f;
        light = flameRadiance(kelvin) * (emission_ * flame * dx_);
    }
    return light.x + light.y + light.z;
}

float Medium::density(Vec3f p) const {
    switch (filter_) {
        case MediumFilter::Linear: return density_->sample(p);
        case MediumFilter::Cubic: return bsplineSample(density_->data(), n_, p);
        case MediumFilter::Sharp:
            return std::max(0.0f, bsplineSample(densityCoefficients_.data(), n_, p));
    }
    return 0.0f;
}

float Medium::sigma(Vec3f p) const {
    if (p.x < 0.0f || p.y < 0.0f || p.z < 0.0f || p.x > float(n_.x) || p.y > float(n_.y) ||
        p.z > float(n_.z))
        return 0.0f;
    return density(p) * sigmaPerVoxel_;
}

Vec3f Medium::emission(Vec3f p) const {
    if (!glows_) return Vec3f(0.0f);
    auto read = [&](const ScalarGrid& grid, const std::vector<float>& coefficients) {
        switch (filter_) {
            case MediumFilter::Linear: return grid.sample(p);
            case MediumFilter::Cubic: return bsplineSample(grid.data(), n_, p);
            case MediumFilter::Sharp: return bsplineSample(coefficients.data(), n_, p);
        }
        return 0.0f;
    };
    const float kelvin = read(*temperature_, temperatureCoefficients_) * fireTemperature_;
    // Hot smoke's glow without a flame is a source function: so much per
    // unit of extinction.
    if (!flame_) return blackbody(kelvin) * (heatGlow_ * sigma(p));
    const float flame = read(*flame_, flameCoefficients_);
    if (!(flame > 0.0f)) return Vec3f(0.0f);
    return flameRadiance(kelvin) * (emission_ * flame * dx_);
}

Vec3f Medium::albedo(Vec3f p) const {
    if (!color_[0]) return albedo_;
    // The colour of the smoke here: its premultiplied colour over its
    // density, both blended alike (a scattering event is where there is smoke).
    Vec3f c;
    if (colorPremultiplied_) {
        const float d = smokeDensity_->sample(p);
        for (int ch = 0; ch < 3; ++ch) c[ch] = shownColor(color_[ch]->sample(p), d);
    } else {
        for (int ch = 0; ch < 3; ++ch) c[ch] = std::clamp(color_[ch]->sample(p), 0.0f, 1.0f);
    }
    return space_->albedo(c);
}

}  // namespace plume
