// Run by a real mpirun with 1 to 4 processes (tests/mpi/CMakeLists.txt): the
// pressure projection split across processes (sim/pressure/slab_part.h)
// gives every owned face the bits a one-process projection of the whole grid
// gives, with the same SolveStats, over three warm-started solves with a
// reflect() and a moving solid between them, for several splits (one owning
// a single slab, one owning none). Every process also runs the one-process
// reference itself. Prints one line per failure and exits 1.
//
// `--threads-by-rank` runs process r on r + 1 threads.
// `projection_check --cost N` instead times the split solve of an N^3 open
// plume-like problem and prints what it exchanged (tests/bench/README.md).
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/parallel.h"
#include "core/processes.h"
#include "sim/fields.h"
#include "sim/pressure/projection.h"

using namespace plume;

namespace {

int failures = 0;
int rankNow = 0;
void check(bool ok, const std::string& what) {
    if (ok) return;
    std::printf("process %d: FAILED: %s\n", rankNow, what.c_str());
    ++failures;
}

// A value in [-1, 1) from a face's grid place, its axis and the step.
float noise(int i, int j, int k, int axis, int step) {
    std::uint64_t h = std::uint64_t(i) * 0x9E3779B97F4A7C15ull ^
                      std::uint64_t(j + 7919 * k) * 0xC2B2AE3D27D4EB4Full ^
                      std::uint64_t(axis * 131 + step * 977 + 1) * 0x165667B19E3779F9ull;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return float(h >> 40) / float(1 << 23) - 1.0f;
}

struct Problem {
    const char* name;
    Vec3i cells;
    std::array<Boundary, 6> boundary;
    bool sphere;
    bool expansion;
    bool closed;         // a closed fluid region (pressure mean 0 on it)
    bool shell = false;  // the sphere is hollow: a closed pocket in an open domain
};

// The solid at a step: a sphere whose centre moves up a cell at step 2.
bool solidAt(const Problem& pb, int i, int j, int k, int step) {
    if (!pb.sphere) return false;
    const float cz = 0.45f * float(pb.cells.z) + (step >= 2 ? 1.0f : 0.0f);
    const float dx = float(i) + 0.5f - 0.5f * float(pb.cells.x);
    const float dy = float(j) + 0.5f - 0.45f * float(pb.cells.y);
    const float dz = float(k) + 0.5f - cz;
    const float r = 0.22f * float(std::min(pb.cells.x, pb.cells.y));
    const float d2 = dx * dx + dy * dy + dz * dz;
    if (pb.shell) return d2 < 1.6f * r * r && d2 > 0.5f * r * r;
    return d2 < r * r;
}

// Fields holding grid slabs [first, first + count) of the problem at `step`:
// the solid on every slab, velocities and expansion on the faces and cells
// of slabs [own.begin, own.end), `garbage` everywhere else.
void fill(Fields& f, const Problem& pb, int first, SlabRange own, int step, float garbage) {
    const Vec3i n = f.n;
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) f.solid(i, j, k) = solidAt(pb, i, j, k + first, step);
    auto owns = [&](int k) { return k + first >= own.begin && k + first < own.end; };
    auto ownsW = [&](int k) {
        return own.size() > 0 && k + first >= own.begin && k + first <= own.end;
    };
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i <= n.x; ++i)
                f.u(i, j, k) = owns(k) ? noise(i, j, k + first, 0, step) : garbage;
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j <= n.y; ++j)
            for (int i = 0; i < n.x; ++i)
                f.v(i, j, k) = owns(k) ? noise(i, j, k + first, 1, step) : garbage;
    for (int k = 0; k <= n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i)
                f.w(i, j, k) = ownsW(k) ? noise(i, j, k + first, 2, step) : garbage;
    if (pb.expansion) {
        if (!f.burns()) f.enableFire();
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const int kg = k + first;
                    const bool burning = (i + 3 * j + 5 * kg) % 17 == 0;
                    f.expansion(i, j, k) = !owns(k) ? garbage : burning ? 2.5f : 0.0f;
                }
    }
}

