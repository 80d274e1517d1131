#include "io/point_file.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/input_file.h"

namespace plume {

namespace {

enum class PlyFormat { Ascii, LittleEndian, BigEndian };
enum class PlyType { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

struct PlyProperty {
    std::string name;
    PlyType type = PlyType::Float32;
    bool list = false;
    PlyType countType = PlyType::UInt8;
};

struct PlyElement {
    std::string name;
    std::uint64_t count = 0;
    std::vector<PlyProperty> properties;
};

int typeSize(PlyType t) {
    switch (t) {
        case PlyType::Int8:
        case PlyType::UInt8:
            return 1;
        case PlyType::Int16:
        case PlyType::UInt16:
            return 2;
        case PlyType::Int32:
        case PlyType::UInt32:
        case PlyType::Float32:
            return 4;
        case PlyType::Float64:
            return 8;
    }
    return 4;
}

bool parseType(std::string_view word, PlyType& t) {
    static const std::pair<std::string_view, PlyType> names[] = {
        {"char", PlyType::Int8},      {"int8", PlyType::Int8},       {"uchar", PlyType::UInt8},
        {"uint8", PlyType::UInt8},    {"short", PlyType::Int16},     {"int16", PlyType::Int16},
        {"ushort", PlyType::UInt16},  {"uint16", PlyType::UInt16},   {"int", PlyType::Int32},
        {"int32", PlyType::Int32},    {"uint", PlyType::UInt32},     {"uint32", PlyType::UInt32},
        {"float", PlyType::Float32},  {"float32", PlyType::Float32}, {"double", PlyType::Float64},
        {"float64", PlyType::Float64}};
    for (const auto& [n, type] : names)
        if (word == n) return t = type, true;
    return false;
}

// The header's lines split into words; `end` is where the data starts.
struct PlyHeader {
    PlyFormat format = PlyFormat::Ascii;
    std::vector<PlyElement> elements;
    std::size_t end = 0;
};

std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
        if (j > i) out.push_back(line.substr(i, j - i));
        i = j;
    }
    return out;
}

PlyHeader parseHeader(std::string_view bytes, const std::string& name) {
    auto fail = [&](int line, const std::string& why) -> GeometryError {
        return GeometryError("'" + name + "': " + why + " (PLY header line " +
                             std::to_string(line) + ")");
    };
    // A header is a few hundred bytes; far more without end_header is no PLY.
    constexpr std::size_t kMaxHeader = 1 << 16;
    PlyHeader h;
    std::size_t at = 0;
    int line = 0;
    bool sawFormat = false;
    while (true) {
        const std::size_t nl = bytes.find('\n', at);
        if (nl == std::string_view::npos || nl > kMaxHeader)
            throw GeometryError(
                "'" + name + "': not a PLY file (no end_header" +
                (line == 0 ? std::string() : " after " + std::to_string(line) + " header lines") +
                ")");
        const std::string_view text = bytes.substr(at, nl - at);
        at = nl + 1;
        ++line;
        const std::vector<std::string_view> w = words(text);
        if (line == 1) {
            if (w.size() != 1 || w[0] != "ply")
                throw GeometryError("'" + name +
                                    "': not a PLY file (it does not start with 'ply')");
            continue;
        }
        if (w.empty() || w[0] == "comment" || w[0] == "obj_info") continue;
        if (w[0] == "end_header") break;
        if (w[0] == "format") {
            if (w.size() != 3) throw fail(line, "expected 'format ascii|binary_little_endian|...'");
            if (w[1] == "ascii")
                h.format = PlyFormat::Ascii;
            else if (w[1] == "binary_little_endian")
                h.format = PlyFormat::LittleEndian;
            else if (w[1] == "binary_big_endian")
                h.format = PlyFormat::BigEndian;
            else
                throw fail(line, "unknown format '" + std::string(w[1]) + "'");
            sawFormat = true;
        } else if (w[0] == "element") {
            if (w.size() != 3) throw fail(line, "expected 'element NAME COUNT'");
            PlyElement e;
            e.name = std::string(w[1]);
            auto [ptr, ec] = std::from_chars(w[2].data(), w[2].data() + w[2].size(), e.count);
            if (ec != std::errc() || ptr != w[2].data() + w[2].size())
                throw fail(line, "element count '" + std::string(w[2]) + "' is not a number");
            h.elements.push_back(std::move(e));
        } else if (w[0] == "property") {
            if (h.elements.empty()) throw fail(line, "a property before any element");
            PlyProperty p;
            if (w.size() == 5 && w[1] == "list") {
                p.list = true;
                if (!parseType(w[2], p.countType) || !parseType(w[3], p.type))
                    throw fail(line, "unknown list types '" + std::string(w[2]) + " " +
                                         std::string(w[3]) + "'");
                if (p.countType == PlyType::Float32 || p.countType == PlyType::Float64)
                    throw fail(line, "a list's count must be an integer type");
                p.name = std::string(w[4]);
            } else if (w.size() == 3) {
                if (!parseType(w[1], p.type))
                    throw fail(line, "unknown property type '" + std::string(w[1]) + "'");
                p.name = std::string(w[2]);
            } else {
                throw fail(line, "expected 'property TYPE NAME' or 'property list ...'");
            }
            h.elements.back().properties.push_back(std::move(p));
        } else {
            throw fail(line, "unknown header keyword '" + std::string(w[0]) + "'");
        }
    }
    if (!sawFormat) throw GeometryError("'" + name + "': the PLY header has no format line");
    h.end = at;
    return h;
}

// Reads values one after another from the data, ascii or binary.
class PlyData {
  public:
    PlyData(std::string_view bytes, PlyFormat format) : bytes_(bytes), format_(format) {}

