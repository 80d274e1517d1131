// Files plume reads that are not what they claim: a path that names no
// regular file (a FIFO would make the reader wait forever, /dev/zero read
// without end) and a mesh header promising more than its file holds (Assimp
// sizes its arrays from the header). Each is refused at once, in one line
// naming where the path came from, exit 2: the real binary runs under a time
// limit and an address-space cap, so a regression hangs or runs out of
// memory here instead of passing.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"
#include "core/input_file.h"
#include "io/mesh_file.h"
#include "io/mesh_header.h"
#include "io/scene_geometry.h"
#include "io/solver_state.h"
#include "io/vdb_cache.h"
#include "scene/loader.h"
#include "sim/fields.h"
#include "support/run.h"
#include "support/scene_errors.h"
#include "support/sanitizer.h"

namespace plume {
namespace {

namespace fs = std::filesystem;

// A scratch folder in the build tree, removed when the test ends.
class Scratch {
  public:
    explicit Scratch(const std::string& name) : dir_(test::scratchDir(name)) {}
    ~Scratch() {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    const fs::path& dir() const { return dir_; }
    std::string operator/(const std::string& name) const { return (dir_ / name).string(); }

  private:
    fs::path dir_;
};

void write(const std::string& path, const std::string& bytes) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

void makeFifo(const std::string& path) {
    fs::create_directories(fs::path(path).parent_path());
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0) << path;
}

// Under ASan the binary runs uncapped (tests/support/sanitizer.h).
using test::kAddressSanitizer;

// Runs plume in dir with at most `seconds` (status 124 past them) and
// `capMiB` of address space: a reader that waits on a FIFO, or allocates
// what a header asks for, fails here instead of hanging the suite.
test::RunResult runPlumeLimited(const std::string& args, const fs::path& dir, int seconds = 20,
                                int capMiB = 1024) {
    const fs::path outFile = dir / "stdout.txt", errFile = dir / "stderr.txt";
    const std::string cap =
        kAddressSanitizer ? "" : "ulimit -v " + std::to_string(capMiB * 1024) + " && ";
    const std::string cmd = "cd '" + dir.string() + "' && " + cap + "exec timeout -k 5 " +
                            std::to_string(seconds) + " '" PLUME_BINARY "' " + args + " > '" +
                            outFile.string() + "' 2> '" + errFile.string() + "' < /dev/null";
    const int raw = std::system(("/bin/sh -c \"" + cmd + "\"").c_str());
    test::RunResult r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    r.err = test::capture("cat '" + errFile.string() + "'");
    return r;
}

// A scene of one mesh emitter whose file key sits on line 5, column 8.
void writeMeshScene(const Scratch& s, const std::string& file) {
    write(s / "s.toml",
          "[domain]\nresolution = 16\n[[emitter]]\nshape = \"mesh\"\nfile = \"" + file + "\"\n");
}

std::string meshError(const std::string& file, const std::string& why) {
    return "s.toml:5:8: error: emitter[1].file: cannot read 'props/" + file + "' (" + why + ")\n";
}

// --- What a path names -------------------------------------------------------

TEST(InputFiles, NotRegularFileNamesWhatThePathIs) {
    Scratch s("input_files_kinds");
    write(s / "real.toml", "");
    makeFifo(s / "pipe");
    fs::create_directory_symlink(s.dir(), s / "dir_link");
    fs::create_symlink(s / "real.toml", s / "file_link");
    fs::create_symlink(s / "pipe", s / "pipe_link");

    EXPECT_EQ(notRegularFile(s / "real.toml"), "");
    EXPECT_EQ(notRegularFile(s / "file_link"), "");  // a link to a file is the file
    EXPECT_EQ(notRegularFile(s / "gone"), "");       // the opener says "no such file"
    EXPECT_EQ(notRegularFile(s / "pipe"), "a FIFO, not a regular file");
    EXPECT_EQ(notRegularFile(s / "pipe_link"), "a FIFO, not a regular file");
    EXPECT_EQ(notRegularFile(s / "dir_link"), "a directory, not a regular file");
    EXPECT_EQ(notRegularFile("/dev/null"), "a character device, not a regular file");

    EXPECT_EQ(test::errorOf([&] { checkRegularFile(s / "pipe", "VDB file"); }),
              s / "pipe" + ": error: cannot read VDB file (a FIFO, not a regular file)");
    EXPECT_EQ(test::errorOf([&] { checkRegularFile(s / "real.toml", "scene file"); }), "");
}

// --- Scenes --------------------------------------------------------------------

TEST(InputFiles, SceneThatIsNoFileIsRefused) {
    Scratch s("input_files_scene");
    makeFifo(s / "pipe.toml");
    fs::create_directory(s.dir() / "folder.toml");

    auto r = runPlumeLimited("check pipe.toml", s.dir());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pipe.toml: error: cannot read scene file (a FIFO, not a regular file)\n");
    r = runPlumeLimited("check /dev/null", s.dir());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(
        r.err,
        "/dev/null: error: cannot read scene file (a character device, not a regular file)\n");
    r = runPlumeLimited("render folder.toml -o out.mp4", s.dir());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "folder.toml: error: cannot read scene file (a directory, not a regular file)\n");
    EXPECT_FALSE(fs::exists(s.dir() / "out.mp4"));
    // encode's --scene is read the same way.
    r = runPlumeLimited("encode 'f_####.png' --scene /dev/null -o out.mp4", s.dir());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(
        r.err,
        "/dev/null: error: cannot read scene file (a character device, not a regular file)\n");
}

// --- Meshes and level sets named by a scene --------------------------------------

TEST(InputFiles, MeshThatIsAFifoIsRefusedAtItsKeyPromptly) {
    Scratch s("input_files_mesh_fifo");
    for (const std::string file : {"pipe.obj", "pipe.vdb"}) {
        SCOPED_TRACE(file);
        makeFifo(s / ("props/" + file));
        writeMeshScene(s, "props/" + file);
        const auto r = runPlumeLimited("check s.toml", s.dir());
        EXPECT_EQ(r.status, 2);  // 124: it waited on the FIFO
        EXPECT_EQ(r.err, meshError(file, "a FIFO, not a regular file"));
    }
    // A directory and a device, through the library.
    fs::create_directory(s.dir() / "props" / "folder.stl");
    writeMeshScene(s, "props/folder.stl");
    EXPECT_EQ(test::errorOf([&] {
                  Scene scene = loadScene(s / "s.toml");
                  loadSceneGeometry(scene);
              }),
              s / "s.toml" + ":5:8: error: emitter[1].file: cannot read '" +
                  s / "props/folder.stl" + "' (a directory, not a regular file)");
    try {
        readMeshFile("/dev/null");
        ADD_FAILURE() << "read /dev/null as a mesh";
    } catch (const GeometryError& e) {
        EXPECT_STREQ(e.what(), "cannot read '/dev/null' (a character device, not a regular file)");
    }
}

// --- Mesh headers that promise more than the file holds --------------------------

const std::string kTetraVertices = "0 0 0\n1 0 0\n0 1 0\n0 0 1\n";
const std::string kTetraFaces = "3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n";

std::string plyHeader(const std::string& format, std::uint64_t vertices, std::uint64_t faces) {
    return "ply\nformat " + format + " 1.0\ncomment plume test\nelement vertex " +
           std::to_string(vertices) + "\nproperty float x\nproperty float y\nproperty float z\n" +
           "element face " + std::to_string(faces) +
           "\nproperty list uchar int vertex_indices\nend_header\n";
}

// A closed tetrahedron as binary little-endian PLY.
std::string binaryTetra(std::uint64_t claimedFaces = 4) {
    std::string body;
    auto put = [&](const void* p, std::size_t n) { body.append(static_cast<const char*>(p), n); };
    const float v[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    put(v, sizeof v);
    const std::int32_t f[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
    for (const auto& t : f) {
        const std::uint8_t three = 3;
        put(&three, 1);
        put(t, sizeof t);
    }
    return plyHeader("binary_little_endian", 4, claimedFaces) + body;
}

// A binary STL: 80 bytes of header, a count, 50 bytes a triangle (normal,
// three corners, a 16-bit attribute).
std::string binaryStl(std::uint32_t claimed, int triangles) {
    std::string s(80, ' ');
    s.append(reinterpret_cast<const char*>(&claimed), 4);
    const float t[12] = {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0};
    for (int n = 0; n < triangles; ++n) {
        s.append(reinterpret_cast<const char*>(t), sizeof t);
        s.append(2, '\0');
    }
    return s;
}

TEST(InputFiles, MeshHeadersThatFitAreRead) {
    Scratch s("input_files_mesh_fit");
    write(s / "ascii.ply", plyHeader("ascii", 4, 4) + kTetraVertices + kTetraFaces);
    write(s / "binary.ply", binaryTetra());
    write(s / "one.stl", binaryStl(1, 1));
    for (const std::string file : {"ascii.ply", "binary.ply", "one.stl"}) {
        SCOPED_TRACE(file);
        EXPECT_EQ(meshHeaderProblem(s / file), "");
    }
    EXPECT_EQ(readMeshFile(s / "ascii.ply").triangles.size(), 4u);
    EXPECT_EQ(readMeshFile(s / "binary.ply").triangles.size(), 4u);
    EXPECT_EQ(countOpenEdges(readMeshFile(s / "binary.ply")), 0u);
    EXPECT_EQ(readMeshFile(s / "one.stl").triangles.size(), 1u);
    // The least an ascii PLY can take: one character and a separator a
    // value, the last newline optional. One face fewer than claimed is short.
    write(s / "tight.ply", plyHeader("ascii", 1, 1) + "0 0 0\n0");
    EXPECT_EQ(meshHeaderProblem(s / "tight.ply"), "");
    write(s / "short.ply", plyHeader("ascii", 1, 2) + "0 0 0\n0");
    EXPECT_EQ(meshHeaderProblem(s / "short.ply"),
              "its header promises 2 face elements, at least 9 bytes; the file has 7 after its "
              "header");
}

TEST(InputFiles, PlyPromisingABillionFacesIsRefusedWithoutTheMemory) {
    Scratch s("input_files_ply_billion");
    write(s / "props/ascii.ply", plyHeader("ascii", 4, 1000000000) + kTetraVertices + kTetraFaces);
    write(s / "props/binary.ply", binaryTetra(1000000000));
    write(s / "props/vertices.ply", plyHeader("binary_big_endian", 1000000000, 0) + "abc");
    const struct {
        const char* file;
        std::string why;
    } cases[] = {
        {"ascii.ply",
         "its header promises 1000000000 face elements, at least 2000000023 bytes; the file has " +
             std::to_string(kTetraVertices.size() + kTetraFaces.size()) + " after its header"},
        // Faces may be empty lists: a byte each at least.
        {"binary.ply",
         "its header promises 1000000000 face elements, at least 1000000048 bytes; "
         "the file has 100 after its header"},
        {"vertices.ply",
         "its header promises 1000000000 vertex elements, at least 12000000000 "
         "bytes; the file has 3 after its header"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.file);
        writeMeshScene(s, std::string("props/") + c.file);
        // Under 1 GiB of address space: Assimp's arrays for 10^9 faces do not fit.
        const auto r = runPlumeLimited("check s.toml", s.dir());
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, meshError(c.file, c.why));
    }
}

TEST(InputFiles, BinaryStlCountMustMatchItsSizeExactly) {
    Scratch s("input_files_stl");
    // 1000 triangles promised, one there.
    write(s / "props/short.stl", binaryStl(1000, 1));
    // 2^31 + 1 triangles: 50 times that wraps to 50 in 32 bits, so the count
    // passes a 32-bit size check in a file of one triangle.
    write(s / "props/wraps.stl", binaryStl(2147483649u, 1));
    // Too short for a binary STL, and no "solid" to be an ascii one.
    write(s / "props/stub.stl", "not a mesh");
    const struct {
        const char* file;
        std::string why;
    } cases[] = {
        {"short.stl",
         "its header promises 1000 triangles, 50084 bytes (84 + 50 a triangle); the file has 134"},
        {"wraps.stl",
         "its header promises 2147483649 triangles, 107374182534 bytes (84 + 50 a triangle); the "
         "file has 134"},
        {"stub.stl",
         "neither an ascii STL (it does not start with 'solid') nor a binary one (84 "
         "bytes at least; the file has 10)"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.file);
        writeMeshScene(s, std::string("props/") + c.file);
        const auto r = runPlumeLimited("check s.toml", s.dir());
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, meshError(c.file, c.why));
    }
}

// --- VDB caches for render-vdb ---------------------------------------------------

TEST(InputFiles, VdbThatIsNoFileIsRefused) {
    Scratch s("input_files_vdb");
    makeFifo(s / "pipe_0001.vdb");
    makeFifo(s / "cache/smoke_0002.vdb");
    write(s / "cache/smoke_0001.vdb", "");
    fs::create_directories(s.dir() / "folder" / "smoke_0001.vdb");

    const struct {
        const char* args;
        std::string err;
    } cases[] = {
        {"render-vdb pipe_0001.vdb -o out.mp4",
         "pipe_0001.vdb: error: cannot read VDB file (a FIFO, not a regular file)\n"},
        {"render-vdb /dev/null -o out.mp4",
         "/dev/null: error: cannot read VDB file (a character device, not a regular file)\n"},
        // A pattern's frame that is no file is refused, not skipped.
        {"render-vdb 'cache/smoke_####.vdb' -o out.mp4",
         "cache/smoke_0002.vdb: error: cannot read VDB file (a FIFO, not a regular file)\n"},
        {"render-vdb cache -o out.mp4",
         "cache/smoke_0002.vdb: error: cannot read VDB file (a FIFO, not a regular file)\n"},
        {"render-vdb folder -o out.mp4",
         "folder/smoke_0001.vdb: error: cannot read VDB file (a directory, not a regular file)\n"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.args);
        const auto r = runPlumeLimited(c.args, s.dir());
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, c.err);
        EXPECT_FALSE(fs::exists(s.dir() / "out.mp4"));
    }
    // The reader itself, past the listing (a device: a FIFO would hang this process).
    EXPECT_EQ(test::errorOf([&] { readVdbFrame("/dev/null"); }),
              "/dev/null: error: cannot read VDB file (a character device, not a regular file)");
}

