#include "sim/diffusion.h"

#include <vector>

#include "core/parallel.h"

namespace plume {

void diffuseImplicit(ScalarGrid& x, float nu, float dt, float dx, int sweeps,
                     const DiffusionSplit* split) {
    if (nu <= 0.0f) return;
    const float a = nu * dt / (dx * dx);
    const int nx = x.nx(), ny = x.ny(), nz = x.nz();
    const int partZ = split ? split->partZ : 0;
    // The right-hand side is the field before diffusion, the halo's too: a
    // halo cell's sweep feeds the owned cells next to it.
    if (split) split->exchange(x);
    std::vector<float> rhs = x.values();
    int since = 0;  // half-sweeps since the halo was exchanged
    for (int sweep = 0; sweep < sweeps; ++sweep)
        for (int colour = 0; colour < 2; ++colour) {
            if (split && since == split->halo) {
                split->exchange(x);
                since = 0;
            }
            parallelForSlabs(nz, [&](int k) {
                for (int j = 0; j < ny; ++j)
                    for (int i = (j + k + partZ + colour) & 1; i < nx; i += 2) {
                        float sum = 0.0f;
                        int count = 0;
                        if (i > 0) sum += x(i - 1, j, k), ++count;
                        if (i + 1 < nx) sum += x(i + 1, j, k), ++count;
                        if (j > 0) sum += x(i, j - 1, k), ++count;
                        if (j + 1 < ny) sum += x(i, j + 1, k), ++count;
                        if (k > 0) sum += x(i, j, k - 1), ++count;
                        if (k + 1 < nz) sum += x(i, j, k + 1), ++count;
                        x(i, j, k) = (rhs[x.index(i, j, k)] + a * sum) / (1.0f + a * count);
                    }
            });
            ++since;
        }
}

}  // namespace plume
