// Helpers of the scene tests: the exact message a load, a parse or a --set throws.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "scene/loader.h"

namespace plume::test {

inline const std::string kSourceDir = PLUME_SOURCE_DIR;
inline const std::string kBadScenes = kSourceDir + "/tests/data/bad_scenes/";

// The message a call throws as InputError, or "" when it does not throw.
template <typename F>
std::string errorOf(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

inline std::string loadError(const std::string& fixture) {
    return errorOf([&] { loadScene(kBadScenes + fixture); });
}

inline std::string parseError(std::string_view text, std::vector<std::string> overrides = {}) {
    return errorOf([&] { parseScene(text, "s.toml", overrides); });
}

inline std::string setError(const std::string& arg, std::string_view text = "[[emitter]]\n") {
    return errorOf([&] { parseScene(text, "s.toml", {arg}); });
}

}  // namespace plume::test
