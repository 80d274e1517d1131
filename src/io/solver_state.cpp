#include "io/solver_state.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "sim/active_box.h"  // copyOverlap

namespace plume {

namespace fs = std::filesystem;

namespace {

// The first line of every state file; the number is the layout's version.
constexpr const char* kMagic = "plume resume state 2";
// A header line longer than this is not plume's.
constexpr size_t kMaxLine = 1 << 16;
// The most islands a state may list (a line of six numbers each fits).
constexpr int kMaxIslands = 1024;
// Sparks are written as they are held: no padding to carry along.
static_assert(sizeof(Spark) == 48);

// The fields of a state, in file order: the fire's two only in a scene that
// burns fuel, the smoke's colour (three channels) only in one that has it.
// Face grids hold (nx+1)·ny·nz and the like, scalars nx·ny·nz.
int scalarCount(bool burns, bool colored) { return 5 + (burns ? 2 : 0) + (colored ? 3 : 0); }

// Field m of the list above for fields that burn or not.
const ScalarGrid& scalarField(const Fields& f, int m, bool burns) {
    const ScalarGrid* const fixed[] = {&f.u, &f.v, &f.w, &f.density, &f.temperature};
    if (m < 5) return *fixed[m];
    if (burns) {
        if (m == 5) return f.fuel;
        if (m == 6) return f.flame;
        m -= 2;
    }
    return f.color[m - 5];
}
ScalarGrid& scalarField(Fields& f, int m, bool burns) {
    return const_cast<ScalarGrid&>(scalarField(static_cast<const Fields&>(f), m, burns));
}

std::string dims(Vec3i n) {
    return std::to_string(n.x) + "x" + std::to_string(n.y) + "x" + std::to_string(n.z);
}

// %a prints a float or double exactly; strtod reads it back bit for bit.
std::string exact(double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", value);
    return buf;
}

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

RunError writeError(const std::string& path) {
    return RunError("cannot write '" + path +
                    "': " + (errno == ENOSPC ? "the disk is full" : std::strerror(errno)));
}

void writeBytes(std::FILE* out, const void* data, size_t bytes, const std::string& path) {
    if (bytes && std::fwrite(data, 1, bytes, out) != bytes) throw writeError(path);
}

// What a state file's header says.
struct Header {
    std::string creator, scene, hash;
    int frame = 0;
    double time = 0;
    float dx = 0;
    Vec3i domain{0, 0, 0}, boxMin{0, 0, 0}, box{0, 0, 0};
    bool burns = false, colored = false, pressure = false;
    std::vector<Box3i> islands;
    std::int64_t sparks = 0;
};

// "islands N" and each island's min and max corner (domain cells).
bool readIslands(std::istream& value, std::vector<Box3i>& islands) {
    int count = 0;
    if (!(value >> count) || count < 2 || count > kMaxIslands) return false;
    for (int i = 0; i < count; ++i) {
        Box3i b;
        if (!(value >> b.lo.x >> b.lo.y >> b.lo.z >> b.hi.x >> b.hi.y >> b.hi.z)) return false;
        islands.push_back(b);
    }
    return true;
}

Header readHeader(std::istream& in, const std::string& path) {
    auto notState = [&](const std::string& why) {
        return RunError("'" + path + "' is not a plume resume state (" + why + ")");
    };
    std::string line;
    std::getline(in, line);
    if (!in || line != kMagic) {
        if (line.rfind("plume resume state", 0) == 0)
            throw RunError("'" + path + "' is a resume state of another plume version ('" + line +
                           "'); bake without --resume to start over");
        throw notState("it does not begin with '" + std::string(kMagic) + "'");
    }
    Header h;
    bool ended = false;
    while (!ended && std::getline(in, line)) {
        if (line.size() > kMaxLine) throw notState("a header line is too long");
        const size_t space = line.find(' ');
        const std::string key = line.substr(0, space);
        const std::string rest = space == std::string::npos ? "" : line.substr(space + 1);
        std::istringstream value(rest);
        bool ok = true;
        if (key == "creator")
            h.creator = rest;
        else if (key == "scene")
            h.scene = rest;
        else if (key == "hash")
            h.hash = rest;
        else if (key == "frame")
            ok = bool(value >> h.frame);
        else if (key == "time")
            h.time = std::strtod(rest.c_str(), nullptr);
        else if (key == "dx")
            h.dx = float(std::strtod(rest.c_str(), nullptr));
        else if (key == "domain")
            ok = bool(value >> h.domain.x >> h.domain.y >> h.domain.z);
        else if (key == "box")
            ok = bool(value >> h.boxMin.x >> h.boxMin.y >> h.boxMin.z >> h.box.x >> h.box.y >>
                      h.box.z);
        else if (key == "islands")
            ok = readIslands(value, h.islands);
        else if (key == "fire")
            ok = bool(value >> h.burns);
        else if (key == "color")
            ok = bool(value >> h.colored);
        else if (key == "pressure")
            ok = bool(value >> h.pressure);
        else if (key == "sparks")
            ok = bool(value >> h.sparks) && h.sparks >= 0 && h.sparks < (std::int64_t(1) << 40);
        else if (key == "data")
            ended = true;
        // Other keys are a later version's notes: skipped.
        if (!ok) throw notState("its '" + key + "' line is unreadable");
    }
    if (!ended) throw notState("its header has no end");
    if (h.hash.empty() || h.frame < 1 || h.dx <= 0 || h.domain.x < 1 || h.domain.y < 1 ||
        h.domain.z < 1)
        throw notState("no scene hash, frame, voxel size or resolution");
    for (int a = 0; a < 3; ++a)
        if (h.boxMin[a] < 0 || h.box[a] < 1 || h.boxMin[a] + h.box[a] > h.domain[a])
            throw RunError("'" + path + "' holds a box outside its domain");
    const Box3i box = Box3i::at(h.boxMin, h.box);
    for (const Box3i& island : h.islands)
        if (island.empty() || !box.contains(island))
            throw RunError("'" + path + "' holds an island outside its box");
    return h;
}

// Bytes of the data after the header, for a box of `n` cells.
std::uint64_t payloadBytes(Vec3i n, bool burns, bool colored, bool pressure) {
    const std::uint64_t c = std::uint64_t(n.x) * n.y * n.z;
    const std::uint64_t faces =
        3 * c + std::uint64_t(n.y) * n.z + std::uint64_t(n.x) * n.z + std::uint64_t(n.x) * n.y;
    return (faces + (scalarCount(burns, colored) - 3) * c) * sizeof(float) + c * sizeof(uint8_t) +
           (pressure ? c * sizeof(double) : 0);
}

// Slabs [keep.begin, keep.end) of a grid of `slabs` slabs in the file into
// g (which holds those), the others passed over.
template <typename T>
void readValues(std::istream& in, Grid3<T>& g, int slabs, SlabRange keep, const std::string& path) {
    const auto slab = std::streamoff(g.strideZ() * sizeof(T));
    if (keep.begin > 0) in.seekg(keep.begin * slab, std::ios::cur);
    in.read(reinterpret_cast<char*>(g.data()), std::streamsize(g.size() * sizeof(T)));
    if (slabs > keep.end) in.seekg((slabs - keep.end) * slab, std::ios::cur);
    if (!in) throw RunError("'" + path + "' is truncated; bake without --resume to start over");
}

// A box's slabs inside `window` (domain z), from the box's first.
SlabRange slabsIn(const Box3i& box, SlabRange window) {
    const int begin = std::clamp(window.begin, box.lo.z, box.hi.z);
    return {begin - box.lo.z, std::clamp(window.end, begin, box.hi.z) - box.lo.z};
}

// The slabs a grid keeps of a box's `cells`: one more face for w.
SlabRange slabsOf(const ScalarGrid& g, const Fields& f, SlabRange cells) {
    return &g == &f.w ? SlabRange{cells.begin, cells.end + 1} : cells;
}

}  // namespace

std::string resumeStatePath(const std::string& dir, const std::string& name) {
    std::string file = name + ".resume";
    return dir.empty() ? file : (fs::path(dir) / file).string();
}

void writeSolverState(const std::string& path, const Fields& f, int frame,
                      const std::string& sceneHash, const std::string& sceneName,
                      const Grid3<double>* pressure) {
    writeSolverState(path, {{&f, pressure}}, frame, sceneHash, sceneName);
}

void writeSolverState(const std::string& path, const std::vector<SolverStatePart>& parts, int frame,
                      const std::string& sceneHash, const std::string& sceneName,
                      const SparkList* sparks) {
    const Fields& f = *parts.front().fields;
    std::vector<LocalFeed::Part> fed;
    for (const SolverStatePart& part : parts) {
        const Fields& p = *part.fields;
        if (p.burns() != f.burns() || p.colored() != f.colored() ||
            bool(part.pressure) != bool(parts.front().pressure))
            throw RunError("cannot write '" + path + "': its parts differ");
        if (part.pressure && part.pressure->size() != p.cellCount())
            throw RunError("cannot write '" + path + "': the pressure is of another grid");
        fed.push_back({part.fields, part.pressure});
    }
    writeSolverState(path, LocalFeed(std::move(fed)), bool(parts.front().pressure), frame,
                     sceneHash, sceneName, sparks);
}

void writeSolverState(const std::string& path, const FrameFeed& feed, bool pressure, int frame,
                      const std::string& sceneHash, const std::string& sceneName,
                      const SparkList* sparks) {
    // One line each; a name cannot break the header.
    std::string name = sceneName;
    for (char& c : name)
        if (c == '\n' || c == '\r') c = ' ';
    const Fields& f = feed.frame();
    const std::vector<Box3i> boxes = feed.boxes();
    const Vec3i domain = f.domainSize();
    Box3i held;  // the box around every part
    for (const Box3i& box : boxes) held = unite(held, box);
    std::string header = std::string(kMagic) + "\n";
    header += "creator plume " PLUME_VERSION "\n";
    header += "scene " + name + "\n";
    header += "hash " + sceneHash + "\n";
    header += "frame " + std::to_string(frame) + "\n";
    header += "time " + exact(f.time) + "\n";
    header += "dx " + exact(double(f.dx)) + "\n";
    header += "domain " + std::to_string(domain.x) + " " + std::to_string(domain.y) + " " +
              std::to_string(domain.z) + "\n";
    const Vec3i heldSize = held.size();
    header += "box " + std::to_string(held.lo.x) + " " + std::to_string(held.lo.y) + " " +
              std::to_string(held.lo.z) + " " + std::to_string(heldSize.x) + " " +
              std::to_string(heldSize.y) + " " + std::to_string(heldSize.z) + "\n";
    if (boxes.size() > 1) {
        header += "islands " + std::to_string(boxes.size());
        for (const Box3i& b : boxes)
            for (int v : {b.lo.x, b.lo.y, b.lo.z, b.hi.x, b.hi.y, b.hi.z})
                header += " " + std::to_string(v);
        header += "\n";
    }
    header += std::string("fire ") + (f.burns() ? "1" : "0") + "\n";
    // Only when it has colour: a state without is as it always was.
    if (f.colored()) header += "color 1\n";
    header += std::string("pressure ") + (pressure ? "1" : "0") + "\n";
    // Only with sparks: a state without is as it always was.
    const bool withSparks = sparks && !sparks->empty();
    if (withSparks) header += "sparks " + std::to_string(sparks->size()) + "\n";
    header += "data\n";

    // The grids go to the file as the feed hands them out, island after
    // island: nothing is copied, so writing the state costs no memory
    // beside the fields.
    std::vector<FeedGrid> grids = {FeedGrid::U, FeedGrid::V, FeedGrid::W, FeedGrid::Density,
                                   FeedGrid::Temperature};
    if (f.burns()) grids.insert(grids.end(), {FeedGrid::Fuel, FeedGrid::Flame});
    if (f.colored()) grids.insert(grids.end(), {FeedGrid::Red, FeedGrid::Green, FeedGrid::Blue});
    grids.push_back(FeedGrid::Solid);
    if (pressure) grids.push_back(FeedGrid::Pressure);
    writeAtomically(path, [&](const std::string& tmp) {
        std::unique_ptr<std::FILE, FileCloser> out(std::fopen(tmp.c_str(), "wb"));
        if (!out) throw writeError(path);
        writeBytes(out.get(), header.data(), header.size(), path);
        for (size_t island = 0; island < boxes.size(); ++island)
            for (FeedGrid g : grids) {
                const size_t slab = feedSlabValues(g, boxes[island].size()) * feedValueBytes(g);
                feed.read(island, g, [&](int z0, int z1, const void* values) {
                    writeBytes(out.get(), values, size_t(z1 - z0) * slab, path);
                });
            }
        if (withSparks) writeBytes(out.get(), sparks->data(), sparks->size() * sizeof(Spark), path);
        if (std::fflush(out.get()) != 0) throw writeError(path);
        if (std::fclose(out.release()) != 0) throw writeError(path);
    });
}

SolverState readSolverState(const std::string& path, Fields& f, Grid3<double>* pressure,
                            SlabRange window) {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw RunError("'" + path + "': no such file");
    checkRegularFile(path, "resume state");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw RunError("cannot read '" + path + "': " + std::strerror(errno));
    const Header h = readHeader(in, path);

    // The state must be of this very grid
    const Vec3i domain = f.domainSize();
    if (!(h.domain == domain))
        throw RunError("'" + path + "' holds a " + dims(h.domain) + " state; the scene has " +
                       dims(domain) + " cells");
    if (h.dx != f.dx)
        throw RunError("'" + path + "' was saved with voxel size " + std::to_string(h.dx) +
                       "; the scene has " + std::to_string(f.dx));
    if (h.burns != f.burns())
        throw RunError("'" + path + "' was saved " + (h.burns ? "with" : "without") +
                       " fire; the scene has " + (f.burns() ? "fuel" : "none"));
    if (h.colored != f.colored())
        throw RunError("'" + path + "' was saved " + (h.colored ? "with" : "without") +
                       " smoke colour; the scene's emitters have " +
                       (f.colored() ? "a color" : "none"));
    const std::uint64_t size = fs::file_size(path, ec);
    std::uint64_t payload = 0;
    if (h.islands.empty()) payload = payloadBytes(h.box, h.burns, h.colored, h.pressure);
    for (const Box3i& b : h.islands)
        payload += payloadBytes(b.size(), h.burns, h.colored, h.pressure);
    payload += std::uint64_t(h.sparks) * sizeof(Spark);
    const std::uint64_t want = std::uint64_t(in.tellg()) + payload;
    if (ec || size < want)
        throw RunError("'" + path + "' is truncated (" + std::to_string(size) + " of " +
                       std::to_string(want) + " bytes); bake without --resume to start over");
    if (size > want)
        throw RunError("'" + path + "' is not a plume resume state (it runs on past its grids)");

    // A sparse solve's state holds its box: the fields take its shape (its
    // slabs inside the window).
    const Box3i whole = Box3i::at(h.boxMin, h.box);
    const SlabRange kept = slabsIn(whole, window);
    const Vec3i keptMin{h.boxMin.x, h.boxMin.y, h.boxMin.z + kept.begin};
    const Vec3i keptSize{h.box.x, h.box.y, kept.size()};
    if (!(keptMin == f.offset) || !(keptSize == f.n)) {
        Fields box(
            keptSize, f.dx,
            f.domainOrigin() + Vec3f(float(keptMin.x), float(keptMin.y), float(keptMin.z)) * f.dx);
        box.offset = keptMin;
        box.domainCells = f.domainCells;
        if (f.burns()) box.enableFire();
        if (f.colored()) box.enableColor();
        f = std::move(box);
    }

    // Grids, bit for bit
    if (pressure) *pressure = Grid3<double>(f.n.x, f.n.y, f.n.z);
    if (h.islands.empty()) {
        for (int m = 0; m < scalarCount(h.burns, h.colored); ++m) {
            ScalarGrid& g = scalarField(f, m, h.burns);
            readValues(in, g, &g == &f.w ? h.box.z + 1 : h.box.z, slabsOf(g, f, kept), path);
        }
        readValues(in, f.solid, h.box.z, kept, path);
        if (h.pressure) {
            // Read past when not asked for: the sparks follow it.
            Grid3<double> skipped(pressure ? 0 : f.n.x, f.n.y, f.n.z);
            readValues(in, pressure ? *pressure : skipped, h.box.z, kept, path);
        }
    } else {
        // Each island's grids (its slabs inside the window), into its place
        // in the box around them all (what lies between is never read).
        for (const Box3i& b : h.islands) {
            const SlabRange own = slabsIn(b, window);
            const Vec3i lo{b.lo.x, b.lo.y, b.lo.z + own.begin};
            Fields island({b.size().x, b.size().y, own.size()}, f.dx);
            if (h.burns) island.enableFire();
            if (h.colored) island.enableColor();
            for (int m = 0; m < scalarCount(h.burns, h.colored); ++m) {
                ScalarGrid& g = scalarField(island, m, h.burns);
                const bool w = &g == &island.w;
                readValues(in, g, b.size().z + (w ? 1 : 0), slabsOf(g, island, own), path);
                copyOverlap(g, lo, scalarField(f, m, h.burns), f.offset);
                g = ScalarGrid();
            }
            readValues(in, island.solid, b.size().z, own, path);
            copyOverlap(island.solid, lo, f.solid, f.offset);
            if (h.pressure) {
                Grid3<double> p(island.n.x, island.n.y, island.n.z);
                readValues(in, p, b.size().z, own, path);
                if (pressure) copyOverlap(p, lo, *pressure, f.offset);
            }
        }
    }

    SolverState state;
    state.sparks.resize(size_t(h.sparks));
    in.read(reinterpret_cast<char*>(state.sparks.data()),
            std::streamsize(state.sparks.size() * sizeof(Spark)));
    if (!in) throw RunError("'" + path + "' is truncated; bake without --resume to start over");
    state.frame = h.frame;
    state.sceneHash = h.hash;
    state.sceneName = h.scene;
    state.time = h.time;
    state.islands = h.islands;
    state.box = whole;
    f.time = state.time;
    return state;
}

}  // namespace plume
