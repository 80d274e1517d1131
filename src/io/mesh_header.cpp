#include "io/mesh_header.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

namespace plume {

namespace {

// A PLY header past this is no header: Assimp refuses such a file itself.
constexpr std::size_t kMaxPlyHeader = 1 << 20;

// x * y, saturated: a count times a size never wraps to something small.
std::uint64_t times(std::uint64_t x, std::uint64_t y) {
    if (y != 0 && x > std::numeric_limits<std::uint64_t>::max() / y)
        return std::numeric_limits<std::uint64_t>::max();
    return x * y;
}

std::uint64_t plus(std::uint64_t x, std::uint64_t y) {
    return x > std::numeric_limits<std::uint64_t>::max() - y
               ? std::numeric_limits<std::uint64_t>::max()
               : x + y;
}

// Bytes of one PLY scalar in a binary file; 0 for a type PLY does not have.
std::uint64_t plyScalarBytes(const std::string& type) {
    if (type == "char" || type == "uchar" || type == "int8" || type == "uint8") return 1;
    if (type == "short" || type == "ushort" || type == "int16" || type == "uint16") return 2;
    if (type == "int" || type == "uint" || type == "int32" || type == "uint32" || type == "float" ||
        type == "float32")
        return 4;
    if (type == "double" || type == "float64") return 8;
    return 0;
}

// A PLY header's elements against the bytes after it. The least an element
// can take: in binary, its scalars and each list's count (a list may be
// empty); in ascii, a character and a separator per property. A header this
// cannot follow is left to Assimp, which refuses it without allocating.
std::string plyProblem(std::ifstream& in, std::uint64_t fileSize) {
    struct Element {
        std::string name;
        std::uint64_t count = 0, minBytes = 0, properties = 0;
    };
    std::vector<Element> elements;
    bool binary = false, ended = false;
    std::string line;
    while (!ended && std::uint64_t(in.tellg()) < kMaxPlyHeader && std::getline(in, line)) {
        std::istringstream words(line);
        std::string word;
        words >> word;
        if (word == "format") {
            std::string format;
            words >> format;
            binary = format.rfind("binary", 0) == 0;
        } else if (word == "element") {
            Element e;
            std::string count;
            words >> e.name >> count;
            if (count.empty() || count.size() > 19 ||
                !std::all_of(count.begin(), count.end(),
                             [](unsigned char c) { return std::isdigit(c); }))
                return "";
            e.count = std::stoull(count);
            elements.push_back(e);
        } else if (word == "property") {
            if (elements.empty()) return "";
            std::string type;
            words >> type;
            if (type == "list") words >> type;  // the count's type; the items may be none
            const std::uint64_t bytes = plyScalarBytes(type);
            if (bytes == 0) return "";
            elements.back().minBytes += binary ? bytes : 2;
            ++elements.back().properties;
        } else if (word == "end_header") {
            ended = true;
        }
    }
    if (!ended || !in) return "";
    const std::uint64_t header = std::uint64_t(in.tellg());
    const std::uint64_t body = fileSize > header ? fileSize - header : 0;

    // The least the body holds, element by element in file order (ascii's
    // last line may end without its newline); named: the first element past the end.
    const std::uint64_t slack = binary ? 0 : 1;
    std::uint64_t need = 0;
    const Element* over = nullptr;
    for (const Element& e : elements) {
        need = plus(need, times(e.count, e.minBytes));
        if (!over && need > plus(body, slack)) over = &e;
    }
    if (!over) return "";
    return "its header promises " + std::to_string(over->count) + " " + over->name +
           " elements, at least " + std::to_string(need - slack) + " bytes; the file has " +
           std::to_string(body) + " after its header";
}

// A binary STL is 80 bytes of header, a 32-bit triangle count and 50 bytes a
// triangle, exactly; an ascii one starts with "solid" (as some binary
// headers do too, so the size is tried first, as Assimp does).
std::string stlProblem(std::ifstream& in, std::uint64_t fileSize) {
    char head[84] = {};
    in.read(head, sizeof head);
    const std::size_t got = std::size_t(in.gcount());
    std::size_t start = 0;
    while (start < got && std::isspace(static_cast<unsigned char>(head[start]))) ++start;
    const bool saysSolid = got - start >= 5 && std::string(head + start, 5) == "solid";
    if (got < sizeof head) {
        if (saysSolid) return "";
        return "neither an ascii STL (it does not start with 'solid') nor a binary one (84 bytes "
               "at least; the file has " +
               std::to_string(fileSize) + ")";
    }
    const std::uint64_t count =
        std::uint64_t(std::uint8_t(head[80])) | std::uint64_t(std::uint8_t(head[81])) << 8 |
        std::uint64_t(std::uint8_t(head[82])) << 16 | std::uint64_t(std::uint8_t(head[83])) << 24;
    const std::uint64_t want = 84 + 50 * count;
    if (want == fileSize || saysSolid) return "";
    return "its header promises " + std::to_string(count) + " triangles, " + std::to_string(want) +
           " bytes (84 + 50 a triangle); the file has " + std::to_string(fileSize);
}

std::string lowerExtension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

}  // namespace

std::string meshHeaderProblem(const std::string& path) {
    std::error_code ec;
    const std::uint64_t size = std::filesystem::file_size(path, ec);
    if (ec) return "";  // the reader says why it cannot read it
    std::ifstream in(path, std::ios::binary);
    if (!in) return "";
    // By content, not by name: Assimp finds a PLY by its first line too.
    char magic[4] = {};
    in.read(magic, 4);
    in.clear();
    in.seekg(0);
    if (std::string(magic, 4) == "ply\n" || std::string(magic, 4) == "ply\r")
        return plyProblem(in, size);
    if (lowerExtension(path) == ".stl") return stlProblem(in, size);
    return "";
}

}  // namespace plume
