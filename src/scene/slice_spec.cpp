#include "scene/slice_spec.h"

#include <charconv>
#include <cmath>

#include "scene/schema.h"

namespace plume {

namespace {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

}  // namespace

std::optional<SliceSpec> parseSlice(std::string_view text, std::string* why) {
    auto fail = [&](const char* reason) -> std::optional<SliceSpec> {
        if (why) *why = reason;
        return std::nullopt;
    };
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos) return fail("expected an axis and metres, e.g. \"x=1.0\"");
    const std::string_view axis = trimmed(text.substr(0, eq));
    if (axis.size() != 1 || (axis[0] != 'x' && axis[0] != 'y' && axis[0] != 'z'))
        return fail("the axis must be x, y or z, e.g. \"x=1.0\"");
    const std::string_view number = trimmed(text.substr(eq + 1));
    float position = 0.0f;
    // from_chars takes no leading '+'.
    const std::string_view digits = number.starts_with('+') ? number.substr(1) : number;
    const auto [end, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), position);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
        !std::isfinite(position))
        return fail("the position must be a number of metres, e.g. \"x=1.0\"");
    return SliceSpec{axis[0] - 'x', position};
}

std::string sliceText(const SliceSpec& slice) {
    return std::string(1, char('x' + slice.axis)) + "=" + formatFloat(slice.position);
}

}  // namespace plume
