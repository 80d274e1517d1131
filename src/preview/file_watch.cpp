#include "preview/file_watch.h"

#include <sys/stat.h>

#include <algorithm>

namespace plume {

void FileWatch::watch(std::vector<std::string> paths) {
    paths_ = std::move(paths);
    last_ = look();
}

bool FileWatch::changed() {
    std::string now = look();
    if (now == last_) return false;
    last_ = std::move(now);
    return true;
}

std::chrono::system_clock::time_point FileWatch::newest() const {
    std::chrono::system_clock::time_point latest{};
    for (const std::string& path : paths_) {
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) continue;
        const auto t = std::chrono::system_clock::time_point(
            std::chrono::duration_cast<std::chrono::system_clock::duration>(
                std::chrono::seconds(st.st_mtim.tv_sec) +
                std::chrono::nanoseconds(st.st_mtim.tv_nsec)));
        latest = std::max(latest, t);
    }
    return latest;
}

std::string FileWatch::look() const {
    std::string state;
    for (const std::string& path : paths_) {
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) {
            state += "-\n";
            continue;
        }
        state += std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
                 std::to_string(st.st_mtim.tv_nsec) + " " + std::to_string(st.st_ino) + "\n";
    }
    return state;
}

}  // namespace plume
