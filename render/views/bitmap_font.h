// Text burnt into frames (the labels of a wedge video), with a built-in 5x7
// pixel font: no font file or text library needed on the render nodes.
#pragma once

#include <string>

#include "core/image.h"

namespace plume {

// Width and height in pixels of text drawn at this scale (each font pixel a
// scale x scale square, one column between letters).
int textWidth(const std::string& text, int scale);
int textHeight(int scale);

// Draws text with its top-left corner at (x, y) in white over a dark box, so
// it reads on smoke and background alike; clipped to the image. Lowercase
// letters are drawn as capitals; a character the font lacks as a '?'.
void drawLabel(Image& image, int x, int y, const std::string& text, int scale);

}  // namespace plume