    // False when the data ends first.
    bool read(PlyType t, double& v) {
        if (format_ == PlyFormat::Ascii) return readWord(v);
        const int size = typeSize(t);
        if (bytes_.size() - at_ < std::size_t(size)) return false;
        unsigned char b[8];
        std::memcpy(b, bytes_.data() + at_, std::size_t(size));
        at_ += std::size_t(size);
        const bool swap =
            (format_ == PlyFormat::BigEndian) == (std::endian::native == std::endian::little);
        if (swap) std::reverse(b, b + size);
        switch (t) {
            case PlyType::Int8:
                v = double(std::int8_t(b[0]));
                break;
            case PlyType::UInt8:
                v = double(b[0]);
                break;
            case PlyType::Int16:
                v = double(load<std::int16_t>(b));
                break;
            case PlyType::UInt16:
                v = double(load<std::uint16_t>(b));
                break;
            case PlyType::Int32:
                v = double(load<std::int32_t>(b));
                break;
            case PlyType::UInt32:
                v = double(load<std::uint32_t>(b));
                break;
            case PlyType::Float32:
                v = double(load<float>(b));
                break;
            case PlyType::Float64:
                v = load<double>(b);
                break;
        }
        return true;
    }

    // Skips `n` values of type t; false when the data ends first.
    bool skip(PlyType t, std::uint64_t n) {
        if (format_ != PlyFormat::Ascii) {
            const std::uint64_t size = n * std::uint64_t(typeSize(t));
            if (n > bytes_.size() || bytes_.size() - at_ < size) return false;
            at_ += std::size_t(size);
            return true;
        }
        double ignored;
        for (std::uint64_t i = 0; i < n; ++i)
            if (!read(t, ignored)) return false;
        return true;
    }

    // Bytes (binary) or at least bytes per value (ascii: a digit and a
    // space): the most values the rest of the data can hold.
    std::uint64_t left() const { return bytes_.size() - at_; }
    bool badWord() const { return badWord_; }

  private:
    template <typename T>
    static T load(const unsigned char* b) {
        T v;
        std::memcpy(&v, b, sizeof v);
        return v;
    }

    bool readWord(double& v) {
        while (at_ < bytes_.size() && std::isspace(static_cast<unsigned char>(bytes_[at_]))) ++at_;
        if (at_ == bytes_.size()) return false;
        std::size_t end = at_;
        while (end < bytes_.size() && !std::isspace(static_cast<unsigned char>(bytes_[end]))) ++end;
        const char* first = bytes_.data() + at_;
        auto [ptr, ec] = std::from_chars(first, bytes_.data() + end, v);
        at_ = end;
        if (ec != std::errc() || ptr != bytes_.data() + end) {
            badWord_ = true;
            return false;
        }
        return true;
    }

    std::string_view bytes_;
    PlyFormat format_;
    std::size_t at_ = 0;
    bool badWord_ = false;
};

}  // namespace

