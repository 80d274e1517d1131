// Output paths, checked before any simulation work so a run that cannot
// write its results fails at once instead of after hours of baking.
#pragma once

#include <string>

namespace plume {

// Creates `dir` if needed and proves it writable; throws RunError otherwise.
void ensureWritableDir(const std::string& dir);
// Proves a file can be written at `path`: its folder is writable and the path
// is not a folder. Throws RunError naming the path otherwise.
void ensureWritableFile(const std::string& path);
// The folder a file path will be written in ("." for a bare name).
std::string parentDir(const std::string& path);

}  // namespace plume
