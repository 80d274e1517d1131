// plume encode: a PNG or EXR frame sequence to the MP4 that plume render
// writes (io/video_encoder.h), e.g. the frames of a farm's render jobs.
#pragma once

#include <string>
#include <vector>

#include "cli/commands.h"

namespace plume {

// The frames in first..last that no file of the sequence holds, as text:
// "3, 7-9". Empty when none is missing.
std::string missingFrames(const std::vector<int>& present, int first, int last);

// Encodes opt.inputs ('DIR/NAME_####.png' or .exr, or a folder holding one
// such sequence; several are tiled) into opt.output. Every frame from the
// first to the last (or those of --frames) must be there and of one size;
// otherwise InputError, before anything is written. The video goes to a
// temporary name and is renamed into place only when whole.
int runEncode(const RunOptions& opt);

}  // namespace plume
