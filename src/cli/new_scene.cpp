#include "cli/new_scene.h"

#include <cstdio>
#include <filesystem>

#include "core/atomic_file.h"
#include "core/error.h"
#include "scene/starter_scenes.h"

namespace plume {

int runNewScene(const NewSceneOptions& options) {
    const std::string path = options.output.empty() ? options.kind + ".toml" : options.output;
    std::string command = "plume new " + options.kind;
    if (options.size > 0.0f) {
        char size[32];
        std::snprintf(size, sizeof size, "%g", double(options.size));
        command += std::string(" --size ") + size;
    }
    const std::string text = starterSceneText(options.kind, options.size, command);
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
        throw InputError("plume new: error: '" + path +
                         "' is already there; plume new writes only a new file (give -o)");
    writeFileAtomically(path, text);
    if (!options.quiet)
        std::printf("wrote %s; render it with: plume render %s (a quick look: plume preview %s)\n",
                    path.c_str(), path.c_str(), path.c_str());
    return 0;
}

}  // namespace plume
