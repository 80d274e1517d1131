// A fresh directory per test inside this build's tree (PLUME_TEST_SCRATCH, as
// scratchDir in support/run.h), removed afterwards: the system's temporary
// directory is left as the tests found it.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace plume::test {

class TempDir {
  public:
    // The pid and a count keep the folders of tests run at once (ctest -j
    // runs each test in a process of its own) apart.
    explicit TempDir(const std::string& prefix = "plume_test") {
        static int counter = 0;
        path_ = std::filesystem::path(PLUME_TEST_SCRATCH) /
                (prefix + "_" + std::to_string(::getpid()) + "_" + std::to_string(++counter));
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

}  // namespace plume::test
