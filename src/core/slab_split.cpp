#include "core/slab_split.h"

#include <algorithm>
#include <stdexcept>

namespace plume {

std::vector<SlabRange> splitSlabs(int nz, int count, int align) {
    if (nz < 0 || count < 1 || align < 1)
        throw std::invalid_argument("splitSlabs: nz >= 0, count >= 1 and align >= 1");
    // Whole blocks of `align` slabs (the last one may be short), dealt out so
    // the first (blocks % count) processes get one more.
    const int blocks = (nz + align - 1) / align;
    std::vector<SlabRange> ranges(static_cast<size_t>(count));
    int block = 0;
    for (int p = 0; p < count; ++p) {
        const int mine = blocks / count + (p < blocks % count ? 1 : 0);
        ranges[size_t(p)].begin = std::min(nz, block * align);
        block += mine;
        ranges[size_t(p)].end = std::min(nz, block * align);
    }
    return ranges;
}

}  // namespace plume