// Adds the step's noise to the owned faces (a substep's forces).
void stir(Fields& f, int first, SlabRange own, int step) {
    const Vec3i n = f.n;
    for (int k = 0; k < n.z; ++k) {
        const int kg = k + first;
        const bool cellOwned = kg >= own.begin && kg < own.end;
        const bool faceOwned = own.size() > 0 && kg >= own.begin && kg <= own.end;
        for (int j = 0; j <= n.y; ++j)
            for (int i = 0; i <= n.x; ++i) {
                if (cellOwned && j < n.y) f.u(i, j, k) += 0.5f * noise(i, j, kg, 3, step);
                if (cellOwned && i < n.x) f.v(i, j, k) += 0.5f * noise(i, j, kg, 4, step);
                if (faceOwned && i < n.x && j < n.y)
                    f.w(i, j, k) += 0.5f * noise(i, j, kg, 5, step);
            }
    }
    if (own.size() > 0 && own.end - first == n.z)  // the top face of the last owned cell
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) f.w(i, j, n.z) += 0.5f * noise(i, j, own.end, 5, step);
}

// Sets the solid of every slab to the step's.
void moveSolid(Fields& f, const Problem& pb, int first, int step) {
    for (int k = 0; k < f.n.z; ++k)
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) f.solid(i, j, k) = solidAt(pb, i, j, k + first, step);
}

bool sameBits(const float* a, const float* b, size_t n) {
    return n == 0 || std::memcmp(a, b, n * sizeof(float)) == 0;
}

// Every owned face of `local` (grid slabs from `first`) equals the whole's.
bool sameOwnedFaces(const Fields& whole, const Fields& local, int first, SlabRange own) {
    if (own.size() == 0) return true;
    const int k0 = own.begin - first;
    bool same = true;
    for (int k = 0; k < own.size(); ++k) {
        same &= sameBits(&whole.u(0, 0, own.begin + k), &local.u(0, 0, k0 + k), whole.u.strideZ());
        same &= sameBits(&whole.v(0, 0, own.begin + k), &local.v(0, 0, k0 + k), whole.v.strideZ());
    }
    for (int k = 0; k <= own.size(); ++k)
        same &= sameBits(&whole.w(0, 0, own.begin + k), &local.w(0, 0, k0 + k), whole.w.strideZ());
    return same;
}

bool sameOwnedCells(const Grid3<double>& whole, const Grid3<double>& local, int first,
                    SlabRange own) {
    bool same = true;
    for (int k = own.begin; k < own.end; ++k)
        same &= std::memcmp(&whole(0, 0, k), &local(0, 0, k - first),
                            whole.strideZ() * sizeof(double)) == 0;
    return same;
}

// The slabs a process holds: its owned ones and `halo` either side inside
// the grid; none when it owns none.
SlabRange heldOf(SlabRange own, int nz, int halo) {
    if (own.size() == 0) return {own.begin, own.begin};
    return {std::max(0, own.begin - halo), std::min(nz, own.end + halo)};
}

