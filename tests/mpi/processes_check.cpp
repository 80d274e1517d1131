// Run by a real mpirun with 1, 2 and 3 processes (tests/mpi/CMakeLists.txt):
// core/processes.h's sums, halo exchange and gather give every process what
// one process holding every slab has, bit for bit. Prints one line per
// failure and exits 1; exits 0 when every check passes on every process.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/processes.h"

namespace {

int failures = 0;
void check(bool ok, const char* what, int rank) {
    if (ok) return;
    std::printf("process %d: FAILED: %s\n", rank, what);
    ++failures;
}

// A slab's partial whose magnitude swings over 30 orders, so adding the
// partials in any other order than the slabs' gives other bits.
double partialOf(int k) {
    std::uint64_t h = std::uint64_t(k) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    const double unit = double(h % 1000003) / 1000003.0 - 0.4;
    return unit * std::pow(10.0, double(k % 31) - 15.0);
}

float valueOf(int k, size_t n) { return float(k) * 1000.0f + float(n); }

}  // namespace

int main(int argc, char** argv) {
    plume::Processes processes(argc, argv);
    const int rank = processes.rank();
    const int nz = 37;
    const size_t slabValues = 6;
    const int halo = 3;

    // Alignment: inner boundaries on multiples of 4, ranges in order, covering.
    const auto ranges = plume::splitSlabs(nz, processes.count(), 4);
    check(int(ranges.size()) == processes.count(), "one range a process", rank);
    check(ranges.front().begin == 0 && ranges.back().end == nz, "ranges cover the grid", rank);
    for (size_t p = 1; p < ranges.size(); ++p)
        check(ranges[p].begin == ranges[p - 1].end && ranges[p].begin % 4 == 0,
              "ranges follow on at multiples of 4", rank);
    const plume::SlabRange mine = ranges[size_t(rank)];

    // The ordered sum equals one process's, and differs from adding backwards.
    std::vector<double> owned;
    for (int k = mine.begin; k < mine.end; ++k) owned.push_back(partialOf(k));
    double serial = 0.0, backwards = 0.0;
    for (int k = 0; k < nz; ++k) serial += partialOf(k);
    for (int k = nz - 1; k >= 0; --k) backwards += partialOf(k);
    check(serial != backwards, "the partials' order shows in their sum", rank);
    const double sum = processes.orderedSum(owned, ranges);
    check(sum == serial, "ordered sum is one process's, bit for bit", rank);
    check(processes.max(float(rank)) == float(processes.count() - 1), "max over processes", rank);

    // Halo: owned slabs hold their values, halo slabs NaN; after the exchange
    // every halo slab inside the grid holds its owner's values.
    std::vector<float> local(size_t(mine.size() + 2 * halo) * slabValues, std::nanf(""));
    auto at = [&](int k, size_t n) -> float& {
        return local[size_t(k - (mine.begin - halo)) * slabValues + n];
    };
    for (int k = mine.begin; k < mine.end; ++k)
        for (size_t n = 0; n < slabValues; ++n) at(k, n) = valueOf(k, n);
    processes.exchangeHalo(local.data(), slabValues, ranges, halo);
    // (Every range here holds at least 12 slabs, more than the halo.)
    bool halosRight = true;
    for (int k = mine.begin - halo; k < mine.end + halo; ++k)
        for (size_t n = 0; n < slabValues; ++n)
            halosRight &= (k >= 0 && k < nz) ? at(k, n) == valueOf(k, n) : std::isnan(at(k, n));
    check(halosRight, "halo slabs hold their owners' values, the rest untouched", rank);

    // Gather: process 0 gets the whole field.
    std::vector<float> whole;
    processes.gatherSlabs(&at(mine.begin, 0), slabValues, ranges, whole);
    if (rank == 0) {
        bool same = whole.size() == size_t(nz) * slabValues;
        for (int k = 0; same && k < nz; ++k)
            for (size_t n = 0; n < slabValues; ++n) same &= whole[size_t(k) * slabValues + n] == valueOf(k, n);
        check(same, "process 0 gathers every slab", rank);
    } else {
        check(whole.empty(), "only process 0 gathers", rank);
    }
    if (failures == 0 && rank == 0)
        std::printf("processes: %d, every check passed\n", processes.count());
    return failures == 0 ? 0 : 1;
}
