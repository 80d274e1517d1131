// A flipbook: the shot's frames as the cells of one texture sheet, the way
// game engines play smoke on a particle (Unity's VFX Graph, Unreal's SubUV,
// Godot's particle animation): frame 0 at the top left, row by row, each cell
// frame_size square with the frame inside its padding, on a transparent
// background. Here the layout, the cells put in place, and the sidecar's text
// (TexturePacker's JSON hash, as Pixi reads it); run/flipbook_sink.cpp
// writes them.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/image.h"
#include "core/vec.h"
#include "scene/scene.h"

namespace plume {

class FlipbookLayout {
  public:
    // The sheet of `settings` for the shot's frames first..last (frame
    // indices, inclusive); throws InputError when it asks for more frames
    // than the shot has.
    FlipbookLayout(const FlipbookSettings& settings, int first, int last);

    int cells() const { return int(frames_.size()); }
    // The shot's frame cell `cell` shows: first + floor(cell * shot / cells),
    // evenly spread and all different.
    int frameOf(int cell) const { return frames_[size_t(cell)]; }
    // The cell showing frame `index`, or -1 when no cell does.
    int cellOf(int index) const;
    // The top-left pixel of cell `cell`'s frame in the sheet (inside its padding).
    int frameX(int cell) const;
    int frameY(int cell) const;
    int frameSize() const { return settings_.imageSize(); }
    int sheetWidth() const { return settings_.sheetWidth(); }
    int sheetHeight() const { return settings_.sheetHeight(); }
    const FlipbookSettings& settings() const { return settings_; }

  private:
    FlipbookSettings settings_;
    std::vector<int> frames_;
};

// Puts an 8-bit frame (straight alpha RGBA, frameSize() square) into its
// cell of `sheet` (RGBA, the sheet's size); with premultiplied, its colour
// times its alpha, rounded.
void placeFlipbookCell(const FlipbookLayout& layout, int cell, const Image& frame,
                       bool premultiplied, Image& sheet);
// The same for linear premultiplied RGBA floats (Renderer::rgba) into a float
// sheet; with straight alpha the colour divided by alpha (0 where alpha is 0).
void placeFlipbookCell(const FlipbookLayout& layout, int cell, const std::vector<float>& frame,
                       bool premultiplied, std::vector<float>& sheet);

// What the sidecar says beyond the layout.
struct FlipbookInfo {
    std::string name;          // the scene's: frames are NAME_0000 ...
    std::string image;         // the sheet's file name, "NAME_colour.png"
    std::vector<int> numbers;  // the scene's frame number each cell shows
    double fps = 0;            // the sheet's playback rate: the shot's time in its cells
    std::string colorSpace;    // "srgb", or the EXR's working space
    // The camera's axes in the world: right and up of the image, back toward the camera.
    Vec3f right, up, back;
    bool orthographic = false;
    float orthoWidth = 0;  // metres a frame spans across, orthographic
    // Six-way (flipbook.kind): the two lightmap sheets' file names (image is the first).
    bool sixWay = false;
    std::string positive, negative;
    // The motion vectors' sheet, "" without; and the scale its RG are encoded with.
    std::string motion;
    double motionScale = 0;
    std::string motionFormat;  // "RGB16" (PNG) or "RGBA16F" (EXR)
    // [loop]: the loop's frames and its crossfade's (run/loop_blend.h); 0: no loop.
    int loopFrames = 0, loopOverlap = 0;
};

// The sidecar, NAME.json: a "frames" object keyed by frame name with each
// frame's rectangle, "animations" (Pixi's), and "meta" with the sheet's size,
// format and scale and plume's own fields (columns, rows, frames, fps,
// color_space, alpha, axes, motion_scale, and loop: null, or the loop's frames,
// mode and overlap).
std::string flipbookSidecar(const FlipbookLayout& layout, const FlipbookInfo& info);

}  // namespace plume
