#include "run/output_paths.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/report.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

// Proves `dir` could be made and written without making it: the nearest part
// of it that exists is a folder this process can write. A part that is a file
// is the user's mistake (exit 2); a folder that refuses is the machine's.
void checkWritableDir(const std::string& dir) {
    std::error_code ec;
    fs::path existing = fs::path(dir).lexically_normal();
    while (!existing.empty() && !fs::exists(fs::symlink_status(existing, ec)))
        existing = existing.parent_path();
    if (existing.empty()) existing = ".";
    if (!fs::is_directory(existing, ec))
        throw InputError("cannot make output folder '" + dir + "': '" + existing.string() +
                         "' is a file, not a folder");
    if (access(existing.c_str(), W_OK | X_OK) != 0)
        throw RunError("cannot write to output folder '" + dir + "' (" + std::strerror(errno) +
                       ")");
}

}  // namespace

void ensureWritableDir(const std::string& dir) {
    checkWritableDir(dir);
    std::error_code ec;
    if (fs::is_directory(dir, ec)) removeStaleTemporaries(dir);
}

void makeOutputDir(const std::string& dir) {
    if (dir.empty()) return;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw RunError("cannot create output folder '" + dir + "' (" + ec.message() + ")");
}

std::string folderOfFile(const std::string& path) {
    return outputTarget(path) == OutputTarget::File ? parentDir(path) : std::string();
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
    if (fs::is_directory(dir, ec)) removeStaleTemporaries(dir, fs::path(path).filename().string() + ".");
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

std::string framesTo(int frames, const std::string& kind, const std::string& dir) {
    if (frames == 0) return {};
    return countOf(frames, kind + " frame") + " to " + dir + (dir.ends_with('/') ? "" : "/");
}

}  // namespace plume
