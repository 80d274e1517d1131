// A flipbook's layout (render/output/flipbook.h): which frames the cells show,
// where each sits in the sheet, and the colour a cell takes.
#include <gtest/gtest.h>

#include <vector>

#include "core/error.h"
#include "render/output/flipbook.h"

namespace plume {
namespace {

FlipbookSettings sheet(int columns, int rows, int frameSize, int frames, int padding = 0) {
    FlipbookSettings s;
    s.columns = columns, s.rows = rows, s.frameSize = frameSize, s.frames = frames;
    s.padding = padding;
    return s;
}

TEST(FlipbookLayout, FramesAreSampledEvenlyFromTheShot) {
    const FlipbookLayout layout(sheet(4, 2, 64, 6), 1, 24);
    std::vector<int> frames;
    for (int c = 0; c < layout.cells(); ++c) frames.push_back(layout.frameOf(c));
    EXPECT_EQ(frames, (std::vector<int>{1, 5, 9, 13, 17, 21}));
    EXPECT_EQ(layout.cellOf(9), 2);
    EXPECT_EQ(layout.cellOf(10), -1);
    // frames = 0: a frame a cell; a shot as long as the sheet: every frame.
    const FlipbookLayout every(sheet(2, 2, 64, 0), 3, 6);
    EXPECT_EQ(every.cells(), 4);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(every.frameOf(c), 3 + c);
    EXPECT_THROW(FlipbookLayout(sheet(2, 2, 64, 0), 1, 3), InputError);
}

TEST(FlipbookLayout, CellsGoRowByRowFromTheTopLeftInsideTheirPadding) {
    const FlipbookLayout layout(sheet(4, 2, 64, 8, 3), 1, 8);
    EXPECT_EQ(layout.sheetWidth(), 256);
    EXPECT_EQ(layout.sheetHeight(), 128);
    EXPECT_EQ(layout.frameSize(), 58);
    EXPECT_EQ(layout.frameX(0), 3);
    EXPECT_EQ(layout.frameY(0), 3);
    EXPECT_EQ(layout.frameX(5), 67);
    EXPECT_EQ(layout.frameY(5), 67);
}

TEST(FlipbookLayout, PremultipliedCellsAreTheColourTimesAlpha) {
    const FlipbookLayout layout(sheet(2, 1, 16, 2), 1, 2);
    Image frame(16, 16, 4);
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) {
            uint8_t* p = frame.pixel(x, y);
            p[0] = 255, p[1] = 101, p[2] = 0, p[3] = uint8_t(x * 17);
        }
    Image straight(32, 16, 4), premultiplied(32, 16, 4);
    placeFlipbookCell(layout, 1, frame, false, straight);
    placeFlipbookCell(layout, 1, frame, true, premultiplied);
    EXPECT_EQ(straight.pixel(16 + 3, 2)[1], 101);
    EXPECT_EQ(premultiplied.pixel(16 + 3, 2)[0], 51);  // 255 x 51 / 255
    EXPECT_EQ(premultiplied.pixel(16 + 3, 2)[1], 20);  // 101 x 51 / 255 = 20.2
    EXPECT_EQ(premultiplied.pixel(16 + 3, 2)[3], 51);
    EXPECT_EQ(premultiplied.pixel(3, 2)[3], 0);  // cell 0 left transparent

    // Floats: linear premultiplied in, straight out where asked.
    std::vector<float> rgba(16 * 16 * 4, 0.0f), out(32 * 16 * 4, 0.0f);
    rgba[0] = 0.25f, rgba[3] = 0.5f;
    placeFlipbookCell(layout, 1, rgba, false, out);
    EXPECT_FLOAT_EQ(out[16 * 4], 0.5f);
    EXPECT_FLOAT_EQ(out[16 * 4 + 3], 0.5f);
    EXPECT_FLOAT_EQ(out[17 * 4], 0.0f);  // alpha 0 stays black, not NaN
}

}  // namespace
}  // namespace plume
