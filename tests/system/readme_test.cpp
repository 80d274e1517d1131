// The docs held to the code. scenes/README.md's scene reference is what `plume check
// --reference` prints, verbatim, between its two markers, and its list of the Blender add-on's
// properties is what src/blender/write_property_list.py prints from the add-on's own property
// definitions: each is generated from its one source, so neither can drift. README.md's first
// scene is scenes/first_scene.toml, word for word, every scene file and picture it names is in
// the tree, and it stays a guide of at most 800 lines that links the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/run.h"

namespace plume {
namespace {

constexpr const char* kReference = "scenes/README.md";
constexpr const char* kBegin = "<!-- scene-reference:begin -->\n";
constexpr const char* kEnd = "<!-- scene-reference:end -->";
constexpr const char* kPropertiesBegin = "<!-- blender-properties:begin -->\n";
constexpr const char* kPropertiesEnd = "<!-- blender-properties:end -->";
constexpr std::size_t kReadmeMaxLines = 800;

std::string readSource(const std::string& relative) {
    std::ifstream in(std::string(PLUME_SOURCE_DIR) + "/" + relative);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string readReadme() { return readSource("README.md"); }

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// The lines of `file` between `begin` and `end` are `generated` with a blank line on each side
// (which keeps the markers apart from the tables in markdown); else the first line that differs.
void expectGeneratedSection(const std::string& file, const char* begin, const char* end,
                            const std::string& generated, const std::string& how) {
    const std::string text = readSource(file);
    ASSERT_FALSE(text.empty()) << file << " is missing or empty";
    std::size_t from = text.find(begin);
    ASSERT_NE(from, std::string::npos) << file << " lacks the line " << begin;
    from += std::strlen(begin);
    EXPECT_EQ(text.find(begin, from), std::string::npos) << file << " has two " << begin;
    const std::size_t to = text.find(end, from);
    ASSERT_NE(to, std::string::npos) << file << " lacks " << end << " after " << begin;

    std::vector<std::string> inFile = linesOf(text.substr(from, to - from));
    std::vector<std::string> wanted = linesOf("\n" + generated + "\n");
    const std::size_t firstLine = std::count(text.begin(), text.begin() + from, '\n') + 1;
    std::size_t i = 0;
    while (i < inFile.size() && i < wanted.size() && inFile[i] == wanted[i]) ++i;
    if (i < inFile.size() || i < wanted.size())
        ADD_FAILURE() << file << ":" << firstLine + i << ": differs from `" << how << "`\n"
                      << "  " << file << ": " << (i < inFile.size() ? inFile[i] : "(ends)") << "\n"
                      << "  generated: " << (i < wanted.size() ? wanted[i] : "(ends)")
                      << "\nput the command's output between "
                      << std::string(begin, std::strlen(begin) - 1) << " and " << end
                      << ", a blank line on each side";
}

TEST(Readme, SceneReferenceIsPlumeCheckReference) {
    // The real binary's output, as a user regenerating the reference gets it.
    test::RunResult r = test::runPlume("check --reference", test::scratchDir("readme_reference"));
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_NE(r.out.find("### [domain]"), std::string::npos) << r.out;
    expectGeneratedSection(kReference, kBegin, kEnd, r.out, "build/plume check --reference");
}

TEST(Readme, BlenderPropertyListIsTheAddonsOwn) {
    // The add-on's properties as its properties.py makes them from this plume's schema (the
    // script stands in for bpy, so it needs Python 3, not Blender).
    const auto dir = test::scratchDir("readme_blender_properties");
    if (std::system("command -v python3 > /dev/null 2>&1") != 0) {
        if (test::requireAll()) FAIL() << "no python3 to list the add-on's properties";
        GTEST_SKIP() << "no python3 to list the add-on's properties";
    }
    const std::string script = std::string(PLUME_SOURCE_DIR) + "/src/blender/write_property_list.py";
    const std::string cmd = "python3 '" + script + "' --plume '" PLUME_BINARY "' > '" +
                            (dir / "stdout.txt").string() + "' 2> '" + (dir / "stderr.txt").string() +
                            "' < /dev/null";
    const int status = std::system(cmd.c_str());
    auto slurp = [](const std::filesystem::path& p) {
        std::ifstream in(p);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    };
    const std::string out = slurp(dir / "stdout.txt");
    ASSERT_EQ(status, 0) << slurp(dir / "stderr.txt");
    for (const char* name : {"`obj.plume.role`", "`obj.plume.resolution`",
                             "`obj.plume.emitter_temperature`", "`obj.plume.obstacle_visible`"})
        ASSERT_NE(out.find(name), std::string::npos) << "the property list lacks " << name << ":\n"
                                                     << out;
    expectGeneratedSection(kReference, kPropertiesBegin, kPropertiesEnd, out,
                           "python3 src/blender/write_property_list.py --plume build/plume");
}

TEST(Readme, IsAGuideOfAtMost800LinesThatLinksTheReference) {
    const std::string readme = readReadme();
    const std::size_t lines = linesOf(readme).size();
    EXPECT_LE(lines, kReadmeMaxLines)
        << "README.md is " << lines << " lines: keep the guide at most " << kReadmeMaxLines
        << " (what every key is belongs in " << kReference << ")";
    EXPECT_NE(readme.find(std::string("](") + kReference + ")"), std::string::npos)
        << "README.md does not link " << kReference << " (a markdown link, ](" << kReference
        << "))";
    EXPECT_EQ(readme.find(kBegin), std::string::npos)
        << "README.md holds the scene reference again: it lives in " << kReference;
    EXPECT_EQ(readme.find(kPropertiesBegin), std::string::npos)
        << "README.md holds the add-on's property list: it lives in " << kReference;
}

TEST(Readme, FirstSceneIsTheShippedFileAndPlumeCheckAcceptsIt) {
    // The first ```toml block after the heading is the file a reader types.
    const std::string readme = readReadme();
    const std::size_t heading = readme.find("\n## Your first scene\n");
    ASSERT_NE(heading, std::string::npos) << "README.md lacks the heading '## Your first scene'";
    const std::string fence = "\n```toml\n";
    const std::size_t open = readme.find(fence, heading);
    ASSERT_NE(open, std::string::npos) << "README.md's first scene has no ```toml block";
    const std::size_t begin = open + fence.size();
    const std::size_t close = readme.find("\n```\n", begin);
    ASSERT_NE(close, std::string::npos) << "README.md's first scene block is not closed";
    const std::string inReadme = readme.substr(begin, close + 1 - begin);

    const std::string shipped = readSource("scenes/first_scene.toml");
    ASSERT_FALSE(shipped.empty()) << "scenes/first_scene.toml is missing or empty";
    EXPECT_EQ(inReadme, shipped)
        << "README.md's first scene differs from scenes/first_scene.toml: paste the file into "
           "the block";

    test::RunResult r =
        test::runPlume("check '" + std::string(PLUME_SOURCE_DIR) + "/scenes/first_scene.toml'",
                       test::scratchDir("readme_first_scene"));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("[[emitter]]"), std::string::npos) << r.out;
}

TEST(Readme, EveryFileItNamesUnderScenesExists) {
    // Scene files in the text, stills in image links: `scenes/NAME.toml`, (scenes/NAME.png).
    const std::string readme = readReadme();
    const std::regex named(R"(scenes/[A-Za-z0-9_/]+\.(toml|png|obj))");
    std::set<std::string> names;
    for (auto it = std::sregex_iterator(readme.begin(), readme.end(), named);
         it != std::sregex_iterator(); ++it)
        names.insert(it->str());
    EXPECT_GE(names.size(), 5u) << "README.md names almost no scenes";
    for (const std::string& name : names)
        EXPECT_TRUE(std::filesystem::is_regular_file(std::string(PLUME_SOURCE_DIR) + "/" + name))
            << "README.md names " << name << ", which is not in the tree";
}

}  // namespace
}  // namespace plume
