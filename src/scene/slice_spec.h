// render.slice: the plane a slice view shows, written "x=1.0" (an axis and a
// world position in metres along it).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace plume {

struct SliceSpec {
    int axis = 0;           // 0: x, 1: y, 2: z
    float position = 0.0f;  // world metres along the axis
};

// "x=1.0", "z = -0.25"; an empty optional for anything else, with why it is
// not a slice in `why` ("the axis must be x, y or z").
std::optional<SliceSpec> parseSlice(std::string_view text, std::string* why = nullptr);

// "x=1.25": what parseSlice reads back.
std::string sliceText(const SliceSpec& slice);

}  // namespace plume
