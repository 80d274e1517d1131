// Output paths, checked before any simulation work so a run that cannot
// write its results fails at once instead of after hours of baking.
#pragma once

#include <string>

namespace plume {

// Proves `dir` can be made and written, making nothing (a refused run leaves
// no folder behind): InputError when a part of it is a file, RunError when the
// folder it would go in refuses. Removes the temporaries a killed run left in
// it (removeStaleTemporaries).
void ensureWritableDir(const std::string& dir);
// Makes `dir` (and its parents) once every output was checked; throws
// RunError when it cannot. "" makes nothing.
void makeOutputDir(const std::string& dir);
// The folder a file output is written in, to make before writing it; "" for a
// device or a FIFO, written in place.
std::string folderOfFile(const std::string& path);
// Proves a file can be written at `path`, as ensureWritableDir its folder
// (which it does not make: makeOutputDir(parentDir(path))), and the path is
// not a folder; removes the temporaries of this path a killed run left.
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
// "24 PNG frames to frames/": a folder of per-frame files (`kind` "PNG"), as
// the closing line names it; "" for none.
std::string framesTo(int frames, const std::string& kind, const std::string& dir);

}  // namespace plume
