#include "cli/output_paths.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/error.h"

namespace plume {

namespace fs = std::filesystem;

void ensureWritableDir(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw RunError("cannot create output folder '" + dir + "' (" + ec.message() + ")");
    const std::string probe = temporaryPath((fs::path(dir) / ".plume_write_test").string(), "");
    std::FILE* f = std::fopen(probe.c_str(), "w");
    if (!f)
        throw RunError("cannot write to output folder '" + dir + "' (" + std::strerror(errno) +
                       ")");
    std::fclose(f);
    fs::remove(probe, ec);
}

void ensureWritableFile(const std::string& path) {
    ensureWritableDir(parentDir(path));
    // A folder in the way would only be found at the final rename, after all the work.
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw RunError("cannot write '" + path + "': it is a folder");
}

std::string parentDir(const std::string& path) {
    fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? "." : parent.string();
}

}  // namespace plume
