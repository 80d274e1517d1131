// OpenEXR frames: linear, half-float RGBA with premultiplied alpha, the form
// compositors (Nuke, Blender, Resolve) take without conversion. The only file
// that includes OpenEXR is exr_file.cpp.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace plume {

// What an EXR file holds, as readExr returns it.
struct ExrImage {
    int width = 0, height = 0;
    std::vector<float> rgba;            // width * height * 4, row 0 at the top
    std::vector<std::string> channels;  // channel names in the file, e.g. A, B, G, R
    bool half = false;                  // every channel stored as 16-bit half
    std::string software;               // the "software" attribute ("" when absent)
    int frame = 0;                      // the "frame" attribute (0 when absent)
    // The "chromaticities" attribute: red, green, blue, white (x, y each);
    // Rec. 709's when absent, as OpenEXR takes it.
    std::array<float, 8> chromaticities{0.64f, 0.33f, 0.30f, 0.60f, 0.15f, 0.06f, 0.3127f, 0.3290f};
    // The "plume_exposure" attribute: the render.exposure its run tone-mapped
    // the same frame with, so plume encode gives the render's picture.
    std::optional<float> exposure;
};

// Writes width x height premultiplied linear RGBA (row 0 at the top) as a
// half-float, ZIP-compressed scanline EXR with channels R, G, B, A, through a
// temporary and a rename (core/atomic_file.h). The header names plume as
// "software" and carries the frame number, the chromaticities (here Rec. 709
// primaries, D65 white) and the frame rate `fps` as a rational
// (exrFramesPerSecond; left out when fps is 0); nothing in it depends on the
// time or machine, so one frame always gives the same bytes. Throws RunError
// naming the path on failure.
void writeExr(const std::string& path, int width, int height, const std::vector<float>& rgba,
              int frame, double fps);

// A layer of a multi-layer EXR beside R, G, B, A: channels NAME.R, NAME.G,
// NAME.B (or NAME.Z ...), as Nuke, Blender and oiiotool name a layer's.
struct ExrLayer {
    std::string name;                   // "light_1"
    std::vector<std::string> channels;  // "R", "G", "B"; or "Z"
    std::vector<float> pixels;          // width * height * channels, interleaved, row 0 at the top
    bool half = true;                   // false: 32-bit float (depth wants its precision)
};

// The primaries and white (x, y each: red, green, blue, white) of the
// pixels' colour space, as the header's chromaticities say them.
using ExrChromaticities = std::array<float, 8>;
constexpr ExrChromaticities kRec709Chromaticities{0.64f, 0.33f, 0.30f, 0.60f,
                                                  0.15f, 0.06f, 0.3127f, 0.3290f};

// writeExr with `layers` beside the RGBA, in one file (a single part), its
// colour in the space `chromaticities` names (output.color_space), and the
// exposure the run's video and PNGs were tone-mapped with (plume_exposure).
void writeExr(const std::string& path, int width, int height, const std::vector<float>& rgba,
              int frame, double fps, const std::vector<ExrLayer>& layers,
              const ExrChromaticities& chromaticities = kRec709Chromaticities,
              std::optional<float> exposure = std::nullopt);

// Every channel of an EXR as floats by its full name ("R", "light_1.R"),
// width * height each, row 0 at the top. Throws as readExr does.
struct ExrChannels {
    int width = 0, height = 0;
    std::map<std::string, std::vector<float>> channels;
    std::map<std::string, bool> half;  // whether each is stored as 16-bit half
};
ExrChannels readExrChannels(const std::string& path);

// Reads an RGBA EXR into floats (a missing channel reads as 0, alpha as 1).
// Throws RunError naming the path when it cannot be read, InputError when its
// header asks for more pixels than the file's size can hold compressed.
ExrImage readExr(const std::string& path);

}  // namespace plume
