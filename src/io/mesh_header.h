// What a mesh file's header promises, held against the file's size before
// Assimp reads it. Assimp sizes its arrays from the header's counts: a PLY
// claiming 10^9 faces in a few bytes takes gigabytes before it fails. A
// binary STL's triangle count is held to its size exactly, in 64 bits, so a
// count that wraps in 32 cannot pass.
#pragma once

#include <string>

namespace plume {

// Empty when the header's counts fit in the file (or the format carries no
// counts: OBJ is read line by line); otherwise why not, for a message:
// "its header promises 1000000000 face elements, at least 13000000000 bytes;
// the file has 12 after its header". Checks PLY (ascii and binary) and STL.
std::string meshHeaderProblem(const std::string& path);

}  // namespace plume
