#include "cli/video_output.h"

#include <cctype>
#include <filesystem>

#include "core/error.h"

namespace plume {

namespace fs = std::filesystem;

void checkVideoOutput(const std::string& path) {
    const std::string what = "-o " + path + ": error: ";
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (fs::is_directory(status) || fs::path(path).filename().empty())
        throw InputError(what + "a folder: name the video in it, e.g. " +
                         (fs::path(path) / "shot.mp4").string());
    if (fs::exists(status) && !fs::is_regular_file(status)) return;
    std::string ext = fs::path(path).extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".mp4") return;
    fs::path named(path);
    named.replace_extension(".mp4");
    throw InputError(what + "plume writes MP4 video (H.264), whatever the name says: name it " +
                     named.string());
}

}  // namespace plume
