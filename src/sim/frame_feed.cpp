#include "sim/frame_feed.h"

#include <algorithm>
#include <stdexcept>

#include "core/parallel.h"
#include "sim/smoke_color.h"

namespace plume {

namespace {

// Slabs a run of the grids made per cell: a VDB leaf's height, so their
// staging buffer is a few slabs, never a second copy of the field.
constexpr int kMadeRun = 8;

bool made(FeedGrid g) { return g == FeedGrid::Velocity || g == FeedGrid::Color; }

const ScalarGrid& scalarOf(const Fields& f, FeedGrid g) {
    switch (g) {
        case FeedGrid::U:
            return f.u;
        case FeedGrid::V:
            return f.v;
        case FeedGrid::W:
            return f.w;
        case FeedGrid::Density:
            return f.density;
        case FeedGrid::Temperature:
            return f.temperature;
        case FeedGrid::Fuel:
            return f.fuel;
        case FeedGrid::Flame:
            return f.flame;
        case FeedGrid::Red:
            return f.color[0];
        case FeedGrid::Green:
            return f.color[1];
        case FeedGrid::Blue:
            return f.color[2];
        default:
            throw std::logic_error("scalarOf: not a float grid of the solver's");
    }
}

// Three floats a cell of slabs [z0, z1) into `out`.
template <typename At>
void madePerCell(Vec3i n, int z0, int z1, std::vector<std::byte>& out, const At& at) {
    out.resize(size_t(z1 - z0) * size_t(n.x) * size_t(n.y) * 3 * sizeof(float));
    float* values = reinterpret_cast<float*>(out.data());
    parallelForSlabs(z1 - z0, [&](int dz) {
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const Vec3f v = at(i, j, z0 + dz);
                float* to = values + 3 * ((size_t(dz) * n.y + j) * n.x + i);
                to[0] = v.x, to[1] = v.y, to[2] = v.z;
            }
    });
}

}  // namespace

size_t feedValueBytes(FeedGrid g) {
    if (g == FeedGrid::Solid) return 1;
    if (g == FeedGrid::Pressure) return sizeof(double);
    return made(g) ? 3 * sizeof(float) : sizeof(float);
}

int feedSlabs(FeedGrid g, Vec3i n) { return g == FeedGrid::W ? n.z + 1 : n.z; }

size_t feedSlabValues(FeedGrid g, Vec3i n) {
    if (g == FeedGrid::U) return size_t(n.x + 1) * n.y;
    if (g == FeedGrid::V) return size_t(n.x) * (n.y + 1);
    return size_t(n.x) * n.y;
}

const void* partSlabs(const Fields& part, const Grid3<double>* pressure, FeedGrid g, int z0, int z1,
                      std::vector<std::byte>& out) {
    if (g == FeedGrid::Solid) return &part.solid(0, 0, z0);
    if (g == FeedGrid::Pressure) return &(*pressure)(0, 0, z0);
    if (g == FeedGrid::Velocity) {
        madePerCell(part.n, z0, z1, out,
                    [&](int i, int j, int k) { return part.centredVelocity(i, j, k); });
        return out.data();
    }
    if (g == FeedGrid::Color) {
        madePerCell(part.n, z0, z1, out, [&](int i, int j, int k) {
            const float d = part.density(i, j, k);
            return Vec3f(shownColor(part.color[0](i, j, k), d),
                         shownColor(part.color[1](i, j, k), d),
                         shownColor(part.color[2](i, j, k), d));
        });
        return out.data();
    }
    return &scalarOf(part, g)(0, 0, z0);
}

std::vector<Box3i> LocalFeed::boxes() const {
    std::vector<Box3i> boxes;
    for (const Part& p : parts_) boxes.push_back(p.fields->box());
    return boxes;
}

void LocalFeed::read(size_t island, FeedGrid g, const SlabRun& take) const {
    const Part& p = parts_[island];
    const int slabs = feedSlabs(g, p.fields->n);
    const int run = made(g) ? kMadeRun : std::max(slabs, 1);
    std::vector<std::byte> buffer;
    for (int z0 = 0; z0 < slabs; z0 += run) {
        const int z1 = std::min(z0 + run, slabs);
        take(z0, z1, partSlabs(*p.fields, p.pressure, g, z0, z1, buffer));
    }
}

}  // namespace plume
