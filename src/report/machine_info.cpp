#include "report/machine_info.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <thread>

#include "scene/describe.h"

#ifndef PLUME_BUILD_TYPE
#define PLUME_BUILD_TYPE "unknown build type"
#endif

namespace plume {

namespace {

// The value of the first line of a "key<tab>: value" or key="value" file
// (/proc/cpuinfo, /etc/os-release) whose key is `key`; "" when none.
std::string fileValue(const char* path, const std::string& key, char separator) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        const size_t at = line.find(separator);
        if (at == std::string::npos) continue;
        std::string name = line.substr(0, at);
        while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
        if (name != key) continue;
        std::string value = line.substr(at + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '"')) value.erase(0, 1);
        while (!value.empty() && value.back() == '"') value.pop_back();
        return value;
    }
    return {};
}

std::string orUnknown(std::string s) { return s.empty() ? "unknown" : s; }

}  // namespace

std::uint64_t machineMemoryBytes() {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) return 0;
    return std::uint64_t(pages) * std::uint64_t(pageSize);
}

std::vector<std::pair<std::string, std::string>> machineInfo(int threads) {
    std::vector<std::pair<std::string, std::string>> info;
    info.emplace_back("CPU", orUnknown(fileValue("/proc/cpuinfo", "model name", ':')));
    const unsigned cores = std::thread::hardware_concurrency();
    std::string used = threads > 0 ? std::to_string(threads) + " worker threads" : "all used";
    info.emplace_back("Cores", (cores ? std::to_string(cores) : "unknown") + " (" + used + ")");
    const std::uint64_t memory = machineMemoryBytes();
    info.emplace_back("Memory", memory ? formatGiB(memory) + " GiB" : "unknown");
    std::string os = orUnknown(fileValue("/etc/os-release", "PRETTY_NAME", '='));
    struct utsname u {};
    if (uname(&u) == 0) os += std::string(", ") + u.sysname + " " + u.release + " " + u.machine;
    info.emplace_back("OS", os);
    std::string build = std::string(PLUME_VERSION) + " (" + PLUME_BUILD_TYPE;
#if defined(__clang__)
    build += ", clang " __clang_version__;
#elif defined(__GNUC__)
    build += ", GCC " __VERSION__;
#endif
    info.emplace_back("plume", build + ")");
    return info;
}

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[64];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return text;
}

}  // namespace plume
