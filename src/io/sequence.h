// Names of cache files: the frame files plume writes and the sequences
// render-vdb reads (plume's own, Blender's, EmberGen's). No OpenVDB here.
#pragma once

#include <string>
#include <vector>

namespace plume {

// DIR/NAME_0001.vdb: 4-digit padding, frames from time.start_frame, more digits past 9999,
// the layout Blender's sequence import recognises.
std::string cacheFramePath(const std::string& dir, const std::string& name, int frame);

struct SequenceFile {
    std::string path;
    int frame = 1;
};

// Expands what a user passes to render-vdb into files sorted by frame:
//  - 'DIR/NAME_####.vdb' (any run of '#': that many digits, more past the padding),
//  - printf-style 'DIR/NAME_%04d.vdb' (or '%d'),
//  - an existing file (its trailing number is the frame, 1 without one),
//  - a directory (expandFolder, for files of this kind).
// Throws RunError naming the pattern when nothing matches, InputError when a
// directory holds more than one sequence, for a shell glob ('DIR/*.vdb': it
// names the pattern to use), or when the path (or a file the pattern
// matches) is there but no regular file: "PATH: error: cannot read VDB file
// (a FIFO, not a regular file)". kind names the files in messages ("no PNG
// files match ...") and their extension: "VDB", "PNG", "EXR".
std::vector<SequenceFile> expandSequence(const std::string& pattern,
                                         const std::string& kind = "VDB");

// Whether the file name in `path` holds a frame field (a run of '#', or
// '%d' / '%0Nd'), so that it names a sequence rather than one file.
bool isFramePattern(const std::string& path);

// The file of frame `frame` in such a pattern: 'DIR/body_####.obj' and 7
// give 'DIR/body_0007.obj'.
std::string framePatternFile(const std::string& pattern, int frame);

// The one sequence in folder `dir`: every file ending in one of `extensions`
// (lower case: ".png", ".exr") with a trailing frame number, or its lone
// unnumbered file. InputError "'DIR': error: holds more than one sequence
// (a_####.png, b_####.exr); pass one as a pattern, ..." when the names
// around the numbers differ; RunError when there is none.
std::vector<SequenceFile> expandFolder(const std::string& dir,
                                       const std::vector<std::string>& extensions,
                                       const std::string& kind);

}  // namespace plume
