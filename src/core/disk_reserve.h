// Room kept on a disk for the end of a file being written: a file beside it
// of allocated blocks, grown as the need grows and removed when the end is
// written, so a disk that fills meanwhile still has room for that end.
#pragma once

#include <cstdint>
#include <string>

namespace plume {

class DiskReserve {
public:
    DiskReserve() = default;
    // Keeps room at `path` (the file's own name plus a suffix); nothing when
    // the file system cannot allocate ahead.
    explicit DiskReserve(std::string path);
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
    std::string path_;
    int fd_ = -1;
    std::uint64_t bytes_ = 0;
};

}  // namespace plume
