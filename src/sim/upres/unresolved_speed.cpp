#include "sim/upres/unresolved_speed.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/parallel.h"
#include "sim/upres/wavelet_filters.h"

namespace plume {

void unresolvedSpeed(const ScalarGrid (&velocity)[3], ScalarGrid& out) {
    const int nx = velocity[0].nx(), ny = velocity[0].ny(), nz = velocity[0].nz();
    ScalarGrid energy(nx, ny, nz), coarse(nx, ny, nz), work(nx, ny, nz);
    parallelForSlabs(nz, [&](int k) {
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const float u = velocity[0](i, j, k), v = velocity[1](i, j, k),
                            w = velocity[2](i, j, k);
                energy(i, j, k) = 0.5f * (u * u + v * v + w * w);
            }
    });
    using wavelet::coarsePart;
    constexpr wavelet::Ends kHeld = wavelet::Ends::Held;  // Mantaflow's Neumann ends
    const size_t sy = size_t(nx), sz = size_t(nx) * ny;
    parallelForSlabs(nz, [&](int k) {
        std::vector<float> half(size_t(nx) / 2 + 1);
        for (int j = 0; j < ny; ++j)
            coarsePart(&energy(0, j, k), &work(0, j, k), nx, 1, half.data(), kHeld);
    });
    parallelForSlabs(nz, [&](int k) {
        std::vector<float> half(size_t(ny) / 2 + 1);
        for (int i = 0; i < nx; ++i)
            coarsePart(&work(i, 0, k), &coarse(i, 0, k), ny, sy, half.data(), kHeld);
    });
    parallelForSlabs(ny, [&](int j) {
        std::vector<float> half(size_t(nz) / 2 + 1);
        for (int i = 0; i < nx; ++i)
            coarsePart(&coarse(i, j, 0), &work(i, j, 0), nz, sz, half.data(), kHeld);
    });
    // The finest band's energy, as a speed.
    parallelForSlabs(nz, [&](int k) {
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i)
                coarse(i, j, k) = std::sqrt(std::fabs(energy(i, j, k) - work(i, j, k)));
    });
    // Smoothed over the six neighbours (the edge's own value beyond the edge):
    // the band's energy sits between the cells as much as in them.
    out = ScalarGrid(nx, ny, nz);
    parallelForSlabs(nz, [&](int k) {
        const int k0 = std::max(k - 1, 0), k1 = std::min(k + 1, nz - 1);
        for (int j = 0; j < ny; ++j) {
            const int j0 = std::max(j - 1, 0), j1 = std::min(j + 1, ny - 1);
            for (int i = 0; i < nx; ++i) {
                const int i0 = std::max(i - 1, 0), i1 = std::min(i + 1, nx - 1);
                out(i, j, k) = (coarse(i0, j, k) + coarse(i1, j, k) + coarse(i, j0, k) +
                                coarse(i, j1, k) + coarse(i, j, k0) + coarse(i, j, k1)) *
                               (1.0f / 6.0f);
            }
        }
    });
}

}  // namespace plume
