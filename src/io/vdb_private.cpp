#include "io/vdb_private.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <new>

#include "core/atomic_file.h"
#include "core/input_file.h"
#include "io/vdb_layout.h"

// OpenVDB keeps a file's grid descriptors (where each grid starts and ends)
// private and befriends only its own unit test, ::TestFile. We borrow that door
// for a read-only look: it is the only way to notice a file cut short inside a
// grid we never read, instead of rendering it as if it were whole.
class TestFile {
  public:
    static int64_t lastGridEnd(const openvdb::io::File& file) {
        int64_t end = 0;
        for (const auto& [name, descriptor] : file.gridDescriptors())
            end = std::max(end, descriptor.getEndPos());
        return end;
    }
};

namespace plume::vdb {

namespace fs = std::filesystem;

namespace {

uint32_t compressionFlags() {
    // Blosc is lossless and fast; Debian's OpenVDB has it, but a build without
    // it must still write readable files.
    return openvdb::io::COMPRESS_ACTIVE_MASK |
           (openvdb::io::Archive::hasBloscCompression() ? openvdb::io::COMPRESS_BLOSC
                                                        : openvdb::io::COMPRESS_ZIP);
}

// "'path' is not a readable VDB file (why)", why cut to one printable line.
std::string notReadable(const std::string& path, const std::string& why) {
    // OpenVDB reports garbage from a corrupt file verbatim (a "grid type" of
    // kilobytes of padding): keep the message to one short printable line.
    constexpr size_t kMaxWhy = 160;
    std::string clean;
    for (char c : why) {
        bool printable = c > ' ' && c < 127;
        if (printable)
            clean += c;
        else if (!clean.empty() && clean.back() != ' ')
            clean += ' ';
        if (clean.size() >= kMaxWhy) {
            clean += "...";
            break;
        }
    }
    while (!clean.empty() && clean.back() == ' ') clean.pop_back();
    return "'" + path + "' is not a readable VDB file (" + clean + ")";
}

// RunError unless path is an existing file whose layout fits in it;
// InputError when it names no regular file (a FIFO would block the open).
void requireFile(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw RunError("cannot read '" + path + "': no such file");
    checkRegularFile(path, "VDB file");
    // Before OpenVDB opens it: a cut-short file makes OpenVDB allocate gigabytes.
    if (std::string why = vdbLayoutProblem(path); !why.empty())
        throw RunError(notReadable(path, why));
}

// RunError when the file ends before its last grid does.
void requireWhole(const openvdb::io::File& file, const std::string& path) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    const int64_t end = TestFile::lastGridEnd(file);
    if (!ec && end > int64_t(size))
        throw RunError(notReadable(path, "cut short: its grids end at byte " + std::to_string(end) +
                                             ", the file has " + std::to_string(size)));
}

// Runs an OpenVDB call on the file at path; whatever it throws becomes one line.
template <typename Call>
auto readingAs(const std::string& path, Call&& call) {
    try {
        return call();
    } catch (const std::exception& e) {
        throw RunError(notReadable(path, e.what()));
    }
}

}  // namespace

void initialize() {
    static std::once_flag once;
    std::call_once(once, [] { openvdb::initialize(); });
}

void insertFrameMetadata(openvdb::MetaMap& meta, const Fields& f, int frame,
                         const std::string& sceneName) {
    insertFrameMetadata(meta, f, f.box(), frame, sceneName);
}

void insertFrameMetadata(openvdb::MetaMap& meta, const Fields& f, const Box3i& held, int frame,
                         const std::string& sceneName) {
    meta.insertMeta(kMetaCreator, openvdb::StringMetadata(std::string("plume ") + PLUME_VERSION));
    meta.insertMeta(kMetaFrame, openvdb::Int32Metadata(frame));
    meta.insertMeta(kMetaDx, openvdb::FloatMetadata(f.dx));
    meta.insertMeta(kMetaScene, openvdb::StringMetadata(sceneName));
    const Vec3i domain = f.domainSize();
    meta.insertMeta(kMetaResolution,
                    openvdb::Vec3IMetadata(openvdb::Vec3i(domain.x, domain.y, domain.z)));
    const Vec3i size = held.size();
    if (!(held.lo == Vec3i{0, 0, 0}) || !(size == domain)) {
        meta.insertMeta(kMetaBoxMin,
                        openvdb::Vec3IMetadata(openvdb::Vec3i(held.lo.x, held.lo.y, held.lo.z)));
        meta.insertMeta(kMetaBoxSize,
                        openvdb::Vec3IMetadata(openvdb::Vec3i(size.x, size.y, size.z)));
    }
}

