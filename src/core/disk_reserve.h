// Room kept on a disk for the end of a file being written: blocks allocated
// to a file of no name in its folder (O_TMPFILE, so nothing shows in the
// folder and nothing outlives the process), grown as the need grows and given
// back before the end is written, so a disk that fills meanwhile still has
// room for that end.
#pragma once

#include <cstdint>
#include <string>

namespace plume {

class DiskReserve {
public:
    DiskReserve() = default;
    // Keeps room on the disk of `folder`; none where the file system has no
    // unnamed files or cannot allocate ahead.
    explicit DiskReserve(const std::string& folder);
    ~DiskReserve();
    DiskReserve(const DiskReserve&) = delete;
    DiskReserve& operator=(const DiskReserve&) = delete;

    // Grows the room to `bytes` where the disk has them (never shrinks);
    // a disk already full keeps what was kept.
    void grow(std::uint64_t bytes);
    // Gives the room back to the disk.
    void release();
    std::uint64_t bytes() const { return bytes_; }

private:
    int fd_ = -1;
    std::uint64_t bytes_ = 0;
};

}  // namespace plume
