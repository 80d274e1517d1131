// Whether any of a set of files changed: each one's size and modification
// time, compared with the last look. Polled (a few times a second), so an
// editor's save by rename, a file that appears or one that goes all count.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace plume {

class FileWatch {
  public:
    // The files to watch; the first look happens here.
    void watch(std::vector<std::string> paths);
    // True when a file's size or time differs from the last look (then the
    // look is taken anew).
    bool changed();
    const std::vector<std::string>& paths() const { return paths_; }
    // When the newest of the files was last written (the save), as the
    // system clock counts; the epoch when none can be read.
    std::chrono::system_clock::time_point newest() const;

  private:
    std::string look() const;

    std::vector<std::string> paths_;
    std::string last_;
};

}  // namespace plume
