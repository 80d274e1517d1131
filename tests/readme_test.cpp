// The README's scene reference is what `plume check --reference` prints, verbatim,
// between its two markers: the schema is the one source, so the two cannot drift.
// Its first scene is scenes/first_scene.toml, word for word, and every scene file
// and picture it names is in the tree: what a reader types is what ships.
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

constexpr const char* kBegin = "<!-- scene-reference:begin -->\n";
constexpr const char* kEnd = "<!-- scene-reference:end -->";

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

TEST(Readme, SceneReferenceIsPlumeCheckReference) {
    // The real binary's output, as a user regenerating the README gets it.
    test::RunResult r = test::runPlume("check --reference", test::scratchDir("readme_reference"));
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_NE(r.out.find("### [domain]"), std::string::npos) << r.out;

    std::string readme = readReadme();
    std::size_t begin = readme.find(kBegin);
    ASSERT_NE(begin, std::string::npos) << "README.md lacks the line " << kBegin;
    begin += std::strlen(kBegin);
    EXPECT_EQ(readme.find(kBegin, begin), std::string::npos) << "README.md has two " << kBegin;
    std::size_t end = readme.find(kEnd, begin);
    ASSERT_NE(end, std::string::npos) << "README.md lacks " << kEnd << " after " << kBegin;

    // A blank line on each side keeps the markers apart from the tables in markdown.
    std::vector<std::string> inReadme = linesOf(readme.substr(begin, end - begin));
    std::vector<std::string> generated = linesOf("\n" + r.out + "\n");
    const std::size_t firstLine = std::count(readme.begin(), readme.begin() + begin, '\n') + 1;
    std::size_t i = 0;
    while (i < inReadme.size() && i < generated.size() && inReadme[i] == generated[i]) ++i;
    if (i < inReadme.size() || i < generated.size())
        ADD_FAILURE() << "README.md:" << firstLine + i
                      << ": the scene reference differs from `plume check --reference`\n"
                      << "  README.md: " << (i < inReadme.size() ? inReadme[i] : "(ends)") << "\n"
                      << "  generated: " << (i < generated.size() ? generated[i] : "(ends)")
                      << "\nput the command's output between the scene-reference markers, a "
                         "blank line on each side";
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
