#include <gtest/gtest.h>
#include "core/grid3.h"
TEST(Grid3, SamplesCellCentresExactly) {
    plume::ScalarGrid g(4, 3, 2);
    g(2, 1, 1) = 5.0f;
    EXPECT_FLOAT_EQ(g.sample({2.5f, 1.5f, 1.5f}), 5.0f);
    EXPECT_FLOAT_EQ(g.sample({3.0f, 1.5f, 1.5f}), 2.5f);
}
