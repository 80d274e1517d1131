#include "render/light/light_transmittance.h"

#include <algorithm>
#include <cmath>

#include "core/parallel.h"
#include "render/march/ray.h"

namespace plume {

namespace {

// Optical depth beyond which a cell is in full shadow (T < 1e-3).
constexpr float kOpaqueDepth = 6.9f;

// Bilinear lookups at (ub, uc) in two nb x nc slices with the same weights;
// samples outside the slices are zero. Inside, the four corners are read
// without a check each.
void bilinearOrZero2(const float* sliceA, const float* sliceB, int nb, int nc, float ub, float uc,
                     float& a, float& b) {
    float fb = std::floor(ub), fc = std::floor(uc);
    int b0 = int(fb), c0 = int(fc);
    float wb = ub - fb, wc = uc - fc;
    auto blend = [&](float v00, float v10, float v01, float v11) {
        float v0 = v00 + (v10 - v00) * wb;
        float v1 = v01 + (v11 - v01) * wb;
        return v0 + (v1 - v0) * wc;
    };
    if (b0 >= 0 && b0 + 1 < nb && c0 >= 0 && c0 + 1 < nc) {
        const size_t i = size_t(c0) * nb + b0;
        a = blend(sliceA[i], sliceA[i + 1], sliceA[i + nb], sliceA[i + nb + 1]);
        b = blend(sliceB[i], sliceB[i + 1], sliceB[i + nb], sliceB[i + nb + 1]);
        return;
    }
    auto at = [&](const float* slice, int ib, int ic) {
        return (ib >= 0 && ib < nb && ic >= 0 && ic < nc) ? slice[size_t(ic) * nb + ib] : 0.0f;
    };
    a = blend(at(sliceA, b0, c0), at(sliceA, b0 + 1, c0), at(sliceA, b0, c0 + 1),
              at(sliceA, b0 + 1, c0 + 1));
    b = blend(at(sliceB, b0, c0), at(sliceB, b0 + 1, c0), at(sliceB, b0, c0 + 1),
              at(sliceB, b0 + 1, c0 + 1));
}

int dominantAxis(Vec3f d) {
    float ax = std::fabs(d.x), ay = std::fabs(d.y), az = std::fabs(d.z);
    if (ax >= ay && ax >= az) return 0;
    return ay >= az ? 1 : 2;
}

// Spreads a slice's optical depth to its neighbours: weight `spread` to each
// side along both slice axes. Beyond the slice's edge the edge value stands in
// for its neighbour, so the blur keeps the total depth and adds no gradient at
// the sides of the box. Applied once per slice, the spread grows like
// diffusion as light crosses the smoke.
void blurSlice(float* depth, float* tmp, int nb, int nc, float spread) {
    const float centre = 1.0f - 2.0f * spread;
    parallelForRange(nc, [&](int c0, int c1) {
        for (int ic = c0; ic < c1; ++ic) {
            const float* d = depth + size_t(ic) * nb;
            float* t = tmp + size_t(ic) * nb;
            for (int ib = 0; ib < nb; ++ib) {
                float left = d[ib > 0 ? ib - 1 : ib], right = d[ib + 1 < nb ? ib + 1 : ib];
                t[ib] = centre * d[ib] + spread * (left + right);
            }
        }
    });
    parallelForRange(nc, [&](int c0, int c1) {
        for (int ic = c0; ic < c1; ++ic) {
            const float* t = tmp + size_t(ic) * nb;
            const float* below = ic > 0 ? t - nb : t;
            const float* above = ic + 1 < nc ? t + nb : t;
            float* d = depth + size_t(ic) * nb;
            for (int ib = 0; ib < nb; ++ib)
                d[ib] = centre * t[ib] + spread * (below[ib] + above[ib]);
        }
    });
}

// Sweeps the slices of `box` along axis a, in the order the light crosses
// them (step +1 or -1). toLight(p, ub, uc, length) gives, for the centre p of a
// cell (grid units), the point one slice toward the light in the previous
// slice's (b, c) cell coordinates relative to the box, and the segment length
// in voxels. Upstream of the box there is no density. store(cell, depth)
// keeps what the cell needs of its optical depth.
// aligned: the light runs along axis a (toLight gives offsets of 0), so a
// cell's upstream point is the centre of the cell before it, read as it is
// (what the bilinear lookup gives there, bit for bit, without its work).
template <typename TowardLight, typename Store>
void sweepSlices(ShadingGrid& grid, const Box3i& box, int a, int step, float sigmaPerVoxel,
                 float spread, std::vector<float>& scratch, TowardLight toLight, Store store,
                 bool aligned = false, SweepCarry carry = SweepCarry::Depth) {
    // What passes from slice to slice (and is spread): the depth, or the
    // opacity 1 - T, zero upstream of the box either way.
    const bool opacity = carry == SweepCarry::Transmittance;
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    const Vec3i n = grid.n();
    const size_t stride[3] = {1, size_t(n.x), size_t(n.x) * n.y};
    const int nb = box.hi[b] - box.lo[b], nc = box.hi[c] - box.lo[c];
    const size_t sliceSize = size_t(nb) * nc;
    scratch.assign(5 * sliceSize, 0.0f);
    float* prevDepth = scratch.data();
    float* prevDensity = prevDepth + sliceSize;
    float* depth = prevDensity + sliceSize;
    float* density = depth + sliceSize;
    float* blurred = density + sliceSize;

    const int first = step > 0 ? box.lo[a] : box.hi[a] - 1;
    const int last = step > 0 ? box.hi[a] - 1 : box.lo[a];
    const int channels = grid.channels();
    float* data = grid.data();
    // Each cell of a slice is worked out from the slice before alone, so the
    // order within a slice is free: the inner loop runs along whichever of
    // b and c is nearer in memory (along z, cells lie a page apart).
    const bool cInner = stride[c] < stride[b];
    const int nOuter = cInner ? nb : nc, nInner = cInner ? nc : nb;
    for (int ia = first;; ia += step) {
        parallelForRange(nOuter, [&](int o0, int o1) {
            Vec3f p;
            p[a] = float(ia) + 0.5f;
            for (int io = o0; io < o1; ++io)
                for (int ii = 0; ii < nInner; ++ii) {
                    const int ib = cInner ? io : ii, ic = cInner ? ii : io;
                    p[b] = float(box.lo[b] + ib) + 0.5f;
                    p[c] = float(box.lo[c] + ic) + 0.5f;
                    float* cell = data + (ia * stride[a] + size_t(box.lo[c] + ic) * stride[c] +
                                          size_t(box.lo[b] + ib) * stride[b]) *
                                             channels;
                    float ub, uc, length;
                    toLight(p, ub, uc, length);
                    ub += float(ib);
                    uc += float(ic);
                    size_t s = size_t(ic) * nb + ib;
                    float upstreamDepth, upstreamDensity;
                    if (aligned) {
                        upstreamDepth = prevDepth[s];
                        upstreamDensity = prevDensity[s];
                    } else {
                        bilinearOrZero2(prevDepth, prevDensity, nb, nc, ub, uc, upstreamDepth,
                                        upstreamDensity);
                    }
                    float rho = cell[0];
                    if (opacity)
                        upstreamDepth = upstreamDepth > 0.0f
                                            ? -std::log1p(-std::min(upstreamDepth, 0.999999f))
                                            : 0.0f;
                    // Trapezoid rule over the segment between the slices.
                    float tau =
                        upstreamDepth + 0.5f * sigmaPerVoxel * length * (rho + upstreamDensity);
                    depth[s] = opacity ? (tau > 0.0f ? -std::expm1(-tau) : 0.0f) : tau;
                    density[s] = rho;
                    store(cell, tau);
                }
        });
        // The cells keep their own depth; what passes on to the next slice is
        // spread, so grid-scale differences between neighbouring columns of
        // smoke do not pile up into stripes along the light.
        if (spread > 0.0f) blurSlice(depth, blurred, nb, nc, spread);
        std::swap(prevDepth, depth);
        std::swap(prevDensity, density);
        if (ia == last) break;
    }
}

// Transmittance from a point light inside the box, marched from the centres of
// a half-resolution grid (coarse cell c covers fine cells 2c and 2c+1).
void marchCoarse(const ShadingGrid& grid, const Box3i& box, Vec3f lightGrid, float sigmaPerVoxel,
                 ScalarGrid& coarse) {
    // Coarse cells whose centres a trilinear lookup over the box can reach.
    const Vec3i lo{std::max(0, box.lo.x / 2 - 1), std::max(0, box.lo.y / 2 - 1),
                   std::max(0, box.lo.z / 2 - 1)};
    const Vec3i hi{std::min(coarse.nx() - 1, box.hi.x / 2 + 1),
                   std::min(coarse.ny() - 1, box.hi.y / 2 + 1),
                   std::min(coarse.nz() - 1, box.hi.z / 2 + 1)};
    const Vec3f boxLo(float(box.lo.x), float(box.lo.y), float(box.lo.z));
    const Vec3f boxHi(float(box.hi.x), float(box.hi.y), float(box.hi.z));
    constexpr float kStep = 1.0f;  // fine voxels
    const float* data = grid.data();

    parallelForRange(hi.z - lo.z + 1, [&](int k0, int k1) {
        for (int k = lo.z + k0; k < lo.z + k1; ++k)
            for (int j = lo.y; j <= hi.y; ++j)
                for (int i = lo.x; i <= hi.x; ++i) {
                    Vec3f p(2.0f * i + 1.0f, 2.0f * j + 1.0f, 2.0f * k + 1.0f);
                    Vec3f toLight = lightGrid - p;
                    float distance = length(toLight);
                    float tau = 0.0f;
                    if (distance > 0.0f) {
                        const Ray ray(p, toLight / distance);
                        float t0, t1;
                        clipRay(ray, boxLo, boxHi, t0, t1);
                        t1 = std::min(t1, distance);
                        // Midpoint samples from the cell centre (or box entry) to the light.
                        for (float t = t0 + 0.5f * kStep; t < t1 && tau < kOpaqueDepth; t += kStep)
                            tau += grid.weights(ray.at(t))(data) * sigmaPerVoxel * kStep;
                    }
                    coarse(i, j, k) = tau;
                }
    });
}

}  // namespace

namespace {

template <typename Store>
void sweepDirection(ShadingGrid& grid, const Box3i& box, Vec3f direction, float sigmaPerVoxel,
                    float spread, std::vector<float>& scratch, Store store, SweepCarry carry) {
    const int a = dominantAxis(direction), b = (a + 1) % 3, c = (a + 2) % 3;
    const float invA = 1.0f / std::fabs(direction[a]);
    const float backB = -direction[b] * invA, backC = -direction[c] * invA;
    sweepSlices(
        grid, box, a, direction[a] > 0 ? 1 : -1, sigmaPerVoxel, spread, scratch,
        [&](Vec3f, float& ub, float& uc, float& length) {
            ub = backB;
            uc = backC;
            length = invA;
        },
        store, backB == 0.0f && backC == 0.0f, carry);
}

}  // namespace

void sweepDirectionalLight(ShadingGrid& grid, const Box3i& box, Vec3f direction,
                           float sigmaPerVoxel, float spread, int outChannel,
                           std::vector<float>& scratch, SweepCarry carry) {
    if (box.empty()) return;
    sweepDirection(grid, box, direction, sigmaPerVoxel, spread, scratch,
                   [outChannel](float* cell, float tau) { cell[outChannel] = tau; }, carry);
}

namespace {

// exp(-tau), without the call where no smoke lies upstream (exp(0) is 1
// exactly): most cells of the sky's sweeps, an exp each, six a cell.
float seenThrough(float tau) { return tau > 0.0f ? std::exp(-tau) : 1.0f; }

}  // namespace

void sweepOpenness(ShadingGrid& grid, const Box3i& box, std::span<const Vec3f> directions,
                   float sigmaPerVoxel, float spread, int outChannel, std::vector<float>& scratch,
                   SweepCarry carry, std::span<const float> weights) {
    if (box.empty() || directions.empty()) return;
    for (size_t d = 0; d < directions.size(); ++d) {
        const float weight = weights.empty() ? 1.0f / float(directions.size()) : weights[d];
        if (d == 0)
            sweepDirection(
                grid, box, directions[d], sigmaPerVoxel, spread, scratch,
                [=](float* cell, float tau) { cell[outChannel] = weight * seenThrough(tau); },
                carry);
        else
            sweepDirection(
                grid, box, directions[d], sigmaPerVoxel, spread, scratch,
                [=](float* cell, float tau) { cell[outChannel] += weight * seenThrough(tau); },
                carry);
    }
}

void pointLightTransmittance(ShadingGrid& grid, const Box3i& box, Vec3f lightGrid,
                             float sigmaPerVoxel, float spread, int outChannel,
                             std::vector<float>& scratch, ScalarGrid& coarse, SweepCarry carry) {
    if (box.empty()) return;
    // Sweep along the axis on which the light is farthest outside the box, if any.
    int a = -1;
    float outside = 0.0f;
    for (int axis = 0; axis < 3; ++axis) {
        float o =
            std::max(float(box.lo[axis]) - lightGrid[axis], lightGrid[axis] - float(box.hi[axis]));
        if (o > outside) outside = o, a = axis;
    }
    if (a >= 0) {
        const int b = (a + 1) % 3, c = (a + 2) % 3;
        const int step = lightGrid[a] < float(box.lo[a]) ? 1 : -1;
        sweepSlices(
            grid, box, a, step, sigmaPerVoxel, spread, scratch,
            [&](Vec3f p, float& ub, float& uc, float& length) {
                Vec3f v = lightGrid - p;
                float inv = 1.0f / std::fabs(v[a]);
                ub = v[b] * inv;
                uc = v[c] * inv;
                length = std::sqrt(dot(v, v)) * inv;
            },
            [outChannel](float* cell, float tau) { cell[outChannel] = tau; }, false, carry);
        return;
    }

    // Inside the box: march at half resolution, then fill the channel from it.
    const Vec3i n = grid.n();
    if (coarse.nx() != (n.x + 1) / 2 || coarse.ny() != (n.y + 1) / 2 ||
        coarse.nz() != (n.z + 1) / 2)
        coarse = ScalarGrid((n.x + 1) / 2, (n.y + 1) / 2, (n.z + 1) / 2, Vec3f(0.5f), 0.0f);
    marchCoarse(grid, box, lightGrid, sigmaPerVoxel, coarse);
    const int channels = grid.channels();
    float* data = grid.data();
    parallelForRange(box.hi.z - box.lo.z, [&](int k0, int k1) {
        for (int k = box.lo.z + k0; k < box.lo.z + k1; ++k)
            for (int j = box.lo.y; j < box.hi.y; ++j)
                for (int i = box.lo.x; i < box.hi.x; ++i)
                    data[grid.cellIndex(i, j, k) * channels + outChannel] =
                        coarse.sample(Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * 0.5f);
    });
}

}  // namespace plume
