// ScratchArena: one block of memory that the solver's stages borrow in turn.
//
// Advection, vorticity confinement and the pressure solve each need scratch
// buffers the size of the grid, but never at the same time: a substep runs
// them one after another. So they share one block, sized by the hungriest,
// instead of each keeping its own (McAdams et al. 2010 fit a whole smoke
// solver in about 47 bytes a cell this way).
//
// A stage opens a Lease and takes its buffers from it, bump-allocated; when
// the lease closes, the next stage reuses the same bytes. A lease that needs
// more than the block holds gets an extra block for the rest of that lease
// (so earlier buffers never move), and the next lease to open merges the
// blocks into one: after the first substep there is no allocation at all.
//
// Buffers start zeroed when their block is new and otherwise hold whatever
// the last stage left there (finite numbers, but not the stage's own): a
// stage must write what it reads, or clear it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace plume {

// Hands back to the system the whole pages inside [data, data + bytes) of
// memory this process allocated, which it keeps: the next touch of each finds
// it zeroed. For scratch that is idle between frames.
void returnPagesOf(void* data, size_t bytes);

class ScratchArena {
  public:
    ScratchArena() = default;
    ScratchArena(const ScratchArena&) = delete;
    ScratchArena& operator=(const ScratchArena&) = delete;

    class Lease {
      public:
        explicit Lease(ScratchArena& arena);
        ~Lease();
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;

        // `count` values of T, 64-byte aligned, valid until the lease closes.
        template <typename T>
        T* take(size_t count) {
            static_assert(std::is_trivially_copyable_v<T>, "scratch holds plain values");
            return static_cast<T*>(arena_.allocate(count * sizeof(T)));
        }

      private:
        ScratchArena& arena_;
    };

    // Frees every block (outside a lease): the next lease allocates what it
    // takes anew. For a solver whose grid changed size, so the block it
    // outgrew is not held beside the larger one.
    void release();

    // Hands the blocks' pages back to the system (outside a lease), keeping
    // the blocks: a solver's scratch is idle between frames, while the
    // frame's files are written, and should not count then. The next lease
    // touches the pages again and finds them zeroed.
    void returnPages();

    // Bytes held now (the merged block once the first substep has run).
    std::uint64_t capacity() const;
    // Bytes the largest lease has taken so far.
    std::uint64_t peak() const { return peak_; }

    // Rounding of every buffer: what bytesFor-style estimates add per buffer.
    static constexpr size_t kAlignment = 64;
    static constexpr std::uint64_t rounded(std::uint64_t bytes) {
        return (bytes + kAlignment - 1) / kAlignment * kAlignment;
    }

  private:
    struct Block {
        std::unique_ptr<std::byte[]> bytes;
        size_t size = 0, used = 0;
    };
    void* allocate(size_t bytes);
    void open();
    void close();

    std::vector<Block> blocks_;
    bool leased_ = false;
    std::uint64_t taken_ = 0, peak_ = 0;
};

}  // namespace plume
