// Output paths, checked before any simulation work so a run that cannot
// write its results fails at once instead of after hours of baking.
#pragma once

#include <string>

namespace plume {

// Creates `dir` if needed and proves it writable; throws RunError otherwise.
// Removes the temporaries a killed run left in it (removeStaleTemporaries).
void ensureWritableDir(const std::string& dir);
// Proves a file can be written at `path`: its folder is writable and the path
// is not a folder; removes the temporaries of this path a killed run left.
// A device or a FIFO is written in place (core/atomic_file.h): it must be
// writable, and for a writer that seeks (`seeking` names its format, "an
// MP4") seekable, or the InputError says why. Throws RunError naming the path
// otherwise.
void ensureWritableFile(const std::string& path, const char* seeking = nullptr);
// Refuses up front, as ensureWritableFile does, a frame file in `dir` (a name
// starting with `prefix` and ending with `extension`) that is a FIFO or a
// device that cannot seek, for a writer that seeks (`seeking`: "an EXR").
void refuseUnseekableFrames(const std::string& dir, const std::string& prefix,
                            const std::string& extension, const char* seeking);
// The folder a file path will be written in ("." for a bare name).
std::string parentDir(const std::string& path);

}  // namespace plume
