// OpenEXR frames: linear, half-float RGBA with premultiplied alpha, the form
// compositors (Nuke, Blender, Resolve) take without conversion. The only file
// that includes OpenEXR is exr_file.cpp.
#pragma once

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
};

// Writes width x height premultiplied linear RGBA (row 0 at the top) as a
// half-float, ZIP-compressed scanline EXR with channels R, G, B, A, through a
// temporary and a rename (core/atomic_file.h). The header names plume as
// "software" and carries the frame number; nothing in it depends on the time
// or machine, so one frame always gives the same bytes. Throws RunError
// naming the path on failure.
void writeExr(const std::string& path, int width, int height, const std::vector<float>& rgba,
              int frame);

// Reads an RGBA EXR into floats (a missing channel reads as 0, alpha as 1).
// Throws RunError naming the path when it cannot be read, InputError when its
// header asks for more pixels than the file's size can hold compressed.
ExrImage readExr(const std::string& path);

}  // namespace plume
