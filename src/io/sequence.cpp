#include "io/sequence.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <system_error>

#include "core/error.h"
#include "core/input_file.h"
#include "io/frame_name.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

bool allDigits(const std::string& s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// Where the frame number sits in a file name, and how it is padded.
struct FrameField {
    std::string prefix, suffix;
    int width = 0;  // minimum digits; 0: unpadded
    bool found = false;
};

// Finds a run of '#' or a printf-style %d / %0Nd in a file name.
FrameField findFrameField(const std::string& name) {
    FrameField f;
    size_t hash = name.find('#');
    if (hash != std::string::npos) {
        size_t end = name.find_first_not_of('#', hash);
        if (end == std::string::npos) end = name.size();
        f.prefix = name.substr(0, hash);
        f.suffix = name.substr(end);
        f.width = int(end - hash);
        f.found = true;
        return f;
    }
    for (size_t pct = name.find('%'); pct != std::string::npos; pct = name.find('%', pct + 1)) {
        size_t p = pct + 1;
        bool zero = p < name.size() && name[p] == '0';
        size_t digitsStart = p;
        while (p < name.size() && std::isdigit(static_cast<unsigned char>(name[p]))) ++p;
        if (p < name.size() && name[p] == 'd') {
            std::string width = name.substr(digitsStart, p - digitsStart);
            f.prefix = name.substr(0, pct);
            f.suffix = name.substr(p + 1);
            // Space padding never appears in file names; only %0Nd pads.
            f.width = zero && !width.empty() ? std::stoi(width) : 0;
            f.found = true;
            return f;
        }
    }
    return f;
}

// Whether 'digits' is a frame number written with this padding: exactly the
// width, or longer without a leading zero (frame 10000 of '####').
bool matchesWidth(const std::string& digits, int width) {
    if (!allDigits(digits) || digits.size() > 9) return false;
    if (int(digits.size()) == width) return true;
    return int(digits.size()) > width && (digits[0] != '0' || digits == "0");
}

// Splits "fluid_data_0007" into "fluid_data_" and 7; false without a trailing number.
bool splitTrailingNumber(const std::string& stem, std::string& prefix, int& frame) {
    size_t start = stem.size();
    while (start > 0 && std::isdigit(static_cast<unsigned char>(stem[start - 1]))) --start;
    std::string digits = stem.substr(start);
    if (digits.empty() || digits.size() > 9) return false;
    prefix = stem.substr(0, start);
    frame = std::stoi(digits);
    return true;
}

std::string joinPath(const fs::path& dir, const std::string& name) {
    return dir.empty() ? name : (dir / name).string();
}

std::string lowerExtension(const fs::path& p) {
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

void sortByFrame(std::vector<SequenceFile>& files) {
    std::stable_sort(files.begin(), files.end(), [](const SequenceFile& a, const SequenceFile& b) {
        return a.frame < b.frame;
    });
}

std::vector<SequenceFile> expandPattern(const std::string& pattern, const FrameField& field,
                                        const std::string& kind) {
    fs::path dir = fs::path(pattern).parent_path();
    std::error_code ec;
    fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec);
    if (ec) throw InputError("no " + kind + " files match '" + pattern + "' (" + ec.message() + ")");

    std::vector<SequenceFile> files;
    for (const fs::directory_entry& entry : it) {
        std::string name = entry.path().filename().string();
        if (name.size() < field.prefix.size() + field.suffix.size()) continue;
        if (name.compare(0, field.prefix.size(), field.prefix) != 0) continue;
        if (name.compare(name.size() - field.suffix.size(), field.suffix.size(), field.suffix) != 0)
            continue;
        std::string digits = name.substr(field.prefix.size(),
                                         name.size() - field.prefix.size() - field.suffix.size());
        if (!matchesWidth(digits, field.width)) continue;
        // A frame that is no file (a FIFO would block its reader) is refused, not skipped.
        if (!entry.is_regular_file(ec)) {
            checkRegularFile(joinPath(dir, name), kind + " file");
            continue;  // not there (a broken link)
        }
        files.push_back({joinPath(dir, name), std::stoi(digits)});
    }
    if (files.empty()) throw InputError("no " + kind + " files match '" + pattern + "'");
    sortByFrame(files);
    return files;
}

// The numbered files of a folder whose names `match` (and end in one of
// `extensions`), grouped by their name around the number: "smoke_####.png".
std::map<std::string, std::vector<SequenceFile>> numberedFiles(
    const fs::path& dir, const std::vector<std::string>& extensions, const std::string& kind,
    std::vector<std::string>* unnumbered, bool (*match)(const std::string&, const std::string&),
    const std::string& glob) {
    std::error_code ec;
    fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec);
    if (ec) throw RunError("cannot list '" + dir.string() + "': " + ec.message());
    std::map<std::string, std::vector<SequenceFile>> sequences;
    for (const fs::directory_entry& entry : it) {
        const std::string ext = lowerExtension(entry.path());
        if (std::find(extensions.begin(), extensions.end(), ext) == extensions.end()) continue;
        if (match && !match(glob, entry.path().filename().string())) continue;
        const std::string path = joinPath(dir, entry.path().filename().string());
        if (!entry.is_regular_file(ec)) {
            checkRegularFile(path, kind + " file");
            continue;  // not there (a broken link)
        }
        std::string stem = entry.path().stem().string();
        std::string prefix;
        int frame = 0;
        if (splitTrailingNumber(stem, prefix, frame))
            sequences[prefix + "####" + entry.path().extension().string()].push_back({path, frame});
        else if (unnumbered)
            unnumbered->push_back(path);
    }
    return sequences;
}

