// CLI11's parse errors in plume's words: one line in the form of every other
// refusal ("--threads: error: given twice (2, then 3); give it once",
// "-o x.mp4: error: plume bake writes only the --vdb cache, no video: ..."),
// in place of CLI11's own ("--threads: At Most 1 required but received 2").
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace plume {

// The line for `error`, thrown while parsing `app`'s `command` (a plume
// command's name, or "" when the command line named none).
std::string usageError(const CLI::App& app, const CLI::ParseError& error,
                       const std::string& command);

}  // namespace plume
