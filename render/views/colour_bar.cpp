#include "render/views/colour_bar.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "render/views/bitmap_font.h"

namespace plume {

std::string barNumber(float v) {
    if (v == 0.0f) return "0";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", double(v));
    return buf;
}

void drawColourBar(Image& image, ColourMap map, float lo, float hi, const std::string& title,
                   const std::string& caption) {
    // Sized by the frame's height: at 720 lines the font is 3 pixels a dot.
    const int scale = std::max(1, (image.height + 120) / 240);
    const int margin = 6 * scale, gap = 3 * scale;
    const int barW = 5 * scale, barH = std::max(8, image.height * 2 / 5);
    const int right = image.width - margin;
    const int barX = right - barW;
    const int barY = margin + textHeight(scale) + 3 * gap;

    // The title right-aligned above the bar (from the left edge when the
    // frame is too narrow for it).
    drawLabel(image, std::max(scale, right - textWidth(title, scale)), margin, title, scale);

    // The bar, top row hi, with a dark frame a font pixel wide.
    for (int y = barY - scale; y < barY + barH + scale; ++y)
        for (int x = barX - scale; x < barX + barW + scale; ++x) {
            if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
            const bool inside = y >= barY && y < barY + barH && x >= barX && x < barX + barW;
            const float t = 1.0f - (float(y - barY) + 0.5f) / float(barH);
            const Vec3f c = inside ? colourAt(map, t) : Vec3f(16.0f / 255.0f);
            uint8_t* p = image.pixel(x, y);
            p[0] = uint8_t(std::lround(c.x * 255.0f));
            p[1] = uint8_t(std::lround(c.y * 255.0f));
            p[2] = uint8_t(std::lround(c.z * 255.0f));
        }

    // Its values at the ends (and zero in the middle of a signed one), to its left.
    auto tick = [&](float value, int y) {
        const std::string text = barNumber(value);
        const int x = barX - gap - scale - textWidth(text, scale);
        drawLabel(image, x, std::clamp(y - textHeight(scale) / 2, 0, image.height - 1), text,
                  scale);
    };
    tick(hi, barY);
    tick(lo, barY + barH - 1);
    if (lo < 0.0f && hi > 0.0f) tick(0.0f, barY + barH / 2);

    if (!caption.empty())
        drawLabel(image, std::max(scale, right - textWidth(caption, scale)),
                  barY + barH + 2 * gap + scale, caption, scale);
}

}  // namespace plume
