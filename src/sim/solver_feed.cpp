// A frame's grids for its writers (sim/frame_feed.h). Split across
// processes, process 0 reads each grid as the runs of every process's owned
// slabs, asking for it by a request the others wait for in endFrame: its
// memory is its own part and one run, not the frame.
#include <algorithm>

#include "sim/solver.h"

namespace plume {

namespace {

// What process 0 asks the others, between the end of a frame and endFrame:
// {what, island, grid or signal}.
enum Request : int { kEndFrame, kRead, kGatherWhole };

// The bytes of another's slabs process 0 holds at once.
constexpr size_t kRunBytes = size_t(1) << 20;

}  // namespace

class SolverFeed : public FrameFeed {
  public:
    explicit SolverFeed(const Solver& solver) : solver_(solver) {
        const Island& first = solver.islands_.front();
        if (!solver.split()) return;
        // A part's own box is not its island's: a cell of the first island
        // stands for the frame (voxel size, domain, time, fields).
        frame_ = solver.stillAir(Box3i::at(first.box.lo, Vec3i{1, 1, 1}), Vec3f(0.0f));
        frame_.time = first.f.time;
    }

    const Fields& frame() const override {
        return solver_.split() ? frame_ : solver_.islands_.front().f;
    }

    std::vector<Box3i> boxes() const override { return solver_.islandBoxes(); }

    void read(size_t i, FeedGrid g, const SlabRun& take) const override {
        if (!solver_.split()) {
            const Island& island = solver_.islands_[i];
            // Made on demand, one island's at a time: it lives padded inside the projection.
            Grid3<double> pressure;
            if (g == FeedGrid::Pressure) pressure = island.projection.warmStart();
            LocalFeed({{&island.f, &pressure}}).read(0, g, take);
            return;
        }
        int request[3] = {kRead, int(i), int(g)};
        solver_.processes_->broadcast(request);
        solver_.streamGrid(i, g, take);
    }

  private:
    const Solver& solver_;
    Fields frame_;
};

std::unique_ptr<FrameFeed> Solver::feed() const { return std::make_unique<SolverFeed>(*this); }

void Solver::streamGrid(size_t i, FeedGrid g, const SlabRun& take) const {
    const Island& island = islands_[i];
    const Box3i& box = island.box;
    std::vector<SlabRange> ranges;
    for (const SlabRange& r : ownedSlabs(box, g == FeedGrid::W))
        ranges.push_back({r.begin - box.lo.z, r.end - box.lo.z});
    const size_t slabBytes = feedSlabValues(g, box.size()) * feedValueBytes(g);
    const int run = int(std::max<size_t>(1, kRunBytes / slabBytes));
    std::vector<std::byte> made;
    const int partZ = island.f.partZ;
    processes_->streamSlabs(
        slabBytes, ranges, run,
        [&](int begin, int end) -> const void* {
            if (g != FeedGrid::Pressure)
                return partSlabs(island.f, nullptr, g, begin - partZ, end - partZ, made);
            // Its pressure lives padded inside the projection: a run at a time.
            made.resize(size_t(end - begin) * slabBytes);
            island.projection.warmStartSlabs(begin - partZ, end - partZ,
                                             reinterpret_cast<double*>(made.data()));
            return made.data();
        },
        [&](int begin, int end, const void* values) {
            if (take) take(begin, end, values);
        });
}

void Solver::gatherOnce() const {
    if (!serving_ || gatheredFrame_) return;
    int request[3] = {kGatherWhole, 0, 0};
    processes_->broadcast(request);
    gatherIslands();
    gatheredFrame_ = true;
}

int Solver::endFrame(int signal) {
    if (!split()) return signal;
    if (processes_->rank() == 0) {
        int request[3] = {kEndFrame, 0, 0};
        processes_->broadcast(request);
        serving_ = false;
        gatheredFrame_ = false;
        gathered_.clear();
    } else {
        for (int request[3];;) {
            processes_->broadcast(request);
            if (request[0] == kEndFrame) break;
            if (request[0] == kGatherWhole)
                gatherIslands();
            else
                streamGrid(size_t(request[1]), FeedGrid(request[2]), {});
        }
    }
    // An interrupt that reached any process stops them all after this frame.
    int signals[1] = {signal};
    processes_->max(signals);
    return signals[0];
}

}  // namespace plume
