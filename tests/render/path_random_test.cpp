// The path tracer's random numbers (render/path/path_random.h): a free
// path's exponential is -log(1 - u) of the uniform the same draw gives.
#include "render/path/path_random.h"

#include <gtest/gtest.h>

#include <cmath>

namespace plume {
namespace {

TEST(PathRandom, ExponentialIsMinusLogOfOneMinusTheUniform) {
    PathRandom a(3, 5, 7, 11), b(3, 5, 7, 11);
    double sum = 0.0;
    constexpr int kDraws = 1 << 20;
    for (int i = 0; i < kDraws; ++i) {
        const float e = a.exponential();
        const double exact = -std::log1p(-double(b.uniform()));
        ASSERT_NEAR(e, exact, 2e-6 * std::max(1.0, exact)) << i;
        sum += e;
    }
    EXPECT_NEAR(sum / kDraws, 1.0, 0.005);
}

}  // namespace
}  // namespace plume
