// Wedges (as Houdini calls them): variations of a scene, each --wedge
// KEY=V1,V2,... multiplying the variants, named after their values.
#pragma once

#include <string>
#include <vector>

namespace plume {

struct Wedge {
    std::string key;                  // a scene key as --set takes it: physics.vorticity
    std::vector<std::string> values;  // as written: "0.2", "[1, 2, 3]", "\"box\""
};

// "KEY=V1,V2,...": commas inside [ ] or quotes belong to a value. Throws
// InputError "--wedge ARG: error: ..." for a missing key or value.
Wedge parseWedge(const std::string& arg);

struct WedgeVariant {
    std::vector<std::string> overrides;  // "key=value" for --set, one per wedge
    std::string name;   // for files: "vorticity-0.2+buoyancy_heat-0.6"; "" without wedges
    std::string label;  // for the eye: "vorticity=0.2 buoyancy_heat=0.6"
};

// Every combination (the cartesian product), the first wedge varying slowest;
// one unnamed variant when there is no wedge. A key is named by its last part
// (vorticity) unless two wedges share that, then in full.
std::vector<WedgeVariant> wedgeVariants(const std::vector<Wedge>& wedges);

}  // namespace plume
