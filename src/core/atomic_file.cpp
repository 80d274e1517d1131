#include "core/atomic_file.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <new>
#include <system_error>

#include "core/error.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

// This machine's name up to its first dot, in characters safe in a file name:
// farm tasks on two nodes can have the same process id.
std::string hostTag() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "host";
    std::string tag;
    for (const char* c = name; *c && *c != '.'; ++c)
        tag += std::isalnum(static_cast<unsigned char>(*c)) || *c == '-' ? *c : '_';
    return tag.empty() ? "host" : tag;
}

}  // namespace

std::string temporaryPath(const std::string& path, const std::string& suffix) {
    static const std::string host = hostTag();
    static std::atomic<unsigned long> counter{0};
    return path + suffix + "." + host + "." + std::to_string(getpid()) + "." +
           std::to_string(++counter);
}

AtomicFile::AtomicFile(std::string path, const std::string& suffix)
    : path_(std::move(path)), tempPath_(temporaryPath(path_, suffix)) {}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::commit() {
    std::error_code ec;
    fs::rename(tempPath_, path_, ec);
    if (ec) {
        discard();
        throw RunError("cannot write '" + path_ + "': " + ec.message());
    }
    done_ = true;
}

void AtomicFile::discard() {
    if (done_) return;
    done_ = true;
    std::error_code ignored;
    fs::remove(tempPath_, ignored);
}

int removeStaleTemporaries(const std::string& dir) {
    static const std::string host = hostTag();
    const std::string mark = "." + host + ".";
    int removed = 0;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        // "<name><suffix>.<host>.<pid>.<n>": the pid is between the host and the count.
        const std::string name = entry.path().filename().string();
        const size_t count = name.rfind('.');
        if (count == std::string::npos || count == 0) continue;
        const size_t pidAt = name.rfind('.', count - 1);
        if (pidAt == std::string::npos || pidAt < mark.size() - 1) continue;
        if (name.compare(pidAt - (mark.size() - 1), mark.size(), mark) != 0) continue;
        const std::string pidText = name.substr(pidAt + 1, count - pidAt - 1);
        const std::string countText = name.substr(count + 1);
        auto digits = [](const std::string& t) {
            return !t.empty() && t.size() < 10 &&
                   t.find_first_not_of("0123456789") == std::string::npos;
        };
        if (!digits(pidText) || !digits(countText)) continue;
        const pid_t pid = static_cast<pid_t>(std::stol(pidText));
        if (pid <= 0 || pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH) continue;
        std::error_code ignored;
        if (fs::remove(entry.path(), ignored)) ++removed;
    }
    return removed;
}

void writeAtomically(const std::string& path,
                     const std::function<void(const std::string& tempPath)>& write) {
    AtomicFile file(path);
    try {
        write(file.tempPath());
    } catch (const RunError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw;  // out of memory is the run's, not the file's: the caller says where
    } catch (const std::exception& e) {
        throw RunError("cannot write '" + path + "': " + e.what());
    }
    file.commit();
}

void writeFileAtomically(const std::string& path, const std::string& bytes) {
    writeAtomically(path, [&](const std::string& tmp) {
        auto fail = [&](int error) {
            throw RunError("cannot write '" + path + "': " + std::strerror(error));
        };
        std::FILE* f = std::fopen(tmp.c_str(), "wb");
        if (!f) fail(errno);
        // fwrite's errno must survive fclose, which may set its own.
        const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
        const int writeErrno = errno;
        if (std::fclose(f) != 0 || !written) fail(written ? errno : writeErrno);
    });
}

}  // namespace plume
