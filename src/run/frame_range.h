// --frames A-B: which of a shot's frames a run writes. Every command that
// takes --frames reads it here (render, bake, render-vdb, encode, upres, preview),
// and so does a cache's own numbering (run/cache_sequence.h).
#pragma once

#include <string>

namespace plume {

// "A-B" or "A", frame numbers within [firstFrame, lastFrame]; throws
// InputError naming --frames.
void parseFrameRange(const std::string& text, int firstFrame, int lastFrame, int& first, int& last);

}  // namespace plume
