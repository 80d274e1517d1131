#include "io/spark_ply.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "core/atomic_file.h"
#include "core/error.h"

namespace plume {

namespace {

constexpr int kFloatsPerSpark = 9;

void put(std::string& out, float v) {
    static_assert(std::endian::native == std::endian::little, "the PLY is little-endian");
    char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    out.append(bytes, sizeof v);
}

}  // namespace

std::string sparkPlyPath(const std::string& vdbPath) {
    const std::string ext = ".vdb";
    const bool vdb = vdbPath.size() > ext.size() &&
                     vdbPath.compare(vdbPath.size() - ext.size(), ext.size(), ext) == 0;
    return (vdb ? vdbPath.substr(0, vdbPath.size() - ext.size()) : vdbPath) + "_sparks.ply";
}

void writeSparkPly(const std::string& path, const SparkList& sparks, Vec3f world) {
    std::string out =
        "ply\nformat binary_little_endian 1.0\n"
        "comment plume sparks: x y z world metres, vx vy vz m/s, age s, temperature K, "
        "pscale radius m\n"
        "element vertex " +
        std::to_string(sparks.size()) + "\n";
    for (const char* name : {"x", "y", "z", "vx", "vy", "vz", "age", "temperature", "pscale"})
        out += std::string("property float ") + name + "\n";
    out += "end_header\n";
    out.reserve(out.size() + sparks.size() * kFloatsPerSpark * sizeof(float));
    for (const Spark& s : sparks) {
        // The sum in double, as the `sparks` grid's P is written.
        for (int a = 0; a < 3; ++a) put(out, float(double(world[a]) + double(s.p[a])));
        for (int a = 0; a < 3; ++a) put(out, s.v[a]);
        put(out, s.age);
        put(out, s.temperature);
        put(out, s.pscale);
    }
    writeFileAtomically(path, out);
}

void syncSparkPly(const std::string& path, const SparkList* sparks, Vec3f world) {
    if (sparks) {
        writeSparkPly(path, *sparks, world);
        return;
    }
    std::error_code ec;  // none there is the usual case
    std::filesystem::remove(path, ec);
}

void carrySparkPly(const std::string& from, const std::string& to) {
    std::error_code ec;
    if (!std::filesystem::exists(from, ec)) {
        std::filesystem::remove(to, ec);
        return;
    }
    if (std::filesystem::equivalent(from, to, ec)) return;
    std::ifstream in(from, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in) throw RunError("cannot read '" + from + "'");
    writeFileAtomically(to, bytes.str());
}

}  // namespace plume
