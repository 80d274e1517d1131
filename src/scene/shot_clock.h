// The shot's time and the simulation's (physics.time_scale): the one place
// that says how many simulated seconds a frame, or a part of one, holds.
//
// Shot time is what keys, frames and files count in: frame index f ends at
// shot time f / fps. Simulated time is what the physics counts in: every
// rate (dissipation, burning, noise drift), the CFL rule and velocities (m/s
// of simulated time). time_scale is simulated seconds per shot second, so at
// 0.25 a frame holds a quarter of the simulated time and the smoke moves four
// times slower on screen.
//
// Keyed shapes keep their keyed pace in the shot (as Houdini's DOP time scale
// and Phoenix FD's Time Bend leave animated sources and colliders alone): a
// ball keyed to cross the domain in a second of the shot does so in slow
// motion too, so to the slowed air it moves 1 / time_scale times faster, and
// its boundary velocity (m per simulated second) is that. The same holds for
// a points sequence's positions and velocities (shot metres per second).
//
// With time_scale 1 throughout (identity()), every simulated time below is
// its shot time, bit for bit.
#pragma once

#include <vector>

#include "scene/scene.h"

namespace plume {

// A substep's span of the shot: from `start` (shot seconds) for `length`,
// time_scale at its middle (simulated seconds per shot second), and the
// shot's frame rate (frame index f is the state at shot time f / fps).
struct ShotSpan {
    double start = 0.0;
    double length = 0.0;
    double scale = 1.0;
    double fps = 24.0;
};

class ShotClock {
  public:
    explicit ShotClock(const Scene& scene);

    // time_scale 1 at every frame: simulated time is shot time.
    bool identity() const { return identity_; }
    double fps() const { return fps_; }

    // time_scale at shot time `shotSeconds`.
    double scale(double shotSeconds) const;
    // The largest time_scale from shot time a to b (the ends and keys between).
    double maxScale(double a, double b) const;
    // Simulated seconds of a substep from shot time `a` lasting `shotDt`:
    // time_scale at its middle times its length.
    float simDt(double a, float shotDt) const;
    // The span of a substep from shot time `start` lasting `length`.
    ShotSpan span(double start, double length) const {
        return {start, length, scale(start + 0.5 * length), fps_};
    }
    // The shot time at which frame index `frame` starts, (frame - 1) / fps.
    double frameStart(int frame) const { return double(frame - 1) * (1.0 / fps_); }
    // Simulated seconds at shot time `shotSeconds` (0 at the first frame's start).
    double simTime(double shotSeconds) const;

    // Simulated seconds at the start of frame index `frame` (0 at frame 1),
    // and simulated frames per second over that frame (fps / its mean
    // time_scale): what upres, which steps a frame at a time, counts in.
    double simStart(int frame) const;
    double simFps(int frame) const;

  private:
    // Simulated seconds of shot time a to b, by the midpoint rule in pieces
    // of at most an eighth of a frame: the same bits on every call.
    double integrate(double a, double b) const;

    double fps_;
    float constant_;  // the unkeyed value
    bool identity_;
    Interpolation interpolation_ = Interpolation::Linear;
    std::vector<Key<float>> keys_;
    mutable std::vector<double> starts_;  // simStart of frames 1, 2, ... as far as asked
};

}  // namespace plume
