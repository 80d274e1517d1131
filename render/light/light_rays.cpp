#include "render/light/light_rays.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/parallel.h"
#include "render/march/ray.h"

namespace plume {

namespace light_rays {

// Past this optical depth a ray's cells are in full shadow (T < 1e-4): the
// rest of the ray keeps it without reading density.
constexpr float kDarkDepth = 9.5f;

float phase(float cosTheta, float g) {
    const float d = 1.0f + g * g - 2.0f * g * cosTheta;
    return (1.0f - g * g) / (4.0f * std::numbers::pi_v<float> * d * std::sqrt(d));
}

}  // namespace light_rays

// The rays across one light: node (a, b, c) sits at
// base + u a across + v b across + w c along, w the way the light travels.
struct LightRays::Lattice {
    Vec3f u, v, w, base;
    float across, along;
    int nu, nv, nw;

    Lattice(const Box3i& box, Vec3f direction, LatticeSpacing h)
        : w(direction), across(h.across), along(h.along) {
        // u and v across the light, from the axis least along it.
        const Vec3f ax(std::fabs(w.x), std::fabs(w.y), std::fabs(w.z));
        const Vec3f other = ax.x <= ax.y && ax.x <= ax.z ? Vec3f(1, 0, 0)
                            : ax.y <= ax.z               ? Vec3f(0, 1, 0)
                                                         : Vec3f(0, 0, 1);
        u = normalize(cross(w, other));
        v = cross(w, u);
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int corner = 0; corner < 8; ++corner) {
            const Vec3f p(float(corner & 1 ? box.hi.x : box.lo.x),
                          float(corner & 2 ? box.hi.y : box.lo.y),
                          float(corner & 4 ? box.hi.z : box.lo.z));
            const float q[3] = {dot(p, u), dot(p, v), dot(p, w)};
            for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], q[a]), hi[a] = std::max(hi[a], q[a]);
        }
        // A node of margin on each side, so every lookup has its neighbours.
        base = u * (lo[0] - across) + v * (lo[1] - across) + w * (lo[2] - along);
        nu = int(std::ceil((hi[0] - lo[0]) / across)) + 3;
        nv = int(std::ceil((hi[1] - lo[1]) / across)) + 3;
        nw = int(std::ceil((hi[2] - lo[2]) / along)) + 3;
    }
    size_t rays() const { return size_t(nu) * nv; }
};

void LightRays::start(const ShadingGrid& grid, const Box3i& box, float sigmaPerVoxel) {
    box_ = box;
    sigma_ = sigmaPerVoxel;
    if (box.empty()) return;
    padded_ = Vec3i{box.hi.x - box.lo.x + 2, box.hi.y - box.lo.y + 2, box.hi.z - box.lo.z + 2};
    density_.assign(size_t(padded_.x) * padded_.y * padded_.z, 0.0f);
    const int channels = grid.channels();
    const float* data = grid.data();
    parallelForRange(box.hi.z - box.lo.z, [&](int k0, int k1) {
        for (int k = box.lo.z + k0; k < box.lo.z + k1; ++k)
            for (int j = box.lo.y; j < box.hi.y; ++j) {
                float* row = &density_[(size_t(k - box.lo.z + 1) * padded_.y + (j - box.lo.y + 1)) *
                                           padded_.x +
                                       1];
                const float* cell = data + grid.cellIndex(box.lo.x, j, k) * channels;
                for (int i = 0; i < box.hi.x - box.lo.x; ++i) row[i] = cell[size_t(i) * channels];
            }
    });
}

