#include "cli/farm_chunks.h"

namespace plume {

std::string FarmChunks::rangeBash() const {
    // Task t renders t * chunk + 1 .. (t + 1) * chunk, the last one up to N.
    const std::string n = std::to_string(frames);
    return "first=$(( task * " + std::to_string(chunk) + " + 1 ))\n" + "last=$(( first + " +
           std::to_string(chunk - 1) + " ))\n" + "(( last <= " + n + " )) || last=" + n + "\n";
}

}  // namespace plume
