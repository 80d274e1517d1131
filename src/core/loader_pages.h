#pragma once

namespace plume {

// Lets go of the pages the dynamic linker read to load the program's
// libraries: the first, read-only segment of each (symbol tables, hash
// tables, relocations), which nothing reads again once they are bound.
// Debian's OpenVDB alone keeps 25 MB of them resident in every process.
// The pages stay in the page cache; a late lookup reads its few back.
// Returns the kilobytes let go.
long releaseLoaderPages();

}  // namespace plume
