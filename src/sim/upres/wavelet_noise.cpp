#include "sim/upres/wavelet_noise.h"

#include <cmath>
#include <cstdint>

#include "core/noise.h"
#include "core/parallel.h"
#include "sim/upres/wavelet_filters.h"

namespace plume {

namespace {

constexpr int kN = WaveletNoise::kTile;
constexpr int kMask = kN - 1;  // kN is a power of two: (i & kMask) wraps negatives too
static_assert((kN & kMask) == 0);

// Roughly Gaussian, zero mean, unit variance: four hashed uniforms summed.
float hashedNormal(int i, int j, int k) {
    float sum = 0.0f;
    for (int n = 0; n < 4; ++n)
        sum += float(noise_detail::hash3(i + 977 * n, j, k) >> 8) * (2.0f / 16777216.0f) - 1.0f;
    return sum * 0.8660254f;  // sqrt(3 / 4): the sum's variance is 4 / 3
}

size_t at(int i, int j, int k) { return (size_t(k & kMask) * kN + (j & kMask)) * kN + (i & kMask); }

struct Basis {
    int mid[3];
    float w[3][3], dw[3][3];
};

// Quadratic B-spline weights (and their derivatives) of the three samples
// nearest p along each axis.
Basis basis(Vec3f p) {
    Basis b;
    const float c[3] = {p.x, p.y, p.z};
    for (int a = 0; a < 3; ++a) {
        const float m = std::ceil(c[a] - 0.5f);
        const float t = m - (c[a] - 0.5f);
        b.mid[a] = int(m);
        b.w[a][0] = t * t * 0.5f;
        b.w[a][2] = (1.0f - t) * (1.0f - t) * 0.5f;
        b.w[a][1] = 1.0f - b.w[a][0] - b.w[a][2];
        b.dw[a][0] = -t;
        b.dw[a][2] = 1.0f - t;
        b.dw[a][1] = 2.0f * t - 1.0f;
    }
    return b;
}

// Three places in the tile far apart (in samples): the potential's three
// components, each an independent noise.
const Vec3f kComponent[3] = {{0.0f, 0.0f, 0.0f}, {41.3f, 87.7f, 15.1f}, {97.9f, 23.2f, 63.5f}};

}  // namespace

const WaveletNoise& WaveletNoise::instance() {
    static const WaveletNoise tile;
    return tile;
}

WaveletNoise::WaveletNoise() : tile_(size_t(kN) * kN * kN) {
    std::vector<float> coarse(tile_.size()), work(tile_.size());
    parallelForSlabs(kN, [&](int k) {
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) tile_[at(i, j, k)] = hashedNormal(i, j, k);
    });
    // The coarse part, one axis after another (x, then y of that, then z):
    // each row on its own, so the result is the same for any thread count.
    using wavelet::coarsePart, wavelet::Ends;
    parallelForSlabs(kN, [&](int k) {
        float half[kN / 2 + 1];
        for (int j = 0; j < kN; ++j)
            coarsePart(&tile_[at(0, j, k)], &work[at(0, j, k)], kN, 1, half, Ends::Periodic);
    });
    parallelForSlabs(kN, [&](int k) {
        float half[kN / 2 + 1];
        for (int i = 0; i < kN; ++i)
            coarsePart(&work[at(i, 0, k)], &coarse[at(i, 0, k)], kN, kN, half, Ends::Periodic);
    });
    parallelForSlabs(kN, [&](int j) {
        float half[kN / 2 + 1];
        for (int i = 0; i < kN; ++i)
            coarsePart(&coarse[at(i, j, 0)], &work[at(i, j, 0)], kN, size_t(kN) * kN, half,
                       Ends::Periodic);
    });
    // What is left is the band the tile's finest level holds. Adding it to
    // itself shifted by an odd count evens out the variance of even and odd
    // samples (Cook and DeRose, section 3.3).
    for (size_t n = 0; n < tile_.size(); ++n) coarse[n] = tile_[n] - work[n];
    const int shift = kN / 2 + 1;
    double sumSq = 0.0;
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) {
                const float v = coarse[at(i, j, k)] + coarse[at(i + shift, j + shift, k + shift)];
                tile_[at(i, j, k)] = v;
                sumSq += double(v) * v;
            }
    // Unit variance, so `strength` means the same whatever the filters leave.
    const float norm = float(1.0 / std::sqrt(sumSq / double(tile_.size())));
    for (float& v : tile_) v *= norm;
}

float WaveletNoise::value(Vec3f p) const {
    const Basis b = basis(p);
    float sum = 0.0f;
    for (int z = 0; z < 3; ++z)
        for (int y = 0; y < 3; ++y)
            for (int x = 0; x < 3; ++x)
                sum += b.w[0][x] * b.w[1][y] * b.w[2][z] *
                       tile_[at(b.mid[0] + x - 1, b.mid[1] + y - 1, b.mid[2] + z - 1)];
    return sum;
}

Vec3f WaveletNoise::gradient(Vec3f p) const {
    const Basis b = basis(p);
    // Separably: along z (value and slope), then y, then x.
    float a[3][3], da[3][3];
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x) {
            float s = 0.0f, ds = 0.0f;
            for (int z = 0; z < 3; ++z) {
                const float v = tile_[at(b.mid[0] + x - 1, b.mid[1] + y - 1, b.mid[2] + z - 1)];
                s += b.w[2][z] * v;
                ds += b.dw[2][z] * v;
            }
            a[y][x] = s;
            da[y][x] = ds;
        }
    float c[3], dcy[3], dcz[3];
    for (int x = 0; x < 3; ++x) {
        float s = 0.0f, sy = 0.0f, sz = 0.0f;
        for (int y = 0; y < 3; ++y) {
            s += b.w[1][y] * a[y][x];
            sy += b.dw[1][y] * a[y][x];
            sz += b.w[1][y] * da[y][x];
        }
        c[x] = s;
        dcy[x] = sy;
        dcz[x] = sz;
    }
    Vec3f g{0.0f, 0.0f, 0.0f};
    for (int x = 0; x < 3; ++x) {
        g.x += b.dw[0][x] * c[x];
        g.y += b.w[0][x] * dcy[x];
        g.z += b.w[0][x] * dcz[x];
    }
    return g;
}

Vec3f WaveletNoise::curl(Vec3f p) const {
    const Vec3f d1 = gradient(p + kComponent[0]);
    const Vec3f d2 = gradient(p + kComponent[1]);
    const Vec3f d3 = gradient(p + kComponent[2]);
    return {d3.y - d2.z, d1.z - d3.x, d2.x - d1.y};
}

}  // namespace plume
