// Files plume reads (scenes, meshes and level sets, VDB caches and resume
// states, PNG and EXR frames) are looked at here before anything opens them:
// opening a FIFO waits for a writer that may never come, a device reads
// without end, a directory is no file. Each is refused in one line instead.
#pragma once

#include <string>

namespace plume {

// What path names when it is there but is not a regular file once symlinks
// are followed: "a FIFO, not a regular file", "a directory, not a regular
// file", ... Empty for a regular file, and for a path that is not there or
// cannot be looked at: whoever opens it reports those in its own words.
std::string notRegularFile(const std::string& path);

// Throws InputError "PATH: error: cannot read WHAT (a FIFO, not a regular
// file)" when notRegularFile(path) says why. what: "scene file", "VDB file".
void checkRegularFile(const std::string& path, const std::string& what);

}  // namespace plume
