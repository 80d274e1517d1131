#include "sim/advection_passes.h"

#include <algorithm>

namespace plume {

namespace {

// The semi-Lagrangian steps of each field's part of row (j, k) into the fields
// (an in-place advection's steps go to scratch first: the first pass still
// reads the row's neighbours).
void copyRow(const PassFields& f, const RowParts& part, int j, int k) {
    const size_t row = f.rowStart(j, k);
    for (int c = 0; c < f.count; ++c)
        if (part.lo[c] < part.hi[c])
            std::copy(f.step[c] + row + part.lo[c], f.step[c] + row + part.hi[c],
                      f.dst[c] + row + part.lo[c]);
}

}  // namespace

void AdvectionPasses::run(const Block& b) const {
    const PassFields f = fieldsOf(b);
    semiLagrangian(f, b);  // MacCormack's forward step
    if (macCormack_) {
        if (exchange_)
            for (int c = 0; c < b.count; ++c) (*exchange_)(*b.src[c], f.step[c]);
        correct(f, b);  // its backward step, correction and limiter
    }
    else if (inPlace_)
        copyBack(f, b);
}

PassFields AdvectionPasses::fieldsOf(const Block& b) const {
    PassFields f{&displacement_, shape_, b.count, {}, {}, {}};
    for (int c = 0; c < b.count; ++c) {
        f.src[c] = b.src[c]->data();
        f.dst[c] = b.dst[c]->data();
        // A semi-Lagrangian advection not in place writes its results at once.
        f.step[c] = macCormack_ || inPlace_ ? steps_[c] : f.dst[c];
    }
    if (macCormack_ && b.count == 1) f.lo = lo_, f.hi = hi_;
    f.revert = revert_;
    if (b.background) {
        f.openSides = openSides_;
        for (int c = 0; c < b.count; ++c) f.background[c] = b.background[c];
    }
    return f;
}

void AdvectionPasses::semiLagrangian(const PassFields& f, const Block& b) const {
    forRows(f, b.firstBox, b.firstRegions, semiLagrangianRow);
}

void AdvectionPasses::copyBack(const PassFields& f, const Block& b) const {
    forRows(f, b.firstBox, b.firstRegions, copyRow);
}

void AdvectionPasses::correct(const PassFields& f, const Block& b) const {
    forRows(f, b.resultBox, b.resultRegions, correctRow);
}

void AdvectionPasses::forRows(const PassFields& f, const Box3i& box, const Region* regions,
                              RowPass pass) {
    plume::forRows(box, [&](int i0, int i1, int j, int k) {
        pass(f, rowParts(regions, f.count, i0, i1, j, k), j, k);
    });
}

}  // namespace plume