template <typename Store>
void LightRays::trace(ShadingGrid& grid, Vec3f direction, LatticeSpacing spacing, Store store) {
    const Lattice lattice(box_, direction, spacing);
    const int nw = lattice.nw;
    if (nodes_.size() < lattice.rays() * nw * 2) nodes_.resize(lattice.rays() * nw * 2);

    // Density, trilinear between cell centres, zero outside the box.
    const Vec3f shift(1.0f - float(box_.lo.x) - 0.5f, 1.0f - float(box_.lo.y) - 0.5f,
                      1.0f - float(box_.lo.z) - 0.5f);
    const size_t sy = size_t(padded_.x), sz = size_t(padded_.x) * padded_.y;
    const float maxX = float(padded_.x) - 1.001f, maxY = float(padded_.y) - 1.001f,
                maxZ = float(padded_.z) - 1.001f;
    auto densityAt = [&](Vec3f p) {
        const float x = std::clamp(p.x + shift.x, 0.0f, maxX);
        const float y = std::clamp(p.y + shift.y, 0.0f, maxY);
        const float z = std::clamp(p.z + shift.z, 0.0f, maxZ);
        const int i = int(x), j = int(y), k = int(z);
        const float fx = x - float(i), fy = y - float(j), fz = z - float(k);
        const float* c = &density_[size_t(k) * sz + size_t(j) * sy + size_t(i)];
        auto lerp = [](float a, float b, float f) { return a + (b - a) * f; };
        const float c00 = lerp(c[0], c[1], fx), c10 = lerp(c[sy], c[sy + 1], fx);
        const float c01 = lerp(c[sz], c[sz + 1], fx), c11 = lerp(c[sz + sy], c[sz + sy + 1], fx);
        return lerp(lerp(c00, c10, fy), lerp(c01, c11, fy), fz);
    };

    // Node (a, b, c) at ((c nv + b) nu + a) 2: depth, then slope. Each row
    // of rays (one b) is marched together, a node plane at a time, so
    // writes and the cells' reads after both run along rows.
    const int nu = lattice.nu, nv = lattice.nv;
    const size_t plane = size_t(nu) * nv;
    const Vec3f boxLo(float(box_.lo.x), float(box_.lo.y), float(box_.lo.z));
    const Vec3f boxHi(float(box_.hi.x), float(box_.hi.y), float(box_.hi.z));
    const float slope = sigma_ * lattice.along;  // depth a node per unit density
    float* nodes = nodes_.data();
    parallelForRange(nv, [&](int b0, int b1) {
        std::vector<int> first(static_cast<size_t>(nu)), last(static_cast<size_t>(nu));
        std::vector<float> tau(static_cast<size_t>(nu)), before(static_cast<size_t>(nu));
        for (int b = b0; b < b1; ++b) {
            for (int a = 0; a < nu; ++a) {
                const Vec3f origin = lattice.base + lattice.u * (float(a) * lattice.across) +
                                     lattice.v * (float(b) * lattice.across);
                float t0, t1;
                first[a] = nw, last[a] = -1;
                if (clipRay(Ray(origin, lattice.w), boxLo, boxHi, t0, t1)) {
                    first[a] = std::clamp(int(std::ceil(t0 / lattice.along)), 0, nw);
                    last[a] = std::clamp(int(std::floor(t1 / lattice.along)), -1, nw - 1);
                }
                tau[a] = before[a] = 0.0f;
            }
            const Vec3f rowOrigin = lattice.base + lattice.v * (float(b) * lattice.across);
            for (int c = 0; c < nw; ++c) {
                float* row = nodes + (size_t(c) * plane + size_t(b) * nu) * 2;
                const Vec3f at = rowOrigin + lattice.w * (float(c) * lattice.along);
                for (int a = 0; a < nu; ++a) {
                    float t = tau[a], m = 0.0f;
                    if (c >= first[a] && c <= last[a] && t < light_rays::kDarkDepth) {
                        // The trapezoid rule between nodes; the node before the
                        // first sees no smoke.
                        const float rho = densityAt(at + lattice.u * (float(a) * lattice.across));
                        t += 0.5f * slope * (before[a] + rho);
                        before[a] = rho;
                        m = slope * rho;
                    } else if (c == last[a] + 1 && t < light_rays::kDarkDepth) {
                        // Out of the box: the last half-step, none beyond it.
                        t += 0.5f * slope * before[a];
                    }
                    tau[a] = t;
                    row[2 * a] = t;
                    row[2 * a + 1] = m;
                }
            }
        }
    });

    const int channels = grid.channels();
    float* data = grid.data();
    const size_t db = size_t(nu) * 2, dc = plane * 2;
    parallelForRange(box_.hi.z - box_.lo.z, [&](int k0, int k1) {
        for (int k = box_.lo.z + k0; k < box_.lo.z + k1; ++k)
            for (int j = box_.lo.y; j < box_.hi.y; ++j)
                for (int i = box_.lo.x; i < box_.hi.x; ++i) {
                    const Vec3f p(float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f);
                    const Vec3f q = p - lattice.base;
                    const float x = std::clamp(dot(q, lattice.u) / lattice.across, 0.0f,
                                               float(nu) - 1.001f);
                    const float y = std::clamp(dot(q, lattice.v) / lattice.across, 0.0f,
                                               float(nv) - 1.001f);
                    const float z = std::clamp(dot(q, lattice.w) / lattice.along, 0.0f,
                                               float(nw) - 1.001f);
                    const int a = int(x), b = int(y), c = int(z);
                    const float fa = x - float(a), fb = y - float(b), t = z - float(c);
                    // Cubic Hermite along the rays (monotone: the trapezoid's
                    // step is the mean of its two slopes), bilinear across.
                    const float t2 = t * t, t3 = t2 * t;
                    const float h00 = 2.0f * t3 - 3.0f * t2 + 1.0f, h10 = t3 - 2.0f * t2 + t;
                    const float h01 = 3.0f * t2 - 2.0f * t3, h11 = t3 - t2;
                    const float* n0 = nodes + size_t(c) * dc + size_t(b) * db + size_t(a) * 2;
                    auto depth = [&](const float* n) {
                        return h00 * n[0] + h10 * n[1] + h01 * n[dc] + h11 * n[dc + 1];
                    };
                    const float d0 = depth(n0), d1 = depth(n0 + 2);
                    const float d2 = depth(n0 + db), d3 = depth(n0 + db + 2);
                    const float tau =
                        (d0 + (d1 - d0) * fa) * (1.0f - fb) + (d2 + (d3 - d2) * fa) * fb;
                    store(data + grid.cellIndex(i, j, k) * channels, p, std::max(tau, 0.0f));
                }
    });
}

