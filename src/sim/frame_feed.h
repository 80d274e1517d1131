// A frame's grids handed out a run of z-slabs at a time: what the VDB and
// resume-state writers read a frame through. One process feeds each grid
// whole from its islands; a bake split across processes feeds process 0
// every process's slabs in turn (Solver::feed), so no process ever holds
// the frame whole to write it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/box.h"
#include "core/grid3.h"
#include "sim/fields.h"

namespace plume {

// The grids of a frame: the solver's own, then two made from them per
// cell (the velocity at cell centres; the smoke's colour as shown,
// sim/smoke_color.h), both three floats a cell.
enum class FeedGrid : std::uint8_t {
    U,
    V,
    W,
    Density,
    Temperature,
    Fuel,
    Flame,
    Red,
    Green,
    Blue,
    Solid,     // uint8
    Pressure,  // double: the next projection's warm start
    Velocity,
    Color,
};

// Bytes a value, and slabs along z, of grid g over a box of n cells.
size_t feedValueBytes(FeedGrid g);
int feedSlabs(FeedGrid g, Vec3i n);
// Values a slab: a face grid has one more face across its own axis.
size_t feedSlabValues(FeedGrid g, Vec3i n);

// Slabs [z0, z1) of a grid (z from the island's first slab), slab-major.
using SlabRun = std::function<void(int z0, int z1, const void* values)>;

class FrameFeed {
  public:
    virtual ~FrameFeed() = default;
    // Fields with the frame's voxel size, domain, time and which fields the
    // scene has (fire, colour); their own box is no island's.
    virtual const Fields& frame() const = 0;
    // Each island's box (domain cells).
    virtual std::vector<Box3i> boxes() const = 0;
    // Grid g of island `island`, every slab once, in slab order.
    virtual void read(size_t island, FeedGrid g, const SlabRun& take) const = 0;
};

// Slabs [z0, z1) of grid g of `part` (z from part's own first slab) as
// bytes: straight from the grid, or made into `made` (Velocity, Color).
// `pressure` is the part's warm start (FeedGrid::Pressure only).
const void* partSlabs(const Fields& part, const Grid3<double>* pressure, FeedGrid g, int z0, int z1,
                      std::vector<std::byte>& made);

// Islands held whole by this process, with their warm starts (null: none).
class LocalFeed : public FrameFeed {
  public:
    struct Part {
        const Fields* fields;
        const Grid3<double>* pressure;
    };
    explicit LocalFeed(std::vector<Part> parts) : parts_(std::move(parts)) {}
    const Fields& frame() const override { return *parts_.front().fields; }
    std::vector<Box3i> boxes() const override;
    void read(size_t island, FeedGrid g, const SlabRun& take) const override;

  private:
    std::vector<Part> parts_;
};

}  // namespace plume
