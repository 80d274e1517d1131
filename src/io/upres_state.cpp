#include "io/upres_state.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"

namespace plume {

namespace {

constexpr const char* kMagic = "plume upres state 1";

std::string exact(double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", value);
    return buf;
}

RunError unreadable(const std::string& path, const std::string& why) {
    return RunError("'" + path + "' is not a plume upres state (" + why +
                    "); bake without --resume to start over");
}

}  // namespace

std::string upresStatePath(const std::string& solverStatePath, int frame) {
    return solverStatePath + ".upres." + std::to_string(frame & 1);
}

void writeUpresState(const std::string& path, const UpresState& s) {
    std::ostringstream header;
    header << kMagic << "\n"
           << "hash " << s.sceneHash << "\n"
           << "frame " << s.frame << "\n"
           << "time " << exact(s.time) << "\n"
           << "factor " << s.factor << "\n"
           << "box " << s.box.lo.x << " " << s.box.lo.y << " " << s.box.lo.z << " " << s.box.hi.x
           << " " << s.box.hi.y << " " << s.box.hi.z << "\n"
           << "fine " << s.fine.size() << "\n"
           << "drift " << s.drift.size() << "\n"
           << "data\n";
    const std::string text = header.str();
    writeAtomically(path, [&](const std::string& tmp) {
        std::FILE* out = std::fopen(tmp.c_str(), "wb");
        if (!out) throw RunError("cannot write '" + path + "': " + std::strerror(errno));
        bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
        for (const auto* list : {&s.fine, &s.drift})
            for (const ScalarGrid& g : *list)
                ok = ok && std::fwrite(g.data(), sizeof(float), g.size(), out) == g.size();
        ok = std::fflush(out) == 0 && ok;
        if (std::fclose(out) != 0 || !ok)
            throw RunError("cannot write '" + path +
                           "': " + (errno == ENOSPC ? "the disk is full" : std::strerror(errno)));
    });
}

UpresState readUpresState(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        throw RunError("'" + path + "': no such file (the upres part of the resume state)");
    checkRegularFile(path, "upres state");
    std::ifstream in(path, std::ios::binary);
    std::string line;
    if (!std::getline(in, line) || line != kMagic) throw unreadable(path, "no header");
    UpresState s;
    size_t fine = 0, drift = 0;
    bool ended = false;
    while (!ended && std::getline(in, line)) {
        std::istringstream value(line);
        std::string key;
        value >> key;
        bool ok = true;
        if (key == "hash")
            ok = bool(value >> s.sceneHash);
        else if (key == "frame")
            ok = bool(value >> s.frame);
        else if (key == "time") {
            std::string t;
            ok = bool(value >> t);
            s.time = std::strtod(t.c_str(), nullptr);
        } else if (key == "factor")
            ok = bool(value >> s.factor);
        else if (key == "box")
            ok = bool(value >> s.box.lo.x >> s.box.lo.y >> s.box.lo.z >> s.box.hi.x >> s.box.hi.y >>
                      s.box.hi.z);
        else if (key == "fine")
            ok = bool(value >> fine);
        else if (key == "drift")
            ok = bool(value >> drift);
        else if (key == "data")
            ended = true;
        if (!ok) throw unreadable(path, "its '" + key + "' line is unreadable");
    }
    if (!ended || s.frame < 1 || s.factor < 1 || s.factor > 4 || s.box.empty() || fine > 7 ||
        drift > 6)
        throw unreadable(path, "an incomplete header");
    const Vec3i n = s.box.size();
    const Vec3i nf = times(n, s.factor);
    // The grids must fill the rest of the file exactly, before any is allocated.
    const double cells = double(fine) * nf.x * nf.y * nf.z + double(drift) * n.x * n.y * n.z;
    const double rest = double(std::filesystem::file_size(path, ec)) - double(in.tellg());
    if (ec || rest != cells * sizeof(float))
        throw RunError("'" + path +
                       "' is truncated or of another grid; bake without --resume "
                       "to start over");
    auto read = [&](Vec3i size) {
        ScalarGrid g(size.x, size.y, size.z);
        in.read(reinterpret_cast<char*>(g.data()), std::streamsize(g.size() * sizeof(float)));
        if (!in) throw RunError("'" + path + "' is truncated; bake without --resume to start over");
        return g;
    };
    for (size_t i = 0; i < fine; ++i) s.fine.push_back(read(nf));
    for (size_t i = 0; i < drift; ++i) s.drift.push_back(read(n));
    return s;
}

}  // namespace plume
