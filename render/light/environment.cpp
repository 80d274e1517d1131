#include "render/light/environment.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "render/path/scattering.h"

namespace plume {

namespace {

constexpr float kMapPi = std::numbers::pi_v<float>;

float mapLuminance(Vec3f c) { return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z; }

// The first index whose cumulative value exceeds `target`, in [0, n).
int cdfInterval(const float* cdf, int n, float target) {
    const float* it = std::upper_bound(cdf, cdf + n, target);
    return std::clamp(int(it - cdf), 0, n - 1);
}

// The index of a direction's cube face: +X, -X, +Y, -Y, +Z, -Z.
int cubeFace(Vec3f d) {
    const float ax = std::fabs(d.x), ay = std::fabs(d.y), az = std::fabs(d.z);
    if (ax >= ay && ax >= az) return d.x >= 0.0f ? 0 : 1;
    if (ay >= az) return d.y >= 0.0f ? 2 : 3;
    return d.z >= 0.0f ? 4 : 5;
}

}  // namespace

Environment::Environment(Vec3f radiance) : constant_(radiance), mean_(radiance) {
    for (Vec3f& f : faceMean_) f = radiance;
}

Vec3f Environment::meanAround(Vec3f axis) const { return faceMean_[cubeFace(axis)]; }



std::vector<SkyLight> Environment::skyLights(std::span<const Vec3f> centres) const {
    const size_t count = centres.size();
    std::vector<Vec3f> light(count, Vec3f(0.0f)), mean(count, Vec3f(0.0f));
    auto nearest = [&](Vec3f d) {
        size_t best = 0;
        for (size_t c = 1; c < count; ++c)
            if (dot(d, centres[c]) > dot(d, centres[best])) best = c;
        return best;
    };
    if (constant()) {
        for (size_t c = 0; c < count; ++c) {
            light[c] = constant_ * (4.0f * kMapPi / float(count));
            mean[c] = centres[c];
        }
    } else {
        const int w = map_.width, h = map_.height;
        const float texelSolid = (2.0f * kMapPi / float(w)) * (kMapPi / float(h));
        for (int y = 0; y < h; ++y) {
            const float v = (float(y) + 0.5f) / float(h);
            const float solid = texelSolid * std::cos((0.5f - v) * kMapPi);
            for (int x = 0; x < w; ++x) {
                const Vec3f d = fromMap((float(x) + 0.5f) / float(w), v);
                const Vec3f l = texel(x, y) * solid;
                const size_t c = nearest(d);
                light[c] += l;
                mean[c] += d * mapLuminance(l);
            }
        }
    }
    float total = 0.0f;
    for (const Vec3f& l : light) total += mapLuminance(l);
    std::vector<SkyLight> lights(count);
    for (size_t c = 0; c < count; ++c) {
        const float m = length(mean[c]);
        lights[c] = {.direction = -(m > 0.0f ? mean[c] / m : centres[c]),
                     .light = light[c],
                     .share = total > 0.0f ? mapLuminance(light[c]) / total : 1.0f / float(count)};
    }
    return lights;
}

Environment::Environment(const EnvironmentSettings& settings, const WorkingSpace& space) {
    map_ = *settings.map;
    const float scale = settings.intensity;
    for (size_t i = 0; i < map_.rgb.size(); i += 3) {
        const Vec3f c = space.in(Vec3f(map_.rgb[i], map_.rgb[i + 1], map_.rgb[i + 2])) * scale;
        map_.rgb[i] = c.x, map_.rgb[i + 1] = c.y, map_.rgb[i + 2] = c.z;
    }
    const float radians = settings.rotation * kMapPi / 180.0f;
    cosRot_ = std::cos(radians);
    sinRot_ = std::sin(radians);
    buildDistribution();
}

void Environment::toMap(Vec3f d, float& u, float& v) const {
    // The Mapping node's rotation turns the lookup vector before the texture.
    const float x = cosRot_ * d.x - sinRot_ * d.y, y = sinRot_ * d.x + cosRot_ * d.y;
    u = 0.5f - std::atan2(y, x) / (2.0f * kMapPi);
    const float z = std::clamp(d.z, -1.0f, 1.0f);
    v = 0.5f - std::asin(z) / kMapPi;  // 0 at the top row
}

Vec3f Environment::fromMap(float u, float v) const {
    const float phi = (0.5f - u) * 2.0f * kMapPi, elevation = (0.5f - v) * kMapPi;
    const float c = std::cos(elevation);
    const float x = c * std::cos(phi), y = c * std::sin(phi);
    // The lookup vector back to the world: the inverse rotation.
    return {cosRot_ * x + sinRot_ * y, -sinRot_ * x + cosRot_ * y, std::sin(elevation)};
}

Vec3f Environment::radiance(Vec3f d) const {
    if (constant()) return constant_;
    float u, v;
    toMap(d, u, v);
    // Bilinear between texel centres, wrapping across, clamped at the poles
    // (Cycles' Linear).
    const float fx = u * float(map_.width) - 0.5f, fy = v * float(map_.height) - 0.5f;
    const float x0f = std::floor(fx), y0f = std::floor(fy);
    const float tx = fx - x0f, ty = fy - y0f;
    const int w = map_.width, h = map_.height;
    const int x0 = ((int(x0f) % w) + w) % w, x1 = (x0 + 1) % w;
    const int y0 = std::clamp(int(y0f), 0, h - 1), y1 = std::clamp(int(y0f) + 1, 0, h - 1);
    return (texel(x0, y0) * (1.0f - tx) + texel(x1, y0) * tx) * (1.0f - ty) +
           (texel(x0, y1) * (1.0f - tx) + texel(x1, y1) * tx) * ty;
}

void Environment::buildDistribution() {
    const int w = map_.width, h = map_.height;
    // A texel's weight: the brightest of it and its neighbours (a bilinear
    // lookup reads them), times its solid angle's share (cos of its
    // elevation); a little of the mean everywhere so no lit direction has
    // density 0.
    std::vector<float> lum(size_t(w) * h);
    double total = 0.0;
    Vec3f sum(0.0f);
    double solid = 0.0;
    for (int y = 0; y < h; ++y) {
        const float c = std::cos((0.5f - (float(y) + 0.5f) / float(h)) * kMapPi);
        for (int x = 0; x < w; ++x) {
            lum[size_t(y) * w + x] = mapLuminance(texel(x, y));
            sum += texel(x, y) * c;
            solid += c;
        }
    }
    mean_ = solid > 0.0 ? sum * float(1.0 / solid) : Vec3f(0.0f);
    // Each cube face's mean, from sub-texel samples (a face's edge cuts texels).
    Vec3f faceSum[6] = {};
    double faceSolid[6] = {};
    constexpr int kSub = 4;
    for (int y = 0; y < h; ++y)
        for (int sy = 0; sy < kSub; ++sy) {
            const float v = (float(y) + (float(sy) + 0.5f) / kSub) / float(h);
            const float c = std::cos((0.5f - v) * kMapPi);
            for (int x = 0; x < w; ++x)
                for (int sx = 0; sx < kSub; ++sx) {
                    const float u = (float(x) + (float(sx) + 0.5f) / kSub) / float(w);
                    const int face = cubeFace(fromMap(u, v));
                    faceSum[face] += texel(x, y) * c;
                    faceSolid[face] += c;
                }
        }
    for (int f = 0; f < 6; ++f)
        faceMean_[f] = faceSolid[f] > 0.0 ? faceSum[f] * float(1.0 / faceSolid[f]) : mean_;
    texelCdf_.assign(size_t(w) * h, 0.0f);
    rowCdf_.assign(size_t(h), 0.0f);
    std::vector<float> weight(size_t(w) * h);
    for (int y = 0; y < h; ++y) {
        const float c = std::max(0.0f, std::cos((0.5f - (float(y) + 0.5f) / float(h)) * kMapPi));
        for (int x = 0; x < w; ++x) {
            float m = 0.0f;
            for (int b = -1; b <= 1; ++b)
                for (int a = -1; a <= 1; ++a) {
                    const int xx = ((x + a) % w + w) % w, yy = std::clamp(y + b, 0, h - 1);
                    m = std::max(m, lum[size_t(yy) * w + xx]);
                }
            weight[size_t(y) * w + x] = m * c;
            total += m * c;
        }
    }
    const float floor = float(total / (double(w) * h)) * 0.01f + 1e-12f;
    double running = 0.0;
    for (int y = 0; y < h; ++y) {
        double row = 0.0;
        const float c = std::max(0.0f, std::cos((0.5f - (float(y) + 0.5f) / float(h)) * kMapPi));
        for (int x = 0; x < w; ++x) {
            row += weight[size_t(y) * w + x] + floor * c;
            texelCdf_[size_t(y) * w + x] = float(row);
        }
        // Normalised within the row.
        for (int x = 0; x < w; ++x)
            texelCdf_[size_t(y) * w + x] = row > 0.0 ? float(texelCdf_[size_t(y) * w + x] / row)
                                                     : float(x + 1) / float(w);
        running += row;
        rowCdf_[y] = float(running);
    }
    weightSum_ = float(running);
    for (float& r : rowCdf_) r = weightSum_ > 0.0f ? r / weightSum_ : 1.0f;
}

Vec3f Environment::sample(float u1, float u2, float& pdf) const {
    if (constant()) {
        pdf = 1.0f / (4.0f * kMapPi);
        return sampleSphere(u1, u2);
    }
    const int w = map_.width, h = map_.height;
    const int y = cdfInterval(rowCdf_.data(), h, u1);
    const float rowLo = y > 0 ? rowCdf_[y - 1] : 0.0f, rowHi = rowCdf_[y];
    const float fy = rowHi > rowLo ? (u1 - rowLo) / (rowHi - rowLo) : 0.5f;
    const float* cdf = &texelCdf_[size_t(y) * w];
    const int x = cdfInterval(cdf, w, u2);
    const float lo = x > 0 ? cdf[x - 1] : 0.0f, hi = cdf[x];
    const float fx = hi > lo ? (u2 - lo) / (hi - lo) : 0.5f;
    // Strictly inside the texel: a sample on the pole's row edge would have no density.
    const float u = (float(x) + std::clamp(fx, 1e-4f, 0.9999f)) / float(w);
    const float v = (float(y) + std::clamp(fy, 1e-4f, 0.9999f)) / float(h);
    const Vec3f d = fromMap(u, v);
    pdf = this->pdf(d);
    return d;
}

float Environment::pdf(Vec3f d) const {
    if (constant()) return 1.0f / (4.0f * kMapPi);
    float u, v;
    toMap(d, u, v);
    const int w = map_.width, h = map_.height;
    const int x = std::clamp(int(u * float(w)), 0, w - 1), y = std::clamp(int(v * float(h)), 0, h - 1);
    const float rowP = rowCdf_[y] - (y > 0 ? rowCdf_[y - 1] : 0.0f);
    const float* cdf = &texelCdf_[size_t(y) * w];
    const float texelP = cdf[x] - (x > 0 ? cdf[x - 1] : 0.0f);
    // Per unit (u, v) area, then per steradian: dw = 2 pi^2 cos(elevation) du dv,
    // cos(elevation) from d itself (near the poles z rounds to 1 and v to 0).
    const float c = std::max(std::sqrt(d.x * d.x + d.y * d.y), 1e-7f);
    return rowP * texelP * float(w) * float(h) / (2.0f * kMapPi * kMapPi * c);
}

}  // namespace plume