// --- Resume states --------------------------------------------------------------

TEST(InputFiles, ResumeStateThatIsNoFileIsRefused) {
    Fields f(Vec3i{4, 4, 4}, 0.1f);
    EXPECT_EQ(test::errorOf([&] { readSolverState("/dev/null", f); }),
              "/dev/null: error: cannot read resume state (a character device, not a regular "
              "file)");
}

// --- Frames for encode ---------------------------------------------------------

// An uncompressed EXR header of half RGBA claiming width x height pixels,
// its offset table and one chunk of 8 bytes: all the file holds.
std::string exrClaiming(std::int32_t width, std::int32_t height) {
    std::string out;
    auto put = [&](const auto& value) {
        out.append(reinterpret_cast<const char*>(&value), sizeof value);
    };
    auto attribute = [&](const std::string& name, const std::string& type,
                         const std::string& value) {
        out += name + '\0' + type + '\0';
        put(std::int32_t(value.size()));
        out += value;
    };
    put(std::int32_t(20000630));  // magic
    put(std::int32_t(2));         // version, scanline
    std::string channels;
    for (const char* name : {"A", "B", "G", "R"}) {
        channels += std::string(name) + '\0';
        const std::int32_t half = 1, linear = 0, sampling = 1;
        channels.append(reinterpret_cast<const char*>(&half), 4);
        channels.append(reinterpret_cast<const char*>(&linear), 4);  // pLinear and reserved
        channels.append(reinterpret_cast<const char*>(&sampling), 4);
        channels.append(reinterpret_cast<const char*>(&sampling), 4);
    }
    attribute("channels", "chlist", channels + '\0');
    attribute("compression", "compression", std::string(1, '\0'));
    const std::int32_t box[4] = {0, 0, width - 1, height - 1};
    const std::string window(reinterpret_cast<const char*>(box), sizeof box);
    attribute("dataWindow", "box2i", window);
    attribute("displayWindow", "box2i", window);
    attribute("lineOrder", "lineOrder", std::string(1, '\0'));
    const float one = 1, centre[2] = {0, 0};
    attribute("pixelAspectRatio", "float", std::string(reinterpret_cast<const char*>(&one), 4));
    attribute("screenWindowCenter", "v2f", std::string(reinterpret_cast<const char*>(centre), 8));
    attribute("screenWindowWidth", "float", std::string(reinterpret_cast<const char*>(&one), 4));
    out += '\0';
    const std::uint64_t chunk = out.size() + 8 * std::uint64_t(height);
    for (std::int32_t y = 0; y < height; ++y) put(chunk);
    put(std::int32_t(0));
    put(std::int32_t(8));
    out.append(8, '\0');
    return out;
}

