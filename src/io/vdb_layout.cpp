#include "io/vdb_layout.h"

#include <algorithm>
#include <cstdint>
#include <fstream>

namespace plume {

namespace {

// File format versions that change the layout walked here (OpenVDB's
// version.h names them OPENVDB_FILE_VERSION_*).
constexpr uint32_t kVersionLibraryNumbers = 211;   // library major and minor stored
constexpr uint32_t kVersionGridOffsets = 212;      // "has grid offsets" flag
constexpr uint32_t kVersionInstancing = 216;       // descriptors name an instance parent
constexpr uint32_t kVersionAsciiUuid = 218;        // 36-character UUID, was 16 bytes
constexpr uint32_t kVersionCompressionFlag = 220;  // one compression byte, until 222
constexpr uint32_t kVersionPerGridCompression = 222;
constexpr int64_t kMagic = 0x56444220;  // "VDB "

// Reads the file front to back, never past its end.
class Walker {
  public:
    Walker(std::ifstream& in, int64_t size) : in_(in), size_(size) {}

    // False once anything was cut short; `what` says what was being read.
    bool skip(int64_t bytes, const char* what) {
        if (!ok_) return false;
        if (bytes < 0 || bytes > size_ - pos_) return fail(what);
        pos_ += bytes;
        in_.seekg(pos_);
        return true;
    }
    template <typename T>
    bool read(T& value, const char* what) {
        if (!ok_) return false;
        if (int64_t(sizeof(T)) > size_ - pos_) return fail(what);
        in_.read(reinterpret_cast<char*>(&value), sizeof(T));
        if (!in_) return fail(what);
        pos_ += int64_t(sizeof(T));
        return true;
    }
    // A length-prefixed string; keeps at most 64 characters of it.
    bool string(std::string& out, const char* what) {
        uint32_t length = 0;
        if (!read(length, what)) return false;
        if (int64_t(length) > size_ - pos_) return fail(what);
        out.assign(std::min<uint32_t>(length, 64), '\0');
        in_.read(out.data(), std::streamsize(out.size()));
        if (!in_) return fail(what);
        pos_ += int64_t(out.size());
        return skip(int64_t(length) - int64_t(out.size()), what);
    }
    bool seek(int64_t to, const char* what) {
        if (!ok_) return false;
        if (to < pos_ || to > size_) return fail(what);
        pos_ = to;
        in_.seekg(pos_);
        return true;
    }

    bool ok() const { return ok_; }
    const std::string& problem() const { return problem_; }
    int64_t pos() const { return pos_; }

  private:
    bool fail(const char* what) {
        if (ok_)
            problem_ = std::string("cut short or damaged: ") + what + " does not fit in its " +
                       std::to_string(size_) + " bytes";
        ok_ = false;
        return false;
    }

    std::ifstream& in_;
    int64_t size_, pos_ = 0;
    bool ok_ = true;
    std::string problem_;
};

}  // namespace

std::string vdbLayoutProblem(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return "";  // unreadable: the caller's open says so
    const int64_t size = int64_t(in.tellg());
    in.seekg(0);
    Walker w(in, size);

    // Header: magic, format version, library version, flags, UUID.
    int64_t magic = 0;
    uint32_t version = 0;
    if (!w.read(magic, "the header") || magic != kMagic) return w.problem();
    if (!w.read(version, "the header")) return w.problem();
    if (version < kVersionLibraryNumbers) return "";  // a layout from before 2013: not walked
    w.skip(8, "the header");
    if (version >= kVersionGridOffsets) {
        char hasOffsets = 0;
        if (!w.read(hasOffsets, "the header")) return w.problem();
        if (!hasOffsets) return "";  // a stream, not a file: grids follow in line
    }
    if (version >= kVersionCompressionFlag && version < kVersionPerGridCompression)
        w.skip(1, "the header");
    w.skip(version >= kVersionAsciiUuid ? 36 : 16, "the header");

    // File metadata: a count, then name, type name and sized value each.
    uint32_t entries = 0;
    w.read(entries, "the file metadata");
    std::string name;
    for (uint32_t n = 0; n < entries && w.ok(); ++n) {
        uint32_t valueSize = 0;
        w.string(name, "the file metadata");
        w.string(name, "the file metadata");
        w.read(valueSize, "the file metadata");
        w.skip(valueSize, "the file metadata");
    }

    // Grids: a count, then each grid's descriptor and where the grid ends.
    int32_t grids = 0;
    if (!w.read(grids, "the grid count")) return w.problem();
    if (grids < 0) return "damaged: a negative grid count";
    for (int32_t n = 0; n < grids && w.ok(); ++n) {
        std::string gridName, type, parent;
        int64_t gridPos = 0, blockPos = 0, endPos = 0;
        w.string(gridName, "a grid descriptor");
        w.string(type, "a grid descriptor");
        if (version >= kVersionInstancing) w.string(parent, "a grid descriptor");
        w.read(gridPos, "a grid descriptor");
        w.read(blockPos, "a grid descriptor");
        w.read(endPos, "a grid descriptor");
        if (!w.ok()) break;
        const std::string grid = "grid '" + gridName + "'";
        if (gridPos < w.pos() || blockPos < gridPos || endPos < blockPos || endPos > size)
            return "cut short or damaged: " + grid + " should end at byte " +
                   std::to_string(endPos) + ", the file has " + std::to_string(size);
        w.seek(endPos, "a grid");
    }
    return w.problem();
}

}  // namespace plume