void runCase(const Processes& processes, const Problem& pb, PressureMethod method,
             const std::vector<SlabRange>& owned, int halo, const std::string& label) {
    const int rank = processes.rank();
    const Vec3i n = pb.cells;
    const SlabRange own = owned[size_t(rank)];
    const SlabRange held = heldOf(own, n.z, halo);
    const float dx = 0.1f, dt = 0.04f, tolerance = 1e-5f;
    const int maxIterations = 200;
    const std::string what =
        label + " " + pb.name + (method == PressureMethod::PCG ? " pcg" : " mgpcg") + " split";

    Fields whole(n, dx);
    fill(whole, pb, 0, {0, n.z}, 0, 0.0f);
    Projection reference(n, pb.boundary, {0, 0, 0}, method);

    Fields local({n.x, n.y, held.size()}, dx);
    fill(local, pb, held.begin, own, 0, std::numeric_limits<float>::quiet_NaN());
    SlabPart part{&processes, owned, held.begin, n.z};
    Projection split(local.n, pb.boundary, {0, 0, 0}, method, nullptr, part);
    reference.startPressureSum();
    split.startPressureSum();
    for (int step = 0; step < 3; ++step) {
        if (step > 0) {
            stir(whole, 0, {0, n.z}, step);
            stir(local, held.begin, own, step);
            moveSolid(whole, pb, 0, step);
            moveSolid(local, pb, held.begin, step);
        }
        const SolveStats a = reference.project(whole, dt, tolerance, maxIterations);
        const SolveStats b = split.project(local, dt, tolerance, maxIterations);
        const std::string at = what + " solve " + std::to_string(step + 1);
        check(a.iterations > 0, at + ": the reference solve iterates");
        check(a.iterations == b.iterations && std::memcmp(&a.residual, &b.residual, 4) == 0,
              at + ": SolveStats are one process's (" + std::to_string(a.iterations) + " vs " +
                  std::to_string(b.iterations) + " iterations)");
        check(sameOwnedFaces(whole, local, held.begin, own), at + ": owned faces bit for bit");
        check(sameOwnedCells(reference.warmStart(), split.warmStart(), held.begin, own),
              at + ": warm start bit for bit");
        if (step == 0) {
            reference.reflect(whole);
            split.reflect(local);
            check(sameOwnedFaces(whole, local, held.begin, own),
                  at + ": reflected faces bit for bit");
        }
    }
    check(sameOwnedCells(reference.pressureSum(), split.pressureSum(), held.begin, own),
          what + ": pressure sum bit for bit");
    // A warm start set on the owned cells gives the same next solve.
    Grid3<double> start = reference.warmStart();
    Grid3<double> localStart(n.x, n.y, held.size());
    for (int k = own.begin; k < own.end; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) localStart(i, j, k - held.begin) = start(i, j, k);
    reference.setWarmStart(start);
    split.setWarmStart(localStart);
    stir(whole, 0, {0, n.z}, 7);
    stir(local, held.begin, own, 7);
    const SolveStats a = reference.project(whole, dt, tolerance, maxIterations);
    const SolveStats b = split.project(local, dt, tolerance, maxIterations);
    check(a.iterations == b.iterations && sameOwnedFaces(whole, local, held.begin, own),
          what + ": a solve from setWarmStart bit for bit");
}

// Skewed splits: a process owning one slab, and with 3 or more, one owning none.
std::vector<SlabRange> skewed(int nz, int count) {
    if (count == 1) return {{0, nz}};
    if (count == 2) return {{0, 1}, {1, nz}};
    if (count == 3) return {{0, 1}, {1, 1}, {1, nz}};
    std::vector<SlabRange> r = {{0, nz / 2}, {nz / 2, nz / 2}, {nz / 2, nz / 2 + 1}};
    for (int p = 3; p < count; ++p) {
        const int b = r.back().end;
        r.push_back({b, p == count - 1 ? nz : b + (nz - b) / (count - p)});
    }
    return r;
}

// The solve's sums (SlabComm::sum) add every slab's partial in slab order:
// partials whose magnitudes swing over 30 orders show any other order in
// the bits (the solve's own partials rarely do after CG casts to float).
void sumOrder(const Processes& processes) {
    const int nz = 37;
    auto partialOf = [](int k) {
        std::uint64_t h = std::uint64_t(k) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
        return (double(h % 1000003) / 1000003.0 - 0.4) * std::pow(10.0, double(k % 31) - 15.0);
    };
    double serial = 0.0, backwards = 0.0;
    for (int k = 0; k < nz; ++k) serial += partialOf(k);
    for (int k = nz - 1; k >= 0; --k) backwards += partialOf(k);
    check(serial != backwards, "the partials' order shows in their sum");
    for (const auto& owned :
         {splitSlabs(nz, processes.count(), 1), skewed(nz, processes.count())}) {
        const SlabRange own = owned[size_t(processes.rank())];
        SlabComm comm(SlabPart{&processes, owned, own.begin, nz});
        std::vector<double> mine;
        for (int k = own.begin; k < own.end; ++k) mine.push_back(partialOf(k));
        const double sum = comm.sum(mine.data());
        check(std::memcmp(&sum, &serial, sizeof sum) == 0, "the solve's sums are one process's");
    }
}