TEST(InputFiles, ExrHeaderAskingForMoreThanItsFileIsRefusedWithoutTheMemory) {
    Scratch s("input_files_exr");
    const std::string exr = exrClaiming(100000000, 2);  // 1.6 GB of halfs in a few hundred bytes
    write(s / "big_0001.exr", exr);
    const auto r = runPlumeLimited("encode big_0001.exr -o out.mp4", s.dir());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "big_0001.exr: error: cannot read EXR file (its header asks for "
              "100000000x2 pixels, 1600000000 bytes, more than its " +
                  std::to_string(exr.size()) + " bytes can hold)\n");
    EXPECT_FALSE(fs::exists(s.dir() / "out.mp4"));
}

// A PNG whose IHDR claims width x height (8-bit RGB) and nothing after it:
// a few dozen bytes promising far more than any deflate stream of them makes.
std::string pngClaiming(std::uint32_t width, std::uint32_t height) {
    std::string out("\x89PNG\r\n\x1a\n", 8);
    auto put32 = [&](std::uint32_t v) {
        for (int shift = 24; shift >= 0; shift -= 8) out += char((v >> shift) & 0xff);
    };
    put32(13);
    out += "IHDR";
    put32(width);
    put32(height);
    out += '\x08';  // bit depth
    out += '\x02';  // RGB
    out.append(3, '\0');  // deflate, adaptive filters, no interlace
    put32(0);  // the CRC: the header is refused before anything checks it
    return out;
}

