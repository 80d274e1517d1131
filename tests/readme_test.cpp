// The README's scene reference is what `plume check --reference` prints, verbatim,
// between its two markers: the schema is the one source, so the two cannot drift.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run.h"

namespace plume {
namespace {

constexpr const char* kBegin = "<!-- scene-reference:begin -->\n";
constexpr const char* kEnd = "<!-- scene-reference:end -->";

std::string readReadme() {
    std::ifstream in(std::string(PLUME_SOURCE_DIR) + "/README.md");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

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

}  // namespace
}  // namespace plume
