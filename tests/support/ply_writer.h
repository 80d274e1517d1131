// Writing PLY point files for tests, as Blender's and Houdini's exports lay
// them out: a vertex element of float properties (x, y, z and any others),
// ascii or binary of either byte order, with an optional empty face element.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace plume::test {

struct PlyLayout {
    std::string format = "binary_little_endian";  // or "ascii", "binary_big_endian"
    std::vector<std::string> properties{"x", "y", "z"};
    std::string type = "float";  // or "double"
    bool faces = true;           // an empty face element after the vertices
};

// The bytes of a PLY whose vertices are `rows`, one value a property.
inline std::string plyBytes(const std::vector<std::vector<double>>& rows,
                            const PlyLayout& layout = {}) {
    std::ostringstream out;
    out << "ply\nformat " << layout.format << " 1.0\ncomment written by plume's tests\n"
        << "element vertex " << rows.size() << "\n";
    for (const std::string& p : layout.properties)
        out << "property " << layout.type << " " << p << "\n";
    if (layout.faces) out << "element face 0\nproperty list uchar int vertex_indices\n";
    out << "end_header\n";
    const bool big = layout.format == "binary_big_endian";
    for (const std::vector<double>& row : rows) {
        if (layout.format == "ascii") {
            for (std::size_t i = 0; i < row.size(); ++i) out << (i ? " " : "") << row[i];
            out << "\n";
            continue;
        }
        for (double v : row) {
            unsigned char b[8];
            std::size_t size = layout.type == "double" ? 8 : 4;
            if (size == 8)
                std::memcpy(b, &v, 8);
            else {
                const float f = float(v);
                std::memcpy(b, &f, 4);
            }
            if (big == (std::endian::native == std::endian::little))
                for (std::size_t i = 0; i < size / 2; ++i) std::swap(b[i], b[size - 1 - i]);
            out.write(reinterpret_cast<const char*>(b), std::streamsize(size));
        }
    }
    return out.str();
}

inline void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

}  // namespace plume::test
