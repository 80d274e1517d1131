#include "cli/output_paths.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/error.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

// Creates `dir` if needed and proves it writable.
void checkWritableDir(const std::string& dir) {
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

}  // namespace

void ensureWritableDir(const std::string& dir) {
    checkWritableDir(dir);
    removeStaleTemporaries(dir);
}

void ensureWritableFile(const std::string& path, const char* seeking) {
    // A folder in the way would only be found at the final rename, after all the work.
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw RunError("cannot write '" + path + "': it is a folder");
    switch (outputTarget(path)) {
        case OutputTarget::Device:
        case OutputTarget::Stream:
        case OutputTarget::Socket:
            // Written in place: nothing is made beside it, so its folder need
            // not be writable; the device itself must be.
            requireWritableTarget(path, seeking);
            if (access(path.c_str(), W_OK) != 0)
                throw RunError("cannot write '" + path + "': " + std::strerror(errno));
            return;
        case OutputTarget::File:
        case OutputTarget::Folder:
            break;
    }
    const std::string dir = parentDir(path);
    checkWritableDir(dir);
    removeStaleTemporaries(dir, fs::path(path).filename().string() + ".");
}

void refuseUnseekableFrames(const std::string& dir, const std::string& prefix,
                            const std::string& extension, const char* seeking) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        std::error_code typeEc;
        if (!name.starts_with(prefix) || !name.ends_with(extension) ||
            entry.is_regular_file(typeEc))
            continue;
        requireWritableTarget(entry.path().string(), seeking);
    }
}

std::string parentDir(const std::string& path) {
    fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? "." : parent.string();
}

}  // namespace plume
