// How a grid's slabs are shared among processes (core/slab_split.h).
#include "core/slab_split.h"

#include <gtest/gtest.h>

#include <vector>

namespace plume {
namespace {

using Ranges = std::vector<SlabRange>;

TEST(SlabSplit, RangesFollowOnAtAlignedBoundaries) {
    EXPECT_EQ(splitSlabs(64, 3, 8), (Ranges{{0, 24}, {24, 48}, {48, 64}}));
    EXPECT_EQ(splitSlabs(37, 2, 4), (Ranges{{0, 20}, {20, 37}}));
    EXPECT_EQ(splitSlabs(64, 1, 16), (Ranges{{0, 64}}));
}

TEST(SlabSplit, MoreProcessesThanBlocksLeavesTheLastOnesEmpty) {
    EXPECT_EQ(splitSlabs(5, 4, 4), (Ranges{{0, 4}, {4, 5}, {5, 5}, {5, 5}}));
}

TEST(SlabSplit, RefusesNonsense) {
    EXPECT_THROW(splitSlabs(8, 0, 1), std::invalid_argument);
    EXPECT_THROW(splitSlabs(8, 2, 0), std::invalid_argument);
}

}  // namespace
}  // namespace plume
