// Upres's state for --resume (sim/upres/upres.h, io/upres_state.h): the fine
// scalars and the patterns' drift, out and back.
#include "core/error.h"
#include "sim/upres/upres.h"
#include "sim/upres/upres_grids.h"

namespace plume {

std::vector<const ScalarGrid*> Upres::fineGrids() const {
    std::vector<const ScalarGrid*> grids = {&fine_.density, &fine_.temperature};
    if (fine_.burns()) grids.insert(grids.end(), {&fine_.fuel, &fine_.flame});
    if (fine_.colored())
        grids.insert(grids.end(), {&fine_.color[0], &fine_.color[1], &fine_.color[2]});
    return grids;
}

std::vector<const ScalarGrid*> Upres::driftGrids() const {
    std::vector<const ScalarGrid*> grids;
    for (const auto& pattern : drift_)
        for (const ScalarGrid& c : pattern) grids.push_back(&c);
    return grids;
}

void Upres::restore(const Fields& base, const Box3i& box, double time, std::vector<ScalarGrid> fine,
                    std::vector<ScalarGrid> drift) {
    const int f = factor_;
    const Vec3i n = box.size(), nf = times(n, f);
    const size_t fields = (burns() ? 4 : 2) + (colored() ? 3 : 0);
    auto fits = [](const ScalarGrid& g, Vec3i size) {
        return g.nx() == size.x && g.ny() == size.y && g.nz() == size.z;
    };
    bool ok = fine.size() == fields && drift.size() == 6 &&
              Box3i::at({0, 0, 0}, base.domainSize()).contains(box);
    for (const ScalarGrid& g : fine) ok = ok && fits(g, nf);
    for (const ScalarGrid& g : drift) ok = ok && fits(g, n);
    if (!ok) throw RunError("the upres state is of another grid or scene");
    Fields grid = upres::fineLayout(box, f, base.dx, base.domainOrigin(), base.domainSize());
    grid.density = std::move(fine[0]);
    grid.temperature = std::move(fine[1]);
    if (burns()) {
        grid.fuel = std::move(fine[2]);
        grid.flame = std::move(fine[3]);
        grid.expansion = ScalarGrid(nf.x, nf.y, nf.z);
    }
    if (colored())
        for (int c = 0; c < 3; ++c) grid.color[c] = std::move(fine[fields - 3 + size_t(c)]);
    grid.solid = Grid3<uint8_t>(nf.x, nf.y, nf.z, Vec3f(0.5f), 0);
    placeSolids(grid);
    grid.time = time;
    fine_ = std::move(grid);
    for (int p = 0; p < 2; ++p)
        for (int a = 0; a < 3; ++a) drift_[p][a] = std::move(drift[size_t(p * 3 + a)]);
    box_ = box;
}

}  // namespace plume
