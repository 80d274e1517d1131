#include "farm/wedge.h"

#include <cctype>
#include <set>

#include "core/error.h"

namespace plume {

namespace {

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// Characters safe in file names and job names; the rest become '_'.
std::string fileSafe(const std::string& s) {
    std::string out;
    for (char c : s) {
        const bool safe =
            std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
        out += safe ? c : '_';
    }
    return out;
}

}  // namespace

Wedge parseWedge(const std::string& arg) {
    auto fail = [&](const std::string& why) {
        throw InputError("--wedge " + arg + ": error: " + why);
    };
    const size_t eq = arg.find('=');
    if (eq == std::string::npos || trim(arg.substr(0, eq)).empty())
        fail("expected KEY=V1,V2,..., e.g. physics.vorticity=0.2,0.5");
    Wedge wedge;
    wedge.key = trim(arg.substr(0, eq));
    // Split at commas outside brackets and quotes: array values hold commas.
    int depth = 0;
    bool quoted = false;
    std::string value;
    for (char c : arg.substr(eq + 1) + ",") {
        if (c == '"') quoted = !quoted;
        if (!quoted && c == '[') ++depth;
        if (!quoted && c == ']') --depth;
        if (c == ',' && depth == 0 && !quoted) {
            if (trim(value).empty()) fail("an empty value");
            wedge.values.push_back(trim(value));
            value.clear();
        } else {
            value += c;
        }
    }
    return wedge;
}

std::vector<WedgeVariant> wedgeVariants(const std::vector<Wedge>& wedges) {
    // Short names, unless two keys end alike (emitter[1].density, emitter[2].density).
    std::vector<std::string> names;
    std::set<std::string> seen;
    bool clash = false;
    for (const Wedge& w : wedges) {
        names.push_back(w.key.substr(w.key.rfind('.') + 1));
        clash = clash || !seen.insert(names.back()).second;
    }
    if (clash)
        for (size_t n = 0; n < wedges.size(); ++n) names[n] = wedges[n].key;

    std::vector<WedgeVariant> variants(1);
    for (size_t n = 0; n < wedges.size(); ++n) {
        std::vector<WedgeVariant> next;
        for (const WedgeVariant& v : variants)
            for (const std::string& value : wedges[n].values) {
                WedgeVariant w = v;
                w.overrides.push_back(wedges[n].key + "=" + value);
                w.name += (w.name.empty() ? "" : "+") + fileSafe(names[n] + "-" + value);
                w.label += (w.label.empty() ? "" : " ") + names[n] + "=" + value;
                next.push_back(std::move(w));
            }
        variants = std::move(next);
    }
    return variants;
}

}  // namespace plume
