#include "sim/obstacles.h"

#include "core/parallel.h"
#include "sim/shapes.h"

namespace plume {

void rasterizeObstacles(Fields& f, const std::vector<ObstacleSettings>& obstacles) {
    f.solid.fill(0);
    std::vector<PlacedShape> placed(obstacles.begin(), obstacles.end());
    parallelForSlabs(f.n.z, [&](int k) {
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i) {
                Vec3f p = f.origin + Vec3f(i + 0.5f, j + 0.5f, k + 0.5f) * f.dx;
                for (const PlacedShape& o : placed)
                    if (o.signedDistance(p) < 0.0f) f.solid(i, j, k) = 1;
            }
    });
}

void clearSolidScalars(Fields& f, float ambientTemperature) {
    parallelForSlabs(f.n.z, [&](int k) {
        for (int j = 0; j < f.n.y; ++j)
            for (int i = 0; i < f.n.x; ++i)
                if (f.solid(i, j, k)) {
                    f.density(i, j, k) = 0.0f;
                    f.temperature(i, j, k) = ambientTemperature;
                }
    });
}

}  // namespace plume