bool globMatches(const std::string& glob, const std::string& name) {
    return fnmatch(glob.c_str(), name.c_str(), FNM_PERIOD) == 0;
}

// A shell glob where a frame pattern belongs ('dir/*.png', quoted so the
// shell left it): plume orders frames by number itself, so it asks for the
// pattern, naming it when the glob's files are one sequence.
[[noreturn]] void refuseGlob(const std::string& pattern, const std::string& kind) {
    const fs::path path(pattern);
    std::string example = joinPath(path.parent_path(), "NAME_####" + path.extension().string());
    try {
        const auto sequences = numberedFiles(path.parent_path(), {lowerExtension(path)}, kind,
                                             nullptr, globMatches, path.filename().string());
        if (sequences.size() == 1) example = joinPath(path.parent_path(), sequences.begin()->first);
    } catch (const std::exception&) {
        // No folder to look in: the generic example.
    }
    throw InputError("'" + pattern +
                     "': error: a glob is not a frame pattern: name the frames as '" + example +
                     "' (or pass the folder)");
}

}  // namespace

std::vector<SequenceFile> expandFolder(const std::string& dir,
                                       const std::vector<std::string>& extensions,
                                       const std::string& kind) {
    // Grouped by name around the number, so a second sequence is noticed, not mixed in.
    std::vector<std::string> unnumbered;
    auto sequences = numberedFiles(fs::path(dir), extensions, kind, &unnumbered, nullptr, "");
    if (sequences.size() > 1) {
        std::string names;
        for (const auto& [name, files] : sequences) names += (names.empty() ? "" : ", ") + name;
        throw InputError("'" + dir + "': error: holds more than one sequence (" + names +
                         "); pass one as a pattern, e.g. '" +
                         joinPath(fs::path(dir), sequences.begin()->first) + "'");
    }
    if (sequences.size() == 1) {
        std::vector<SequenceFile> files = std::move(sequences.begin()->second);
        sortByFrame(files);
        return files;
    }
    // A lone unnumbered file (e.g. a single EmberGen export) is still a sequence
    // of one.
    if (unnumbered.size() == 1) return {{unnumbered.front(), 1}};
    std::string wanted;
    for (const std::string& ext : extensions) wanted += (wanted.empty() ? "*" : " or *") + ext;
    throw InputError("no " + kind + " files match '" + dir + "' (no numbered " + wanted +
                   " files in it)");
}

bool isFramePattern(const std::string& path) {
    return findFrameField(fs::path(path).filename().string()).found;
}

std::string framePatternFile(const std::string& pattern, int frame) {
    const fs::path path(pattern);
    const FrameField field = findFrameField(path.filename().string());
    if (!field.found) return pattern;
    std::string digits = std::to_string(frame);
    if (int(digits.size()) < field.width)
        digits.insert(0, size_t(field.width) - digits.size(), '0');
    return joinPath(path.parent_path(), field.prefix + digits + field.suffix);
}

std::string cacheFramePath(const std::string& dir, const std::string& name, int frame) {
    return frameFileName(dir, name, frame, ".vdb");
}

std::vector<SequenceFile> expandSequence(const std::string& pattern, const std::string& kind) {
    if (pattern.empty()) throw InputError("plume: error: no " + kind + " file or pattern given");
    std::error_code ec;
    if (fs::is_directory(pattern, ec))
        return expandFolder(pattern, {lowerExtension("x." + kind)}, kind);
    checkRegularFile(pattern, kind + " file");  // there, but a FIFO, a device, a directory
    if (fs::is_regular_file(pattern, ec)) {
        std::string prefix;
        int frame = 1;
        if (!splitTrailingNumber(fs::path(pattern).stem().string(), prefix, frame)) frame = 1;
        return {{pattern, frame}};
    }
    if (fs::path(pattern).filename().string().find_first_of("*?") != std::string::npos)
        refuseGlob(pattern, kind);
    FrameField field = findFrameField(fs::path(pattern).filename().string());
    if (!field.found)
        throw InputError("no " + kind + " files match '" + pattern + "' (no such file)");
    return expandPattern(pattern, field, kind);
}

}  // namespace plume
