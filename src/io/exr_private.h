// What io's EXR writers share (exr_file.cpp, deep_exr.cpp): OpenEXR's types
// stay inside io, behind these files.
#pragma once

#include <ImfRational.h>

namespace plume {

// The frame rate as the rational EXR stores: whole rates exactly, the NTSC
// ones (23.976, 29.97, 59.94) as n*1000/1001, as the MP4's time base has them.
Imf::Rational exrFramesPerSecond(double fps);

}  // namespace plume