int cost(const Processes& processes, int size) {
    const Vec3i n{size, size, size};
    const auto owned = splitSlabs(n.z, processes.count(), 1);
    const SlabRange own = owned[size_t(processes.rank())];
    const SlabRange held = heldOf(own, n.z, 3);
    std::array<Boundary, 6> sides;
    sides.fill(Boundary::Wall);
    sides[kZMax] = Boundary::Open;
    const Problem pb{"cost", n, sides, true, false, false};
    Fields local({n.x, n.y, held.size()}, 1.0f / float(size));
    fill(local, pb, held.begin, own, 0, 0.0f);
    Projection split(local.n, sides, {0, 0, 0}, PressureMethod::MGPCG, nullptr,
                     SlabPart{&processes, owned, held.begin, n.z});
    split.project(local, 0.04f, 1e-5f, 200);  // builds the levels
    const SplitCost before = split.splitCost();
    const int solves = 5;
    int iterations = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int s = 1; s <= solves; ++s) {
        stir(local, held.begin, own, s);
        split.resetWarmStart();
        iterations += split.project(local, 0.04f, 1e-5f, 200).iterations;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const SplitCost after = split.splitCost();
    std::printf(
        "np %d process %d: %d^3 mgpcg, %d slabs, %.1f iterations a solve, %.3f s a solve, "
        "%.3f s of it exchanging (%.0f%%), %.1f KiB received a solve, %d exchanges a "
        "solve\n",
        processes.count(), processes.rank(), size, own.size(), double(iterations) / solves,
        seconds / solves, (after.seconds - before.seconds) / solves,
        100.0 * (after.seconds - before.seconds) / seconds,
        double(after.bytes - before.bytes) / solves / 1024.0,
        (after.calls - before.calls) / solves);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Processes processes(argc, argv);
    rankNow = processes.rank();
    const int count = processes.count();
    if (argc == 3 && std::string(argv[1]) == "--cost") return cost(processes, std::atoi(argv[2]));
    // Each process with its own thread count: the bits do not depend on it.
    const bool threadsByRank = argc == 2 && std::string(argv[1]) == "--threads-by-rank";
    if (threadsByRank) setThreadCount(1 + rankNow);

    std::array<Boundary, 6> openTop, allOpen, closed;
    openTop.fill(Boundary::Wall);
    openTop[kZMax] = Boundary::Open;
    allOpen.fill(Boundary::Open);
    closed.fill(Boundary::Wall);
    // (Threads split a level's slabs only above kSerialCells, 16k cells: the
    // threaded run adds a grid whose owned slabs pass it.)
    const Problem problems[] = {
        {"20x18x37 open top, sphere across a cut", {20, 18, 37}, openTop, true, true, false},
        {"20x18x37 all open", {20, 18, 37}, allOpen, false, false, false},
        {"12x10x6 open top", {12, 10, 6}, openTop, true, false, false},
        {"20x18x37 closed", {20, 18, 37}, closed, true, false, true},
        {"20x18x37 open top, a hollow shell", {20, 18, 37}, openTop, true, false, true, true},
    };
    sumOrder(processes);
    if (threadsByRank) {  // one split of it, each method
        const Problem big{
            "56x48x37 open top, sphere across a cut", {56, 48, 37}, openTop, true, true, false};
        for (PressureMethod method : {PressureMethod::MGPCG, PressureMethod::PCG})
            runCase(processes, big, method, splitSlabs(37, count, 1), 3, "even");
    }
    for (const Problem& pb : problems) {
        const int nz = pb.cells.z;
        const std::vector<std::pair<std::string, std::vector<SlabRange>>> splits = {
            {"even", splitSlabs(nz, count, 1)},
            {"aligned by 4", splitSlabs(nz, count, 4)},
            {"skewed", skewed(nz, count)},
        };
        for (const auto& [label, owned] : splits)
            for (PressureMethod method : {PressureMethod::MGPCG, PressureMethod::PCG})
                for (int halo : {1, 3}) runCase(processes, pb, method, owned, halo, label);
    }
    if (count > 1) {
        bool refused = false;
        try {
            Projection sor({4, 4, 4}, allOpen, {0, 0, 0}, PressureMethod::SOR, nullptr,
                           SlabPart{&processes, splitSlabs(8, count, 1), 0, 8});
        } catch (const RunError& e) {
            refused = std::string(e.what()).find("\"sor\" does not split") != std::string::npos;
        }
        check(refused, "sor refuses to split in one line");
    }
    if (failures == 0 && rankNow == 0)
        std::printf("projection split over %d processes: every check passed\n", count);
    return failures == 0 ? 0 : 1;
}
