// One solve split across processes (core/processes.h): each process owns the
// domain's z-slabs splitSlabs deals it and holds, of every island, the part
// over those slabs and a halo either side. The stages run on the part as on a
// whole box; a stage's result is wrong only within its reach of the part's
// cut ends, inside the halo, and the halo takes its owners' values again
// before anything reads it. Positions and traces are formed in the whole
// box's frame (Fields::partZ), and every sum is added in slab order, so the
// fields are one process's, bit for bit.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "core/error.h"
#include "sim/active_box.h"
#include "sim/solver.h"

namespace plume {

namespace {

SlabRange clampTo(SlabRange r, int lo, int hi) {
    return {std::clamp(r.begin, lo, hi), std::clamp(r.end, lo, hi)};
}

}  // namespace

int Solver::splitHalo(const Scene& scene) {
    // A stage reads at most this far: a trace of up to ceil(cfl) + 1 cells
    // and its blend (MacCormack's forward steps are exchanged between its
    // passes, the advected velocity before the forces), or the forces one
    // after another: vorticity confinement's gradient of the curl, then the
    // flame's shredding, eight at most.
    return std::max(int(std::ceil(scene.time.cfl)) + 4, 8);
}

Vec3i Solver::splitPartCells(const Scene& scene, int processes) {
    Vec3i n = scene.domain.cells();
    if (processes <= 1) return n;
    int most = 0;
    for (const SlabRange& r : splitSlabs(n.z, processes, 1)) most = std::max(most, r.size());
    n.z = std::min(n.z, most + 2 * splitHalo(scene));
    return n;
}

std::string Solver::splitRefusal(const Scene& scene) {
    std::string what;
    auto refuse = [&](bool when, const char* name) {
        if (when) what += std::string(what.empty() ? "" : ", ") + name;
    };
    refuse(scene.solver.pressure == PressureMethod::SOR, "solver.pressure = \"sor\"");
    refuse(scene.guide.on(), "[guide]");
    if (what.empty()) return {};
    return "a bake split across processes does not take " + what +
           " yet; bake this scene as one process";
}

void Solver::checkSplitReach(float metres, int frame) const {
    // The halo holds a trace of up to ceil(cfl) + 1 cells and its blend;
    // time.max_substeps can make a substep longer than time.cfl allows.
    const float cells = metres / scene_.domain.dx();
    const float most = std::ceil(scene_.time.cfl) + 1.0f;
    if (cells <= most) return;
    char line[240];
    std::snprintf(line, sizeof line,
                  "frame %d: a substep of this split bake moves the smoke %.1f cells, more than "
                  "the %.0f its halo holds (time.cfl + 1); raise time.max_substeps, or bake it "
                  "as one process",
                  frame, cells, most);
    throw InputError(line);
}

SlabRange Solver::heldWindow() const {
    if (!split()) return {0, std::numeric_limits<int>::max()};
    const SlabRange mine = owned_[size_t(processes_->rank())];
    return {mine.begin - halo_, mine.end + halo_};
}

Box3i Solver::heldBox(const Box3i& box) const {
    const SlabRange mine = owned_[size_t(processes_->rank())];
    Box3i held = box;
    held.lo.z = std::clamp(mine.begin - halo_, box.lo.z, box.hi.z);
    held.hi.z = std::clamp(mine.end + halo_, held.lo.z, box.hi.z);
    return held;
}

std::vector<SlabRange> Solver::ownedSlabs(const Box3i& box, bool zFaces) const {
    std::vector<SlabRange> out;
    for (const SlabRange& r : owned_) {
        SlabRange s = clampTo(r, box.lo.z, box.hi.z);
        // The box's top face goes with its last slab.
        if (zFaces && s.end == box.hi.z && s.size() > 0) ++s.end;
        out.push_back(s);
    }
    return out;
}

std::vector<SlabRange> Solver::heldSlabs(const Box3i& box, bool zFaces) const {
    std::vector<SlabRange> out;
    for (const SlabRange& r : owned_) {
        SlabRange s{std::clamp(r.begin - halo_, box.lo.z, box.hi.z), 0};
        s.end = std::clamp(r.end + halo_, s.begin, box.hi.z);
        if (zFaces && s.size() > 0) ++s.end;
        out.push_back(s);
    }
    return out;
}

template <typename T>
void Solver::exchangeLike(const Box3i& box, const Grid3<T>& g, T* values) const {
    if (g.size() == 0) return;  // no part of this box here
    const bool zFaces = g.offset().z == 0.0f;
    processes_->exchangeSlabs(values, g.strideZ() * sizeof(T), ownedSlabs(box, zFaces),
                              heldSlabs(box, zFaces));
}

template <typename T>
void Solver::exchange(const Island& island, Grid3<T>& g) const {
    exchangeLike(island.box, g, g.size() ? &g(0, 0, 0) : nullptr);
}

void Solver::exchangeStepsOf(const Island& island) {
    if (!split()) return;
    advector_.exchangeStepsBy([this, box = island.box](const ScalarGrid& g, float* step) {
        exchangeLike(box, g, step);
    });
}

std::optional<DiffusionSplit> Solver::diffusionSplit(const Island& island) const {
    if (!split()) return std::nullopt;
    return DiffusionSplit{island.f.partZ, halo_,
                          [this, &island](ScalarGrid& g) { exchange(island, g); }};
}

std::optional<SparkSplit> Solver::sparkSplit() const {
    if (!split()) return std::nullopt;
    const int slabs = scene_.domain.cells().z;
    const SlabRange held = heldWindow();
    return SparkSplit{processes_, owned_,
                      {std::max(held.begin, 0), std::min(held.end, slabs)}, slabs};
}

void Solver::exchangeVelocity(Island& island) const {
    exchange(island, island.f.u);
    exchange(island, island.f.v);
    exchange(island, island.f.w);
}

void Solver::exchangeScalars(Island& island) const {
    Fields& f = island.f;
    exchange(island, f.density);
    exchange(island, f.temperature);
    if (scene_.burns()) {
        exchange(island, f.fuel);
        exchange(island, f.flame);
    }
    if (scene_.colored())
        for (ScalarGrid& c : f.color) exchange(island, c);
}

namespace {

// Every process's owned slabs (`owned`, domain z) of its `part` of a box
// (partZ slabs in from the box's first, boxZ) into `whole`, the box: on
// every process (toAll) or on process 0.
template <typename T>
void gatherGrid(const Processes& processes, const Grid3<T>& part, int partZ,
                const std::vector<SlabRange>& owned, int boxZ, Grid3<T>& whole, bool toAll) {
    std::vector<SlabRange> ranges;
    for (const SlabRange& r : owned) ranges.push_back({r.begin - boxZ, r.end - boxZ});
    const SlabRange mine = ranges[size_t(processes.rank())];
    const size_t slabBytes = part.strideZ() * sizeof(T);
    const T* from = mine.size() > 0 ? &part(0, 0, mine.begin - partZ) : nullptr;
    if (toAll)
        processes.allGatherSlabs(from, slabBytes, ranges, whole.size() ? &whole(0, 0, 0) : nullptr);
    else
        processes.gatherSlabs(from, slabBytes, ranges,
                              whole.size() ? static_cast<void*>(&whole(0, 0, 0)) : nullptr);
}

}  // namespace

SlabPart Solver::partOf(const Box3i& box) const {
    SlabPart part{processes_, {}, heldBox(box).lo.z - box.lo.z, box.size().z};
    for (const SlabRange& r : ownedSlabs(box, false))
        part.owned.push_back({r.begin - box.lo.z, r.end - box.lo.z});
    return part;
}

Box3i Solver::unitedOverProcesses(const Box3i& box) const {
    constexpr int kNone = std::numeric_limits<int>::max();
    int lo[3] = {kNone, kNone, kNone}, hi[3] = {-kNone, -kNone, -kNone};
    if (!box.empty())
        for (int a = 0; a < 3; ++a) lo[a] = box.lo[a], hi[a] = box.hi[a];
    processes_->min(lo);
    processes_->max(hi);
    if (lo[0] == kNone) return {};
    return {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
}

void Solver::gatherIslands() const {
    gathered_.clear();
    const bool root = processes_->rank() == 0;
    for (const Island& island : islands_) {
        GatheredIsland g{island.box, root ? stillAir(island.box, Vec3f(0.0f)) : Fields(), {}};
        Fields& to = g.f;
        const Fields& from = island.f;
        auto gather = [&](const auto& part, auto& whole) {
            const bool zFaces = part.offset().z == 0.0f;
            gatherGrid(*processes_, part, from.partZ, ownedSlabs(island.box, zFaces),
                       island.box.lo.z, whole, false);
        };
        gather(from.u, to.u);
        gather(from.v, to.v);
        gather(from.w, to.w);
        gather(from.density, to.density);
        gather(from.temperature, to.temperature);
        gather(from.solid, to.solid);
        if (scene_.burns()) {
            gather(from.fuel, to.fuel);
            gather(from.flame, to.flame);
            gather(from.expansion, to.expansion);
        }
        if (scene_.colored())
            for (int c = 0; c < 3; ++c) gather(from.color[c], to.color[c]);
        to.time = from.time;
        // The pressure the next solve starts from, kept on the owned cells.
        Grid3<double> pressure = island.projection.warmStart();
        if (root)
            g.pressure =
                Grid3<double>(island.box.size().x, island.box.size().y, island.box.size().z);
        gather(pressure, g.pressure);
        if (root) gathered_.push_back(std::move(g));
    }
}

}  // namespace plume
