// The machine a run ran on, as a report states it: a run's timings mean
// little without the CPU, cores, memory, OS and build that made them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace plume {

// ("CPU", "AMD EPYC 7B13"), ("Cores", "2 (2 threads used)"), ("Memory", "15.5 GiB"),
// ("OS", "Debian GNU/Linux 12 (bookworm), Linux 6.1.0"), ("plume", "0.1.0 (Release, GCC 12.2.0)").
// Whatever cannot be read says "unknown". threads: the worker threads the run uses.
std::vector<std::pair<std::string, std::string>> machineInfo(int threads);

// Physical memory of this machine (0 when unknown).
std::uint64_t machineMemoryBytes();

// The date and time now, UTC, as "2026-11-26 04:12:09 UTC".
std::string utcNow();

}  // namespace plume
