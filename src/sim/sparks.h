// Sparks and embers ([sparks], emitter.sparks): points born where the flame
// burns hotter than sparks.flame_threshold and inside emitters that give
// sparks, then carried by the flow as small hot bodies: drag toward the
// grid's velocity, gravity, buoyancy from their heat, cooling toward the
// air's temperature; they die cold, old, out of the domain, or on a solid
// they do not bounce off. Births are hashed from the domain cell, the frame
// and the substep, never from threads or time, so any thread count, frame
// range and resume gives the same sparks bit for bit.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/processes.h"
#include "core/spark.h"
#include "scene/scene.h"
#include "sim/fields.h"

namespace plume {

// Kelvin below which a spark no longer glows (near the Draper point) and dies.
constexpr float kSparkColdKelvin = 700.0f;
// A spark is born at the flow's velocity plus this share of its speed in a
// hashed direction: thrown, so debris fans out and embers part.
constexpr float kSparkThrow = 0.5f;
// The air's temperature in kelvin where the grid holds ambient.
constexpr float kSparkAirKelvin = 293.0f;

// What a spark moves by, from the scene.
struct SparkMotion {
    float drag = 4.0f;      // 1/s
    float buoyancy = 0.3f;  // g per 1000 K above the air
    float cooling = 0.5f;   // 1/s
    float bounce = 0.0f;
    Vec3f gravity{0, 0, -9.81f};
    float ambient = 0.0f;                // the grid's ambient temperature
    float kelvinPerUnit = 1200.0f;       // render.fire_temperature: the grid's heat in kelvin
    Vec3f domainSize{2, 2, 2};           // metres; a spark outside [0, size) dies
    std::array<Boundary, 6> boundary{};  // walls bounce (with bounce > 0)
    static SparkMotion of(const Scene& scene);
};

// The flow the sparks move through: the solver's islands (their fields over
// boxes of the domain); outside every island, still air. In a split solve
// the islands are this process's parts of them, which hold the domain slabs
// `held`: a point read nearer their cut ends than an interpolation reaches
// is counted (beyond()), not taken for still air.
class SparkFlow {
  public:
    explicit SparkFlow(const std::vector<const Fields*>& islands, SlabRange held = {0, 0},
                       int domainSlabs = 0, float dx = 1.0f)
        : islands_(islands), held_(held), domainSlabs_(domainSlabs), dx_(dx) {}
    // The velocity (m/s) and the air's temperature (grid units) at p (domain metres).
    void sample(Vec3f p, Vec3f& velocity, float& temperature, float ambient) const;
    // True when the cell holding p is solid.
    bool solidAt(Vec3f p) const;
    // How many points were read beyond what this process holds.
    int beyond() const { return beyond_.load(); }

  private:
    const Fields* islandAt(Vec3f p, Vec3f& grid) const;
    void checkHeld(Vec3f p) const;
    std::vector<const Fields*> islands_;
    SlabRange held_;
    int domainSlabs_ = 0;  // 0: one process holds every slab
    float dx_ = 1.0f;
    mutable std::atomic<int> beyond_{0};
};

// A solve split across processes (sim/solver_split.cpp): every process keeps
// every spark; each moves those in the domain slabs it owns and bears those
// born there, and all take the others' in the order one process keeps them.
struct SparkSplit {
    const Processes* processes = nullptr;
    std::vector<SlabRange> owned;  // each process's domain z-slabs
    SlabRange held;                // this process's, its halo included
    int domainSlabs = 0;
};

// Moves every spark over dt seconds and drops the ones that died; the order
// of the survivors is kept. A second-order step: the flow and the air are
// sampled at the midpoint of the spark's own path, where the drag's exact
// solution for a flow held still over the step carries it (exact for any
// drag: ballistic at 0, the flow's midpoint rule when large).
void moveSparks(SparkList& sparks, const SparkFlow& flow, const SparkMotion& motion, float dt);

class Sparks {
  public:
    explicit Sparks(const Scene& scene);

    // One substep of frame `frame` (1-based) lasting dt: the sparks move, then
    // the flame and the emitters active at the frame give birth to new ones.
    // Throws InputError, on every process of a split solve, when a spark
    // moves farther than the halo holds.
    void step(const std::vector<const Fields*>& islands,
              const std::vector<EmitterSettings>& emitters, int frame, float dt,
              const SparkSplit* split = nullptr);

    const SparkList& all() const { return sparks_; }
    // The resume state's; restore replaces them all.
    void restore(SparkList sparks) { sparks_ = std::move(sparks); }

  private:
    // Each source's births (the flame of each island, then each emitter), in
    // the order they join the list; a split solve's in the slabs it owns.
    std::vector<SparkList> bear(const SparkFlow& flow, const std::vector<const Fields*>& islands,
                                const std::vector<EmitterSettings>& emitters, int frame,
                                int substep, float dt, const SparkSplit* split);
    // A split solve's move: each process its own sparks, then every one's.
    void moveSplit(const SparkFlow& flow, float dt, int frame, const SparkSplit& split);

    SparksSettings settings_;
    SparkMotion motion_;
    float dx_;
    SparkList sparks_;
    int frame_ = -1, substep_ = 0;  // the substep's number within its frame
};

}  // namespace plume
