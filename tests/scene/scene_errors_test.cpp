// Scene files: every error kind, with its exact one-line text.
#include "support/scene_errors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "io/scene_geometry.h"
#include "scene/describe.h"
#include "scene/loader.h"
#include "scene/schema.h"

namespace plume {
namespace {

using namespace test;

// --- Errors from fixture files ----------------------------------------------

TEST(SceneErrors, MissingFile) {
    EXPECT_EQ(errorOf([] { loadScene("no/such/scene.toml"); }),
              "no/such/scene.toml: error: cannot read scene file (No such file or directory)");
}

TEST(SceneErrors, Syntax) {
    EXPECT_EQ(loadError("syntax.toml"),
              kBadScenes +
                  "syntax.toml:3:17: error: Error while parsing key-value pair: "
                  "expected a comment or whitespace, saw '6'");
}

TEST(SceneErrors, UnknownKey) {
    EXPECT_EQ(loadError("unknown_key.toml"),
              kBadScenes +
                  "unknown_key.toml:7:1: error: unknown key 'physics.vorticty' "
                  "(did you mean 'physics.vorticity'?)");
}

TEST(SceneErrors, UnknownSection) {
    EXPECT_EQ(loadError("unknown_section.toml"),
              kBadScenes +
                  "unknown_section.toml:4:2: error: unknown section 'phyiscs' "
                  "(did you mean 'physics'?)");
}

TEST(SceneErrors, UnknownKeyInArrayOfTables) {
    EXPECT_EQ(loadError("unknown_emitter_key.toml"),
              kBadScenes +
                  "unknown_emitter_key.toml:6:1: error: unknown key 'emitter[2].radus' "
                  "(did you mean 'emitter[2].radius'?)");
}

TEST(SceneErrors, UnknownBoundarySide) {
    EXPECT_EQ(loadError("unknown_boundary_side.toml"),
              kBadScenes +
                  "unknown_boundary_side.toml:2:32: error: unknown key "
                  "'domain.boundary.xmax' (did you mean 'domain.boundary.x_max'?)");
}

TEST(SceneErrors, WrongType) {
    EXPECT_EQ(loadError("wrong_type.toml"),
              kBadScenes +
                  "wrong_type.toml:2:14: error: 'domain.resolution' must be an integer, "
                  "got a string");
}

TEST(SceneErrors, IntegerWrittenAsFloat) {
    EXPECT_EQ(loadError("integer_as_float.toml"),
              kBadScenes +
                  "integer_as_float.toml:2:14: error: 'domain.resolution' must be an "
                  "integer, got a float");
}

TEST(SceneErrors, ArrayLength) {
    EXPECT_EQ(loadError("array_length.toml"),
              kBadScenes +
                  "array_length.toml:2:8: error: 'domain.size' must be an array of 3 "
                  "numbers, got 2 elements");
}

TEST(SceneErrors, OutOfRange) {
    EXPECT_EQ(loadError("out_of_range.toml"),
              kBadScenes +
                  "out_of_range.toml:2:14: error: 'domain.resolution' = 5000 is out of "
                  "range [8, 1024]");
}

TEST(SceneErrors, NotFinite) {
    EXPECT_EQ(
        loadError("not_finite.toml"),
        kBadScenes + "not_finite.toml:2:13: error: 'physics.vorticity' must be finite, got nan");
}

TEST(SceneErrors, BadEnum) {
    EXPECT_EQ(loadError("bad_enum.toml"),
              kBadScenes +
                  "bad_enum.toml:2:12: error: 'solver.pressure' must be one of \"mgpcg\", "
                  "\"pcg\", \"sor\", got \"cg\"");
}

TEST(SceneErrors, UnknownShape) {
    EXPECT_EQ(loadError("bad_shape.toml"),
              kBadScenes +
                  "bad_shape.toml:2:9: error: 'emitter[1].shape' must be one of "
                  "\"sphere\", \"box\", \"mesh\", \"points\", got \"cone\"");
}

TEST(SceneErrors, OddFrameSize) {
    EXPECT_EQ(loadError("odd_width.toml"),
              kBadScenes +
                  "odd_width.toml:2:9: error: 'render.width' = 1281 must be even for "
                  "H.264 video; use 1280 or 1282");
}

TEST(SceneErrors, EmitterFramesOutOfOrder) {
    EXPECT_EQ(loadError("frames_order.toml"),
              kBadScenes +
                  "frames_order.toml:2:10: error: 'emitter[1].frames' = [10, 5]: the "
                  "first frame comes after the last");
}

TEST(SceneErrors, FirstErrorInTheFileWins) {
    EXPECT_EQ(
        loadError("first_error_wins.toml"),
        kBadScenes + "first_error_wins.toml:3:7: error: 'time.fps' = 0 is out of range [1, 240]");
}

// --- Errors from strings ----------------------------------------------------

TEST(SceneErrorStrings, TypesAndShapes) {
    EXPECT_EQ(parseError("[time]\nframes = true\n"),
              "s.toml:2:10: error: 'time.frames' must be an integer, got a boolean");
    EXPECT_EQ(parseError("[physics]\nvorticity = \"lots\"\n"),
              "s.toml:2:13: error: 'physics.vorticity' must be a number, got a string");
    EXPECT_EQ(parseError("[physics]\ngravity = -9.81\n"),
              "s.toml:2:11: error: 'physics.gravity' must be an array of 3 numbers, got a float");
    EXPECT_EQ(
        parseError("[physics]\nwind = [1, \"x\", 0]\n"),
        "s.toml:2:12: error: 'physics.wind' must be an array of 3 numbers, element 2 is a string");
    EXPECT_EQ(parseError("[[emitter]]\nframes = [1.5, 3]\n"),
              "s.toml:2:11: error: 'emitter[1].frames' must be an array of 2 integers, element 1 "
              "is a float");
    EXPECT_EQ(
        parseError("[output]\ncodec = 264\n"),
        "s.toml:2:9: error: 'output.codec' must be one of \"h264\", \"mpeg4\", got an integer");
    EXPECT_EQ(parseError("[render]\ngrid = 1\n"),
              "s.toml:2:8: error: 'render.grid' must be a string, got an integer");
    EXPECT_EQ(parseError("[ground]\nenabled = 1\n"),
              "s.toml:2:11: error: 'ground.enabled' must be true or false, got an integer");
    EXPECT_EQ(parseError("[[obstacle]]\nvisible = \"no\"\n"),
              "s.toml:2:11: error: 'obstacle[1].visible' must be true or false, got a string");
    EXPECT_EQ(parseError("[[obstacle]]\ncolor = [0.5, 1.5, 0.5]\n"),
              "s.toml:2:15: error: 'obstacle[1].color' element 2 = 1.5 is out of range [0, 1]");
}

TEST(SceneErrorStrings, RangesAndFiniteness) {
    EXPECT_EQ(parseError("[physics]\nviscosity = inf\n"),
              "s.toml:2:13: error: 'physics.viscosity' must be finite, got inf");
    EXPECT_EQ(parseError("[physics]\ndiffusion = -0.5\n"),
              "s.toml:2:13: error: 'physics.diffusion' = -0.5 is out of range [0, inf)");
    EXPECT_EQ(parseError("[domain]\nsize = [2, -1, 2]\n"),
              "s.toml:2:12: error: 'domain.size' element 2 = -1 is out of range (0, 10000]");
    EXPECT_EQ(parseError("[[obstacle]]\nradius = 0\n"),
              "s.toml:2:10: error: 'obstacle[1].radius' = 0 is out of range (0, inf)");
    EXPECT_EQ(parseError("[render]\nphase = 1\n"),
              "s.toml:2:9: error: 'render.phase' = 1 is out of range [-0.99, 0.99]");
    EXPECT_EQ(parseError("[solver]\ntolerance = 1\n"),
              "s.toml:2:13: error: 'solver.tolerance' = 1 is out of range [1e-08, 0.5]");
    EXPECT_EQ(
        parseError("[render]\nheight = 721\n"),
        "s.toml:2:10: error: 'render.height' = 721 must be even for H.264 video; use 720 or 722");
}

TEST(SceneErrorStrings, SectionsOfTheWrongKind) {
    EXPECT_EQ(parseError("domain = 3\n"),
              "s.toml:1:10: error: 'domain' must be a table, got an integer");
    EXPECT_EQ(parseError("[emitter]\nradius = 1\n"),
              "s.toml:1:1: error: 'emitter' must be an array of tables ([[emitter]]), got a table");
    EXPECT_EQ(parseError("[domain]\nboundary = 1\n"),
              "s.toml:2:12: error: 'domain.boundary' must be a string or a table, got an integer");
    EXPECT_EQ(
        parseError("[domain]\nboundary = \"closed\"\n"),
        "s.toml:2:12: error: 'domain.boundary' must be one of \"wall\", \"open\", \"inflow\", "
        "got \"closed\"");
}

TEST(SceneErrorStrings, UnknownTopLevelKeySuggestsItsSection) {
    EXPECT_EQ(parseError("resolution = 48\n"),
              "s.toml:1:1: error: unknown key 'resolution' (did you mean 'domain.resolution'?)");
    EXPECT_EQ(parseError("[xyzzy]\n"), "s.toml:1:2: error: unknown section 'xyzzy'");
    EXPECT_EQ(parseError("[physics]\ncolour = 1\n"),
              "s.toml:2:1: error: unknown key 'physics.colour'");
}

TEST(SceneErrorStrings, CrossFieldChecks) {
    EXPECT_EQ(parseError("[camera]\nposition = [1, 1, 1]\nlook_at = [1, 1, 1]\n"),
              "s.toml:3:11: error: 'camera.look_at' must differ from 'camera.position'");
    EXPECT_EQ(parseError("[camera]\nposition = [0, 0, 0]\nlook_at = [0, 0, 1]\n"),
              "s.toml:3:11: error: 'camera.up' must not be parallel to the view direction "
              "(look_at - position)");
    EXPECT_EQ(parseError("[[light]]\n[[light]]\ndirection = [0, 0, 0]\n"),
              "s.toml:3:13: error: 'light[2].direction' must not be zero for a directional light");
}

// An emitter that can emit nothing, for lying wholly outside the domain
// ([0, 0, 0] to [2, 2, 2] by default), is refused at its centre.
TEST(SceneErrorStrings, EmitterWhollyOutsideTheDomain) {
    EXPECT_EQ(parseError("[[emitter]]\ncenter = [1, 1, 2.3]\n"),
              "s.toml:2:10: error: 'emitter[1].center' = [1, 1, 2.3]: the emitter lies wholly "
              "outside the domain [0, 0, 0] to [2, 2, 2] (check its center, radius and scale)");
    EXPECT_EQ(parseError("[domain]\norigin = [10, 0, 0]\n[[emitter]]\nshape = \"box\"\n"),
              "s.toml:3:1: error: 'emitter[1].center' = [1, 1, 0.3]: the emitter lies wholly "
              "outside the domain [10, 0, 0] to [12, 2, 2] (check its center, size and scale)");
    // Half in is in; so is a shape whose scale reaches in.
    EXPECT_EQ(parseError("[[emitter]]\ncenter = [1, 1, 2.1]\n"), "");
    EXPECT_EQ(parseError("[[emitter]]\ncenter = [1, 1, 2.3]\nscale = [1, 1, 2]\n"), "");
    // Keyed: outside at every key on one side is refused; keys on both sides
    // pass through the domain between them, and one key inside is enough.
    const std::string keyed =
        "[[emitter]]\n[[emitter.key]]\nframe = 1\ncenter = [-1, 1, 1]\n"
        "[[emitter.key]]\nframe = 10\ncenter = ";
    EXPECT_EQ(
        parseError(keyed + "[-3, 1, 1]\n"),
        "s.toml:4:10: error: 'emitter[1].key[1].center' = [-1, 1, 1]: the emitter lies wholly "
        "outside the domain [0, 0, 0] to [2, 2, 2] at every key and between them (check its "
        "center, radius and scale)");
    EXPECT_EQ(parseError(keyed + "[3, 1, 1]\n"), "");
    EXPECT_EQ(parseError(keyed + "[1, 1, 1]\n"), "");
    // A box outside at both keys may turn into the domain between them (at
    // 45 degrees it reaches x = 0.21 from x = -1.2): bounded by its sphere.
    const std::string turning = "[[emitter]]\nshape = \"box\"\nsize = [2, 2, 2]\ncenter = ";
    const std::string turns =
        "\n[[emitter.key]]\nframe = 1\nrotation = [0, 0, 0]\n"
        "[[emitter.key]]\nframe = 10\nrotation = [0, 0, 90]\n";
    EXPECT_EQ(parseError(turning + "[-1.2, 1, 1]" + turns), "");
    EXPECT_EQ(parseError(turning + "[-2, 1, 1]" + turns),
              "s.toml:4:10: error: 'emitter[1].center' = [-2, 1, 1]: the emitter lies wholly "
              "outside the domain [0, 0, 0] to [2, 2, 2] at every key and between them (check its "
              "center, size and scale)");
}

// A `file` on a sphere or a box would be ignored: refused, naming the shape.
TEST(SceneErrorStrings, FileOnAShapeThatReadsNone) {
    EXPECT_EQ(parseError("[[emitter]]\nfile = \"torch.obj\"\n"),
              "s.toml:2:8: error: 'emitter[1].file' is read only for shape = \"mesh\" or "
              "\"points\"; emitter[1] is a sphere (set shape = \"mesh\" to use the file, or drop "
              "the file)");
    EXPECT_EQ(
        parseError("[[emitter]]\n[[obstacle]]\nshape = \"box\"\nfile = \"wall.obj\"\n"),
        "s.toml:4:8: error: 'obstacle[1].file' is read only for shape = \"mesh\"; obstacle[1] "
        "is a box (set shape = \"mesh\" to use the file, or drop the file)");
    // Reported at the later key: here the --set that turned a mesh into a sphere.
    EXPECT_EQ(parseError("[[emitter]]\nshape = \"mesh\"\nfile = \"torch.obj\"\n",
                         {"emitter[1].shape=sphere"}),
              "--set emitter[1].shape=sphere: error: 'emitter[1].file' is read only for shape = "
              "\"mesh\" or \"points\"; emitter[1] is a sphere (set shape = \"mesh\" to use "
              "the file, or drop the file)");
}

TEST(SceneErrorStrings, SyntaxErrorIsOneLine) {
    std::string e = parseError("[domain\n");
    EXPECT_EQ(e.rfind("s.toml:1:", 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

// Bad mesh sequences (tests/data/bad_sequences, also fuzz seeds): the scene
// loads, its geometry does not, at the `file` key, naming the file.
TEST(SceneErrors, BadMeshSequences) {
    const std::string dir = kSourceDir + "/tests/data/bad_sequences/";
    auto geometryError = [&](const std::string& name) {
        return errorOf([&] {
            Scene s = loadScene(dir + name);
            loadSceneGeometry(s);
        });
    };
    EXPECT_EQ(geometryError("missing_frame.toml"),
              dir + "missing_frame.toml:9:8: error: obstacle[1].file: '" + dir +
                  "gap_0003.obj' is missing (the sequence has files for frames 1 to 4: it needs "
                  "every one between)");
    EXPECT_EQ(geometryError("open_and_closed.toml"),
              dir + "open_and_closed.toml:9:8: error: obstacle[1].file: '" + dir +
                  "torn_0002.obj' is not closed (3 open edges), while '" + dir +
                  "torn_0001.obj' is");
    EXPECT_EQ(geometryError("no_match.toml"), dir +
                                                  "no_match.toml:9:8: error: emitter[1].file: no "
                                                  "mesh files match '" +
                                                  dir + "nobody_####.obj'");
}

}  // namespace
}  // namespace plume
