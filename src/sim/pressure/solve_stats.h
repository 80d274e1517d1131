// What every pressure solve reports, whichever method ran it.
#pragma once

namespace plume {

struct SolveStats {
    int iterations = 0;
    float residual = 0;  // final |r| / |b| (max-norm), 0 when b was 0
};

}  // namespace plume