void LightRays::traceDepth(ShadingGrid& grid, Vec3f direction, LatticeSpacing spacing,
                           int outChannel) {
    if (box_.empty()) return;
    trace(grid, direction, spacing,
          [outChannel](float* cell, Vec3f, float tau) { cell[outChannel] = tau; });
}

void LightRays::traceSky(ShadingGrid& grid, std::span<const SkyLight> sky, const ViewPoint& eye,
                         float g, LatticeSpacing spacing, const SkyChannels& channels) {
    if (box_.empty()) return;
    const int open = channels.openness, seen = channels.seen;
    for (size_t s = 0; s < sky.size(); ++s) {
        const SkyLight light = sky[s];
        const bool first = s == 0;
        trace(grid, light.direction, spacing, [=](float* cell, Vec3f p, float tau) {
            const float t = tau > 0.0f ? std::exp(-tau) : 1.0f;
            // Scattered toward the camera, along the line from the eye through
            // the cell (InScattering::fillSource's direction).
            float cosTheta;
            if (eye.parallel) {
                cosTheta = -dot(light.direction, eye.forward);
            } else {
                const Vec3f toCell = p - eye.eye;
                const float distance = length(toCell);
                cosTheta = distance > 0.0f ? -dot(light.direction, toCell) / distance : 0.0f;
            }
            const Vec3f l = light.light * (t * light_rays::phase(cosTheta, g));
            if (first) {
                cell[open] = light.share * t;
                cell[seen] = l.x, cell[seen + 1] = l.y, cell[seen + 2] = l.z;
            } else {
                cell[open] += light.share * t;
                cell[seen] += l.x, cell[seen + 1] += l.y, cell[seen + 2] += l.z;
            }
        });
    }
}

}  // namespace plume
