#include "farm/farm_chunks.h"

namespace plume {

std::string FarmChunks::rangeBash() const {
    // Task t renders S + t * chunk .. S + (t + 1) * chunk - 1, the last one up
    // to frame S + N - 1.
    const std::string n = std::to_string(start + frames - 1);
    return "first=$(( task * " + std::to_string(chunk) + " + " + std::to_string(start) + " ))\n" +
           "last=$(( first + " + std::to_string(chunk - 1) + " ))\n" + "(( last <= " + n +
           " )) || last=" + n + "\n";
}

}  // namespace plume
