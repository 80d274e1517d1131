#include <gtest/gtest.h>

#include <iomanip>
#include <vector>

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

// Terms whose sum depends on the order they are added in: 1e16 swallows a
// following 1.0 unless the ones are added to each other first, so any
// per-chunk partial sum lands on another value than the index-order loop.
double orderSensitiveTerm(int k) { return k % 7 == 0 ? 1e16 * (k % 2 ? 1 : -1) : 1.0 + k * 1e-3; }

TEST(Parallel, DeterministicSumIsTheIndexOrderSumForAnyThreadCount) {
    const int n = 1000;
    double serial = 0.0;
    for (int k = 0; k < n; ++k) serial += orderSensitiveTerm(k);
    for (int threads : {1, 2, 3, 7}) {
        setThreadCount(threads);
        const double s = deterministicSum(n, [](int k) { return orderSensitiveTerm(k); });
        setThreadCount(0);
        EXPECT_EQ(s, serial) << threads << " threads: " << std::setprecision(17) << s << " vs "
                             << serial;
    }
}

// The arena is what makes the thread-count tests mean something: without it,
// TBB splits work the same way whatever setThreadCount says.
TEST(Parallel, ThreadCountChangesHowWorkIsSplit) {
    auto chunkStarts = [](int threads) {
        setThreadCount(threads);
        std::vector<int> starts(4096, 0);
        parallelForRange(4096, [&](int k0, int) { starts[k0] = 1; });
        setThreadCount(0);
        return starts;
    };
    const std::vector<int> one = chunkStarts(1), seven = chunkStarts(7);
    EXPECT_NE(one, seven);
}

TEST(Parallel, SlabsCoverEveryIndexOnce) {
    std::vector<int> hits(257, 0);
    parallelForSlabs(257, [&](int k) { hits[k] += 1; });
    for (int h : hits) EXPECT_EQ(h, 1);
}

}  // namespace
}  // namespace plume
