// The -o of a command that writes a video: an .mp4 file. The encoder writes
// MP4 whatever the name says (its muxer is fixed), so a name that promises
// another container (.avi, .mov, .mkv), none at all, or a folder is a usage
// error found before any work.
#pragma once

#include <string>

namespace plume {

// Throws InputError "-o PATH: error: ..." (exit 2) unless path names an .mp4
// file (any case) or something that is there and no regular file or folder
// (a device, a FIFO: output_paths decides those).
void checkVideoOutput(const std::string& path);

}  // namespace plume
