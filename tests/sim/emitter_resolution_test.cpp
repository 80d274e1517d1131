// An emitter reads the same at any cell size (issue 57, item 1): a box
// about a cell thick on a coarse grid reaches its values, and holds the
// same smoke in all as on a grid twice as fine.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/emitters.h"
#include "sim/fields.h"

namespace plume {
namespace {

// The campfire's bed of fuel: 8 cm thick, its floor 10 cm up, on the
// campfire's grid at 32 cells (7.5 cm) and at 64 (3.75 cm).
struct Emitted {
    float peak = 0;
    double volume = 0;  // density x m^3
};

Emitted emitBed(int cells, float dx) {
    EmitterSettings e;
    e.shape = Shape::Box;
    e.center = {0.6f, 0.6f, 0.14f};
    e.size = {0.5f, 0.3f, 0.08f};
    e.density = 1.0f;
    Fields f({cells, cells, cells}, dx);
    applyEmitters(f, {e}, 1, 0.0);
    Emitted out;
    for (size_t n = 0; n < f.density.size(); ++n) {
        out.peak = std::max(out.peak, f.density[n]);
        out.volume += double(f.density[n]) * dx * dx * dx;
    }
    return out;
}

TEST(EmitterResolution, AThinBoxReachesItsValuesOnACoarseGrid) {
    const Emitted coarse = emitBed(16, 0.075f), fine = emitBed(32, 0.0375f);
    EXPECT_EQ(fine.peak, 1.0f);
    // A ramp a cell wide gave the coarse bed two-thirds of its density at most.
    EXPECT_GE(coarse.peak, 0.8f);
}

TEST(EmitterResolution, AThinBoxHoldsTheSameSmokeAtAnyCellSize) {
    const Emitted coarse = emitBed(16, 0.075f), fine = emitBed(32, 0.0375f);
    const double box = 0.5 * 0.3 * 0.08;
    EXPECT_NEAR(fine.volume, box, 0.1 * box);
    EXPECT_NEAR(coarse.volume, fine.volume, 0.1 * fine.volume);
}

// A sheet 1 cm thick midway between two rows of 7.5 cm cells' centres.
TEST(EmitterResolution, ASheetThinnerThanACellStillEmits) {
    EmitterSettings e;
    e.shape = Shape::Box;
    e.center = {0.6f, 0.6f, 0.15f};
    e.size = {0.5f, 0.3f, 0.01f};
    Fields f({16, 16, 16}, 0.075f);
    applyEmitters(f, {e}, 1, 0.0);
    float peak = 0.0f;
    for (size_t n = 0; n < f.density.size(); ++n) peak = std::max(peak, f.density[n]);
    EXPECT_GT(peak, 0.0f);
}

// The campfire's bed over its logs: where the logs fill the bed's cells (at
// 32 cells, a log 12 cm high fills the one row the bed covers), the bed's
// smoke comes out of the first cell above them, so it holds about what it
// holds over open ground instead of nothing.
TEST(EmitterResolution, ABedOverSolidCellsEmitsOnTheirTop) {
    const float dx = 0.075f;
    const int n = 16;
    auto bed = [&](bool logs) {
        EmitterSettings e;
        e.shape = Shape::Box;
        e.center = {0.6f, 0.6f, 0.14f};
        e.size = {0.5f, 0.3f, 0.08f};
        e.density = 1.0f;
        Fields f({n, n, n}, dx);
        if (logs)  // the cells whose centres lie under 12 cm: rows 0 and 1
            for (int k = 0; k < 2; ++k)
                for (int j = 0; j < n; ++j)
                    for (int i = 0; i < n; ++i) f.solid(i, j, k) = 1;
        applyEmitters(f, {e}, 1, 0.0);
        double volume = 0.0;
        for (size_t c = 0; c < f.density.size(); ++c)
            volume += double(f.density[c]) * dx * dx * dx;
        return std::pair(volume, f.density(8, 8, 2));
    };
    const auto [open, unused] = bed(false);
    const auto [overLogs, above] = bed(true);
    EXPECT_GE(above, 0.8f) << "the row above the logs took nothing of the bed";
    EXPECT_NEAR(overLogs, open, 0.35 * open);
}

}  // namespace
}  // namespace plume
