#include <gtest/gtest.h>

#include "core/grid3.h"
#include "core/parallel.h"

namespace plume {
namespace {

TEST(Grid3, SamplesAtItsOffset) {
    ScalarGrid cells(4, 3, 2);
    cells(2, 1, 1) = 5.0f;
    EXPECT_FLOAT_EQ(cells.sample({2.5f, 1.5f, 1.5f}), 5.0f);
    EXPECT_FLOAT_EQ(cells.sample({3.0f, 1.5f, 1.5f}), 2.5f);
    ScalarGrid xFaces(5, 3, 2, {0.0f, 0.5f, 0.5f});
    xFaces(2, 1, 1) = 4.0f;
    EXPECT_FLOAT_EQ(xFaces.sample({2.0f, 1.5f, 1.5f}), 4.0f);
    EXPECT_FLOAT_EQ(xFaces.sample({2.5f, 1.5f, 1.5f}), 2.0f);
}

TEST(Grid3, ClampsOutsideToTheEdge) {
    ScalarGrid g(3, 3, 3);
    g(0, 1, 1) = 7.0f;
    EXPECT_FLOAT_EQ(g.sample({-4.0f, 1.5f, 1.5f}), 7.0f);
}

TEST(Parallel, DeterministicSumIgnoresThreadCount) {
    auto sum = [](int threads) {
        setThreadCount(threads);
        double s = deterministicSum(1000, [](int k) { return 1.0 / (1.0 + k * 0.37); });
        setThreadCount(0);
        return s;
    };
    double a = sum(1), b = sum(2), c = sum(3);
    EXPECT_EQ(a, b);
    EXPECT_EQ(a, c);
}

TEST(Parallel, SlabsCoverEveryIndexOnce) {
    std::vector<int> hits(257, 0);
    parallelForSlabs(257, [&](int k) { hits[k] += 1; });
    for (int h : hits) EXPECT_EQ(h, 1);
}

}  // namespace
}  // namespace plume
