#include "core/disk_reserve.h"

#include <fcntl.h>
#include <unistd.h>

namespace plume {

DiskReserve::DiskReserve(std::string path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

DiskReserve::~DiskReserve() { release(); }

void DiskReserve::grow(std::uint64_t bytes) {
    if (fd_ < 0 || bytes <= bytes_) return;
    if (::posix_fallocate(fd_, 0, static_cast<off_t>(bytes)) == 0) bytes_ = bytes;
}

void DiskReserve::release() {
    if (fd_ < 0) return;
    ::close(fd_);
    ::unlink(path_.c_str());
    fd_ = -1;
    bytes_ = 0;
}

}  // namespace plume
