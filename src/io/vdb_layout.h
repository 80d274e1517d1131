// A bounds-checked walk over the parts of a .vdb file that OpenVDB reads when
// it opens one: the header, the file metadata and each grid's descriptor.
//
// OpenVDB trusts every length it reads there; in a file cut short (a full
// disk, an interrupted copy) a read past the end leaves a length unset and
// it allocates gigabytes for a string. Walking the same layout first, with
// every length checked against the file size, turns such a file into a
// one-line error before OpenVDB sees it.
#pragma once

#include <string>

namespace plume {

// Empty when the file's header, metadata and grid descriptors lie within the
// file and every grid ends inside it; otherwise what is wrong, for a message.
// A file that does not start as a VDB file passes (OpenVDB rejects it safely).
std::string vdbLayoutProblem(const std::string& path);

}  // namespace plume