TEST(InputFiles, PngHeaderAskingForMoreThanItsFileIsRefusedWithoutTheMemory) {
    Scratch s("input_files_png");
    const std::string png = pngClaiming(20000, 20000);  // 1.2 GB of pixels in 33 bytes
    write(s / "big_0001.png", png);
    const auto r = runPlumeLimited("encode big_0001.png -o out.mp4", s.dir());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err,
              "big_0001.png: error: cannot read PNG file (its header asks for "
              "20000x20000 pixels, 1200020000 bytes, more than its " +
                  std::to_string(png.size()) + " bytes can hold)\n");
    EXPECT_FALSE(fs::exists(s.dir() / "out.mp4"));
}

TEST(InputFiles, FrameThatIsNoFileIsRefused) {
    Scratch s("input_files_frames");
    makeFifo(s / "frames/f_0002.png");
    write(s / "frames/f_0001.png", "");
    makeFifo(s / "exr/f_0001.exr");
    fs::create_directories(s.dir() / "dirs/f_0001.png");  // a folder where a frame belongs
    write(s / "dirs/f_0002.png", "");

    const struct {
        const char* args;
        std::string err;
    } cases[] = {
        {"encode 'frames/f_####.png' -o out.mp4",
         "frames/f_0002.png: error: cannot read PNG file (a FIFO, not a regular file)\n"},
        {"encode exr/f_0001.exr -o out.mp4",
         "exr/f_0001.exr: error: cannot read EXR file (a FIFO, not a regular file)\n"},
        {"encode 'dirs/f_####.png' -o out.mp4",
         "dirs/f_0001.png: error: cannot read PNG file (a directory, not a regular file)\n"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.args);
        const auto r = runPlumeLimited(c.args, s.dir());
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, c.err);
        EXPECT_FALSE(fs::exists(s.dir() / "out.mp4"));
    }
}

}  // namespace
}  // namespace plume
