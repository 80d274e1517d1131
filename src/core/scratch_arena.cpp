#include "core/scratch_arena.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>

#include <sys/mman.h>
#include <unistd.h>

namespace plume {

namespace {

// A zeroed block whose first byte is kAlignment-aligned; `size` bytes usable.
std::unique_ptr<std::byte[]> newBlock(size_t size) {
    // value-initialised (zeroed); operator new[] aligns to 16 only, so ask
    // for room to align the start.
    return std::unique_ptr<std::byte[]>(new std::byte[size + ScratchArena::kAlignment]());
}

std::byte* alignedStart(const std::unique_ptr<std::byte[]>& block) {
    const auto p = reinterpret_cast<std::uintptr_t>(block.get());
    return block.get() + (ScratchArena::rounded(p) - p);
}

}  // namespace

ScratchArena::Lease::Lease(ScratchArena& arena) : arena_(arena) { arena_.open(); }
ScratchArena::Lease::~Lease() { arena_.close(); }

std::uint64_t ScratchArena::capacity() const {
    std::uint64_t bytes = 0;
    for (const Block& b : blocks_) bytes += b.size;
    return bytes;
}

void ScratchArena::release() {
    if (leased_) throw std::logic_error("ScratchArena: release() inside a lease");
    blocks_.clear();
    peak_ = 0;
}

void returnPagesOf(void* data, size_t bytes) {
    // Whole pages inside the range only: the allocator's own bookkeeping
    // sits just before its first byte.
    const auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const auto start = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t lo = (start + page - 1) / page * page;
    const std::uintptr_t hi = (start + bytes) / page * page;
    if (data && hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
}

void ScratchArena::returnPages() {
    if (leased_) throw std::logic_error("ScratchArena: returnPages() inside a lease");
    for (Block& b : blocks_) returnPagesOf(b.bytes.get(), b.size + kAlignment);
}

void ScratchArena::open() {
    if (leased_) throw std::logic_error("ScratchArena: a lease is already open");
    leased_ = true;
    taken_ = 0;
    // A lease outgrew the block: one block the size of the largest lease, so
    // no lease is split again (the old blocks go first: no moment holds both).
    if (blocks_.size() > 1) {
        const size_t total = size_t(peak_);
        blocks_.clear();
        blocks_.push_back({newBlock(total), total, 0});
    }
    for (Block& b : blocks_) b.used = 0;
}

void ScratchArena::close() {
    leased_ = false;
    peak_ = std::max(peak_, taken_);
}

void* ScratchArena::allocate(size_t bytes) {
    if (!leased_) throw std::logic_error("ScratchArena: take() outside a lease");
    bytes = size_t(rounded(bytes));
    taken_ += bytes;
    for (Block& b : blocks_)
        if (b.size - b.used >= bytes) {
            void* p = alignedStart(b.bytes) + b.used;
            b.used += bytes;
            return p;
        }
    // Does not fit: a new block for this buffer (and any later one of this
    // lease that fits beside it), merged with the rest at the next lease.
    const size_t size = std::max(bytes, size_t(1) << 16);
    blocks_.push_back({newBlock(size), size, bytes});
    return alignedStart(blocks_.back().bytes);
}

}  // namespace plume