PointFrame parsePlyPoints(std::string_view bytes, const std::string& name) {
    const PlyHeader h = parseHeader(bytes, name);
    const auto vertex = std::find_if(h.elements.begin(), h.elements.end(),
                                     [](const PlyElement& e) { return e.name == "vertex"; });
    if (vertex == h.elements.end())
        throw GeometryError("'" + name + "': the PLY file has no vertex element");

    // Where each wanted value sits among a vertex's properties (-1: absent).
    auto find = [&](std::string_view n) {
        for (std::size_t p = 0; p < vertex->properties.size(); ++p)
            if (vertex->properties[p].name == n && !vertex->properties[p].list) return int(p);
        return -1;
    };
    const int x = find("x"), y = find("y"), z = find("z");
    if (x < 0 || y < 0 || z < 0)
        throw GeometryError("'" + name + "': the PLY vertex element has no x, y and z");
    const int radius = find("radius") >= 0 ? find("radius") : find("pscale");
    const int vx = find("vx"), vy = find("vy"), vz = find("vz");
    const bool moving = vx >= 0 || vy >= 0 || vz >= 0;

    PlyData data(bytes.substr(h.end), h.format);
    auto cutShort = [&](const PlyElement& e, std::uint64_t i) {
        return GeometryError("'" + name + "': " +
                             (data.badWord() ? "a value that is not a number in "
                                             : std::string("the data ends in ")) +
                             e.name + " " + std::to_string(i) + " of " + std::to_string(e.count));
    };
    // Elements before the vertices are skipped value by value (lists need
    // their counts read).
    for (auto e = h.elements.begin(); e != vertex; ++e) {
        // Rows of no properties hold no bytes, however many a header claims.
        if (e->properties.empty()) continue;
        for (std::uint64_t i = 0; i < e->count; ++i)
            for (const PlyProperty& p : e->properties) {
                std::uint64_t n = 1;
                if (p.list) {
                    double count;
                    if (!data.read(p.countType, count) || count < 0 || count > double(data.left()))
                        throw cutShort(*e, i);
                    n = std::uint64_t(count);
                }
                if (!data.skip(p.type, n)) throw cutShort(*e, i);
            }
    }

    // Every vertex needs at least a byte a value (binary) or two (ascii):
    // a count the data cannot hold is refused before anything is allocated.
    const std::uint64_t count = vertex->count;
    if (count > data.left())
        throw GeometryError("'" + name + "': the data ends before vertex " +
                            std::to_string(data.left()) + " of " + std::to_string(count));
    PointFrame out;
    out.position.resize(count);
    if (radius >= 0) out.radius.resize(count);
    if (moving) out.velocity.assign(count, Vec3f(0.0f));
    std::vector<double> values(vertex->properties.size());
    for (std::uint64_t i = 0; i < count; ++i) {
        for (std::size_t p = 0; p < vertex->properties.size(); ++p) {
            const PlyProperty& prop = vertex->properties[p];
            if (prop.list) {
                double n;
                if (!data.read(prop.countType, n) || n < 0 || n > double(data.left()) ||
                    !data.skip(prop.type, std::uint64_t(n)))
                    throw cutShort(*vertex, i);
                continue;
            }
            if (!data.read(prop.type, values[p])) throw cutShort(*vertex, i);
        }
        auto value = [&](int p, const char* what) {
            const double v = values[std::size_t(p)];
            if (!std::isfinite(v) || std::fabs(v) > 1e30)
                throw GeometryError("'" + name + "': vertex " + std::to_string(i) + " has " + what +
                                    " = " + std::to_string(v) + " (not a finite number)");
            return float(v);
        };
        out.position[i] = {value(x, "x"), value(y, "y"), value(z, "z")};
        if (radius >= 0) {
            const float r = value(radius, vertex->properties[std::size_t(radius)].name.c_str());
            if (r < 0.0f)
                throw GeometryError("'" + name + "': vertex " + std::to_string(i) +
                                    " has a negative radius (" + std::to_string(r) + ")");
            out.radius[i] = r;
        }
        if (moving)
            out.velocity[i] = {vx >= 0 ? value(vx, "vx") : 0.0f, vy >= 0 ? value(vy, "vy") : 0.0f,
                               vz >= 0 ? value(vz, "vz") : 0.0f};
    }
    return out;
}

PointFrame readPlyPoints(const std::string& path) {
    if (std::string why = notRegularFile(path); !why.empty())
        throw GeometryError("cannot read '" + path + "' (" + why + ")");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw GeometryError("cannot read '" + path + "' (no such file)");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw GeometryError("cannot read '" + path + "'");
    return parsePlyPoints(text.str(), path);
}

}  // namespace plume
