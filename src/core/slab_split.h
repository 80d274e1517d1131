// How a grid's z-slabs are shared among the processes of one bake.
#pragma once

#include <vector>

namespace plume {

// Slabs [begin, end) of a grid's z axis.
struct SlabRange {
    int begin = 0, end = 0;
    int size() const { return end - begin; }
    bool operator==(const SlabRange&) const = default;
};

// Splits nz slabs among `count` processes into contiguous ranges, in process
// order, as even as boundaries that are multiples of `align` allow (so that
// each multigrid level halves every range exactly). A process may get none
// when there are fewer aligned blocks than processes.
std::vector<SlabRange> splitSlabs(int nz, int count, int align);

}  // namespace plume
