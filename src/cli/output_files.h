// Output folders, checked before any simulation work, and the stats table.
#pragma once

#include <string>
#include <vector>

namespace plume {

// Creates `dir` if needed and proves it writable; throws RunError otherwise.
void ensureWritableDir(const std::string& dir);
// The folder a file path will be written in ("." for a bare name).
std::string parentDir(const std::string& path);

// The per-frame timing table that --stats writes.
struct StatsRow {
    int frame;
    int substeps;
    int pressureIterations;
    float pressureResidual;
    double simSeconds, renderSeconds, writeSeconds;
};
std::string statsCsv(const std::vector<StatsRow>& rows);

}  // namespace plume
