// The passes of one advect() call, run as OpenVDB's volume advection runs them
// (tools/VolumeAdvect.h, Advect::cook): each pass a short member, all run over
// the rows by one parallel runner. The first pass is the semi-Lagrangian step
// (MacCormack's forward step); MacCormack's backward step, correction and
// limiter make one second pass, since each point reads the forward step only
// around itself: two sweeps of the grid a step, not four.
#pragma once

#include "core/box.h"
#include "core/interpolation.h"
#include "sim/advection_kernels.h"
#include "sim/advection_regions.h"
#include "sim/fields.h"

namespace plume {

class AdvectionPasses {
  public:
    // The call's sample points and their displacements, its scheme, and the
    // scratch the Advector lent it: a semi-Lagrangian step per field of a
    // block, and one field's limiter bounds (null for none).
    AdvectionPasses(const Centred& displacement, const SampleLayout& shape, bool macCormack,
                    bool inPlace, bool revert, float* const* steps, float* lo, float* hi)
        : displacement_(displacement),
          shape_(shape),
          macCormack_(macCormack),
          inPlace_(inPlace),
          revert_(revert),
          steps_(steps),
          lo_(lo),
          hi_(hi) {}

    // Fields advected together: all of a call's, or in place one at a time.
    // The first pass covers firstBox, the second resultBox; within them, each
    // field only its own regions' rows (no regions: all of each box).
    struct Block {
        const ScalarGrid* const* src;
        ScalarGrid* const* dst;
        int count;
        const Region* firstRegions;
        const Region* resultRegions;
        Box3i firstBox, resultBox;
        const float* background = nullptr;  // of each field, for the still air
    };
    void run(const Block& b) const;
    // Still air beyond each side in `openSides`, holding each field's
    // background (Block::background; Advector::advect).
    void letStillAirIn(unsigned openSides) { openSides_ = openSides; }
    // Each field's forward step through `exchange` before the second pass
    // (Advector::exchangeStepsBy).
    void exchangeStepsBy(const Advector::StepExchange* exchange) { exchange_ = exchange; }

  private:
    using RowPass = void (*)(const PassFields&, const RowParts&, int j, int k);
    PassFields fieldsOf(const Block& b) const;
    // The passes.
    void semiLagrangian(const PassFields& f, const Block& b) const;
    void copyBack(const PassFields& f, const Block& b) const;
    void correct(const PassFields& f, const Block& b) const;
    // The one parallel runner: `pass` on each row of `box`, over each field's
    // part of it, slabs in parallel.
    static void forRows(const PassFields& f, const Box3i& box, const Region* regions, RowPass pass);

    const Centred& displacement_;
    SampleLayout shape_;
    bool macCormack_, inPlace_, revert_;
    float* const* steps_;
    float *lo_, *hi_;
    unsigned openSides_ = 0;
    const Advector::StepExchange* exchange_ = nullptr;
};

}  // namespace plume
