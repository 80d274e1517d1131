#include "io/frame_name.h"

#include <cstdio>
#include <filesystem>

namespace plume {

namespace {

std::string inDir(const std::string& dir, const std::string& file) {
    return dir.empty() ? file : (std::filesystem::path(dir) / file).string();
}

}  // namespace

std::string frameFileName(const std::string& dir, const std::string& name, int frame,
                          const std::string& extension) {
    char digits[16];
    std::snprintf(digits, sizeof digits, "%04d", frame);
    return inDir(dir, name + "_" + digits + extension);
}

std::string frameFilePattern(const std::string& dir, const std::string& name,
                             const std::string& extension) {
    return inDir(dir, name + "_####" + extension);
}

}  // namespace plume
