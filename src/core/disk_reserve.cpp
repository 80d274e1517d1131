#include "core/disk_reserve.h"

#include <fcntl.h>
#include <unistd.h>

namespace plume {

DiskReserve::DiskReserve(const std::string& folder) {
    fd_ = ::open(folder.empty() ? "." : folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
}

DiskReserve::~DiskReserve() { release(); }

void DiskReserve::grow(std::uint64_t bytes) {
    if (fd_ < 0 || bytes <= bytes_) return;
    if (::posix_fallocate(fd_, 0, static_cast<off_t>(bytes)) == 0) bytes_ = bytes;
}

void DiskReserve::release() {
    if (fd_ < 0) return;
    ::close(fd_);
    fd_ = -1;
    bytes_ = 0;
}

}  // namespace plume
