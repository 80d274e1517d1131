#include "core/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
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

OutputTarget outputTarget(const std::string& path) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return OutputTarget::File;  // nothing there yet
    if (S_ISREG(st.st_mode)) return OutputTarget::File;
    if (S_ISDIR(st.st_mode)) return OutputTarget::Folder;
    if (S_ISSOCK(st.st_mode)) return OutputTarget::Socket;
    if (S_ISFIFO(st.st_mode)) return OutputTarget::Stream;
    // A device: whether it seeks (/dev/null does, a terminal does not) is
    // known only once open. Not blocking, and not taking a terminal over.
    const int fd = open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return OutputTarget::Device;  // the writer's open says why
    const bool seeks = lseek(fd, 0, SEEK_CUR) >= 0;
    close(fd);
    return seeks ? OutputTarget::Device : OutputTarget::Stream;
}

void requireWritableTarget(const std::string& path, const char* seeking) {
    const std::string cannot = "plume: error: cannot write '" + path + "': ";
    const OutputTarget target = outputTarget(path);
    if (target == OutputTarget::Folder) throw InputError(cannot + "it is a folder");
    if (target == OutputTarget::Socket) throw InputError(cannot + "it is a socket");
    if (target == OutputTarget::Stream && seeking) {
        struct stat st;
        const bool fifo = stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
        throw InputError(cannot + seeking + " is written with seeks, and " +
                         (fifo ? "a FIFO" : "this device") + " cannot seek (write it to a file)");
    }
}

AtomicFile::AtomicFile(std::string path, const std::string& suffix, const char* seeking)
    : path_(std::move(path)) {
    const OutputTarget target = outputTarget(path_);
    if (target == OutputTarget::Device || target == OutputTarget::Stream ||
        target == OutputTarget::Socket) {
        // Renamed over, a device would become a regular file: written in place.
        requireWritableTarget(path_, seeking);
        tempPath_ = path_;
        inPlace_ = true;
    } else {
        tempPath_ = temporaryPath(path_, suffix);
    }
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::commit() {
    if (inPlace_) {
        done_ = true;
        return;
    }
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
    if (inPlace_) return;  // the device or FIFO stays
    std::error_code ignored;
    fs::remove(tempPath_, ignored);
}

int removeStaleTemporaries(const std::string& dir, const std::string& prefix) {
    static const std::string host = hostTag();
    const std::string mark = "." + host + ".";
    int removed = 0;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        // "<name><suffix>.<host>.<pid>.<n>": the pid is between the host and the count.
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(prefix)) continue;
        // Only a file plume wrote: never a device, a FIFO or a link of that name.
        std::error_code typeEc;
        if (!entry.is_regular_file(typeEc) || entry.is_symlink(typeEc)) continue;
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
    writeAtomically(path, nullptr, write);
}

void writeAtomically(const std::string& path, const char* seeking,
                     const std::function<void(const std::string& tempPath)>& write) {
    AtomicFile file(path, ".tmp", seeking);
    try {
        write(file.tempPath());
    } catch (const InputError&) {
        throw;
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
