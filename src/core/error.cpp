#include "core/error.h"

namespace plume {

std::string SourceLocation::str() const {
    std::string s = file;
    if (line > 0) {
        s += ":" + std::to_string(line);
        if (column > 0) s += ":" + std::to_string(column);
    }
    return s;
}

}  // namespace plume