namespace {

// A VDB file written a grid at a time: Archive::write wants every grid at
// once; its header and per-grid steps, which it keeps protected, do not.
class GridByGrid : public openvdb::io::Archive {
  public:
    GridByGrid(std::ostream& os, const openvdb::MetaMap& meta, int32_t count) : os_(os) {
        setCompression(compressionFlags());
        openvdb::io::setDataCompression(os_, compression());
        openvdb::io::setWriteGridStatsMetadata(os_, isGridStatsMetadataEnabled());
        writeHeader(os_, /*seekable=*/true);
        meta.writeMeta(os_);
        os_.write(reinterpret_cast<const char*>(&count), sizeof count);
    }

    void add(const openvdb::GridBase::ConstPtr& grid) {
        openvdb::io::GridDescriptor gd(grid->getName(), grid->type(), grid->saveFloatAsHalf());
        writeGrid(gd, grid, os_, /*seekable=*/true);
        openvdb::io::setDataCompression(os_, compression());  // as Archive::write does
    }

  private:
    std::ostream& os_;
};

}  // namespace

void writeFile(const std::string& path, const openvdb::MetaMap& meta,
               const std::vector<GridMaker>& grids, openvdb::GridPtrVec* keep) {
    initialize();
    writeAtomically(path, "a VDB", [&](const std::string& tmp) {
        {
            std::ofstream os(tmp, std::ios_base::out | std::ios_base::binary |
                                      std::ios_base::trunc);
            if (!os) throw RunError("cannot write '" + path + "': cannot open it for writing");
            GridByGrid file(os, meta, int32_t(grids.size()));
            for (const GridMaker& maker : grids) {
                openvdb::GridBase::Ptr grid;
                try {
                    grid = maker.make();
                } catch (const std::bad_alloc&) {
                    throw;  // out of memory is the run's: the frame loop names the frame and step
                } catch (const std::exception& e) {
                    throw RunError("cannot write '" + path + "': " + e.what());
                }
                grid->setName(maker.name);
                file.add(grid);
                if (keep) keep->push_back(grid);
            }
        }
        // OpenVDB does not report a failed write (a full disk leaves a short
        // file): check that every grid ends inside the file before it takes
        // the frame's name. A device written in place (/dev/null) has nothing
        // to read back.
        std::error_code ec;
        if (!fs::is_regular_file(tmp, ec)) return;
        if (!vdbLayoutProblem(tmp).empty()) {
            const auto space = fs::space(fs::path(tmp).parent_path(), ec);
            throw RunError("cannot write '" + path + "': the file came out incomplete" +
                           (!ec && space.available < (1u << 20) ? " (the disk is full)" : ""));
        }
        if (fs::file_size(tmp, ec) == 0 || ec)
            throw RunError("cannot write '" + path + "': nothing was written (is the disk full?)");
    });
}

Reader::Reader(const std::string& path) : path_(path), file_(path) {
    initialize();
    requireFile(path);
    readingAs(path_, [&] {
        file_.setCopyMaxBytes(0);  // read in place, never via a temporary copy
        file_.open(false);         // no delayed loading: a bad file fails here, not later
        for (auto it = file_.beginName(); it != file_.endName(); ++it)
            names_.push_back(it.gridName());
        meta_ = file_.getMetadata();
    });
    requireWhole(file_, path_);
}

Reader::~Reader() {
    try {
        if (file_.isOpen()) file_.close();
    } catch (...) {
    }
}

bool Reader::has(const std::string& name) const {
    return std::find(names_.begin(), names_.end(), name) != names_.end();
}

std::string Reader::gridList() const {
    if (names_.empty()) return "the file holds no grids";
    std::string list = "grids: ";
    for (size_t n = 0; n < names_.size(); ++n) list += (n ? ", " : "") + names_[n];
    return list;
}

void Reader::requireGrid(const std::string& name) const {
    if (!has(name))
        throw RunError("'" + path_ + "' has no grid '" + name + "' (" + gridList() + ")");
}

openvdb::GridBase::Ptr Reader::read(const std::string& name) {
    requireGrid(name);
    return readingAs(path_, [&] { return file_.readGrid(name); });
}

openvdb::GridBase::Ptr Reader::readMetadata(const std::string& name) {
    requireGrid(name);
    return readingAs(path_, [&] { return file_.readGridMetadata(name); });
}

}  // namespace plume::vdb
