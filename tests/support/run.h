// Running the real plume binary from tests: exit status, stdout and stderr.
#pragma once

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace plume::test {

struct RunResult {
    int status = -1;  // exit status, or 128 + signal
    std::string out, err;
};

// A file's bytes ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Runs `args` (shell words, already quoted as needed) with the plume binary,
// in `dir`, with `env` ("NAME=value ...") added to its environment. stderr
// and stdout are captured to files beside the test.
inline RunResult runPlume(const std::string& args, const std::filesystem::path& dir,
                          const std::string& env = "") {
    std::filesystem::create_directories(dir);
    std::filesystem::path outFile = dir / "stdout.txt", errFile = dir / "stderr.txt";
    std::string cmd = "cd '" + dir.string() + "' && " + (env.empty() ? "" : "env " + env + " ") +
                      "'" PLUME_BINARY "' " + args + " > '" + outFile.string() + "' 2> '" +
                      errFile.string() + "' < /dev/null";
    int raw = std::system(cmd.c_str());
    RunResult r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    r.out = slurp(outFile);
    r.err = slurp(errFile);
    return r;
}

// Output of a shell command (e.g. ffprobe).
inline std::string capture(const std::string& cmd) {
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return out;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
    pclose(p);
    return out;
}

// PLUME_REQUIRE_ALL=1 (as CI sets): a test that cannot run here, for want of a
// tool or a permission, fails instead of skipping.
inline bool requireAll() {
    const char* value = std::getenv("PLUME_REQUIRE_ALL");
    return value != nullptr && std::string(value) == "1";
}

// An empty folder for one test, inside this build's tree: two checkouts (or
// a CI run and a developer's) testing at once never share one.
inline std::filesystem::path scratchDir(const std::string& name) {
    auto dir = std::filesystem::path(PLUME_TEST_SCRATCH) / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// The names in a folder, sorted; none when it does not exist.
inline std::vector<std::string> listDir(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    if (!std::filesystem::exists(dir)) return names;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace plume::test
