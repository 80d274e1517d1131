// The names of a sequence's frame files, in one place: every output of a run
// (VDB cache, PNG and EXR frames), the farm's scripts and the tests name
// frames here, so the writer and whatever reads the files back agree.
#pragma once

#include <string>

namespace plume {

// DIR/NAME_0001.EXT (EXT with its dot): four digits, as Blender's sequence
// import expects (more past frame 9999); NAME_0001.EXT for an empty dir.
std::string frameFileName(const std::string& dir, const std::string& name, int frame,
                          const std::string& extension);

// DIR/NAME_####.EXT: the pattern naming every frameFileName of a sequence, as
// expandSequence (io/sequence.h) reads it.
std::string frameFilePattern(const std::string& dir, const std::string& name,
                             const std::string& extension);

}  // namespace plume
