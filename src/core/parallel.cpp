#include "core/parallel.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace plume {

namespace {
// An arena of exactly N slots makes TBB split work as it would on an N-core
// machine (its partitioner divides by the arena's concurrency), so
// `--threads 7` on two cores exercises the same chunking as seven cores would.
// The global control lets the arena find that many workers.
std::unique_ptr<tbb::global_control> gControl;
std::unique_ptr<tbb::task_arena> gArena;
int gThreads = 0;

template <typename F>
void inArena(F&& f) {
    if (gArena)
        gArena->execute(f);
    else
        f();
}
}  // namespace

void setThreadCount(int threads) {
    gArena.reset();
    gControl.reset();
    gThreads = threads;
    if (threads > 0) {
        const int workers = std::max(threads, tbb::info::default_concurrency());
        gControl = std::make_unique<tbb::global_control>(
            tbb::global_control::max_allowed_parallelism, static_cast<size_t>(workers));
        gArena = std::make_unique<tbb::task_arena>(threads);
    }
}

int threadCount() { return gThreads > 0 ? gThreads : tbb::info::default_concurrency(); }

void parallelForRange(int n, FunctionRef<void(int, int)> body) {
    if (n <= 0) return;
    inArena([&] {
        tbb::parallel_for(tbb::blocked_range<int>(0, n),
                          [&](const tbb::blocked_range<int>& r) { body(r.begin(), r.end()); });
    });
}

double deterministicSum(int n, FunctionRef<double(int)> term) {
    return deterministicReduce(n, 0.0, term, [](double a, double b) { return a + b; });
}

void parallelForTiles(int width, int height, int tileSize,
                      FunctionRef<void(int, int, int, int)> body) {
    int tilesX = (width + tileSize - 1) / tileSize;
    int tilesY = (height + tileSize - 1) / tileSize;
    inArena([&] {
        tbb::parallel_for(
            tbb::blocked_range<int>(0, tilesX * tilesY, 1), [&](const tbb::blocked_range<int>& r) {
                for (int t = r.begin(); t < r.end(); ++t) {
                    int x0 = (t % tilesX) * tileSize, y0 = (t / tilesX) * tileSize;
                    body(x0, y0, std::min(x0 + tileSize, width), std::min(y0 + tileSize, height));
                }
            });
    });
}

}  // namespace plume
