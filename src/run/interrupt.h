// SIGINT / SIGTERM: the run stops after the frame in flight and finalizes its
// outputs (a playable video, the frames done) instead of dying mid-write.
#pragma once

namespace plume {

void installInterruptHandlers();
// The signal number received (SIGINT, SIGTERM), or 0.
int interruptSignal();

}  // namespace plume
