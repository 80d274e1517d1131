// Upres's part of the resume state (sim/upres): the fine box, the fine
// scalars and the noise patterns' drift, in a file of its own beside the
// solver's (io/solver_state.h). Two files, for even and odd frames, written
// before the solver's state each frame: a run stopped between the two writes
// still finds the upres state of the frame the solver's file holds.
#pragma once

#include <string>
#include <vector>

#include "core/box.h"
#include "core/grid3.h"

namespace plume {

// DIR/NAME.upres.0 or .1: the file for `frame`'s parity.
std::string upresStatePath(const std::string& solverStatePath, int frame);

struct UpresState {
    int frame = 0;
    std::string sceneHash;
    double time = 0;
    int factor = 1;
    Box3i box;  // base cells of the domain
    std::vector<ScalarGrid>
        fine;  // density, temperature[, fuel, flame][, colour r, g, b], box * factor cells
    std::vector<ScalarGrid> drift;  // two patterns' x, y, z drift, box cells
};

// Through a temporary and a rename. Throws RunError.
void writeUpresState(const std::string& path, const UpresState& state);
// Throws RunError for a missing, truncated or foreign file.
UpresState readUpresState(const std::string& path);

}  // namespace plume
