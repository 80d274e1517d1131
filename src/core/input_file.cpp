#include "core/input_file.h"

#include <sys/stat.h>

#include "core/error.h"

namespace plume {

std::string notRegularFile(const std::string& path) {
    struct stat info;
    if (::stat(path.c_str(), &info) != 0 || S_ISREG(info.st_mode)) return "";
    const mode_t mode = info.st_mode;
    const char* kind = S_ISDIR(mode)    ? "a directory"
                       : S_ISFIFO(mode) ? "a FIFO"
                       : S_ISCHR(mode)  ? "a character device"
                       : S_ISBLK(mode)  ? "a block device"
                       : S_ISSOCK(mode) ? "a socket"
                                        : "something else";
    return std::string(kind) + ", not a regular file";
}

void checkRegularFile(const std::string& path, const std::string& what) {
    if (std::string why = notRegularFile(path); !why.empty())
        throw InputError(SourceLocation{path}, "cannot read " + what + " (" + why + ")");
}

}  // namespace plume
