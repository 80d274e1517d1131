#include "cli/output_files.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/error.h"

namespace plume {

namespace fs = std::filesystem;

void ensureWritableDir(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw RunError("cannot create output folder '" + dir + "' (" + ec.message() + ")");
    std::string probe = (fs::path(dir) / (".plume_write_test_" + std::to_string(getpid()))).string();
    std::FILE* f = std::fopen(probe.c_str(), "w");
    if (!f) throw RunError("cannot write to output folder '" + dir + "' (" + std::strerror(errno) + ")");
    std::fclose(f);
    fs::remove(probe, ec);
}

std::string parentDir(const std::string& path) {
    fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? "." : parent.string();
}

std::string statsCsv(const std::vector<StatsRow>& rows) {
    std::string csv = "frame,substeps,pressure_iterations,pressure_residual,sim_s,render_s,write_s\n";
    char line[256];
    for (const StatsRow& r : rows) {
        std::snprintf(line, sizeof line, "%d,%d,%d,%.3g,%.4f,%.4f,%.4f\n", r.frame, r.substeps,
                      r.pressureIterations, double(r.pressureResidual), r.simSeconds, r.renderSeconds,
                      r.writeSeconds);
        csv += line;
    }
    return csv;
}

}  // namespace plume
