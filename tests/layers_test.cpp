// The layers one way (CMakeLists.txt's module section): every #include "folder/..." in src/ and
// render/ names a layer the including file's own layer may see. core <- scene <- sim <- io;
// render and report see core and scene only (render makes images, io writes every file); run
// sees all of those; farm and preview see run and below; cli sees everything. A file in a folder
// the rule does not name fails too, so a new folder is placed before it is used.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace plume {
namespace {

namespace fs = std::filesystem;

// Each layer and the layers its files may include (itself among them).
const std::map<std::string, std::set<std::string>>& layerRule() {
    static const std::map<std::string, std::set<std::string>> rule = [] {
        std::map<std::string, std::set<std::string>> r;
        r["core"] = {"core"};
        r["scene"] = {"core", "scene"};
        r["sim"] = {"core", "scene", "sim"};
        r["io"] = {"core", "scene", "sim", "io"};
        r["render"] = {"core", "scene", "render"};
        r["report"] = {"core", "scene", "report"};
        r["run"] = {"core", "scene", "sim", "io", "render", "report", "run"};
        r["farm"] = r["run"];
        r["farm"].insert("farm");
        r["preview"] = r["run"];
        r["preview"].insert("preview");
        r["cli"] = {"core", "scene", "sim", "io", "render", "report", "run", "farm", "preview", "cli"};
        return r;
    }();
    return rule;
}

// A source file's layer: its folder under src/ (src/sim/pressure/ is sim), or render.
std::string layerOf(const fs::path& relative) {
    auto part = relative.begin();
    if (*part == "render") return "render";
    ++part;  // src/
    return part == relative.end() ? std::string() : part->string();
}

struct Include {
    std::string file;  // relative to the source tree
    int line = 0;
    std::string layer, target;  // the file's layer and the included header's
};

// Every #include "folder/..." in the C++ files of src/ (but the Blender add-on) and render/.
std::vector<Include> includesOf(const fs::path& root) {
    static const std::regex kInclude(R"(^\s*#\s*include\s*"([A-Za-z_]+)/)");
    std::vector<Include> all;
    for (const char* top : {"src", "render"})
        for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
            const fs::path& path = entry.path();
            if (!entry.is_regular_file() || (path.extension() != ".h" && path.extension() != ".cpp"))
                continue;
            const fs::path relative = fs::relative(path, root);
            const std::string layer = layerOf(relative);
            if (layer == "blender") continue;
            std::ifstream in(path);
            int number = 0;
            for (std::string line; std::getline(in, line);) {
                ++number;
                std::smatch m;
                if (std::regex_search(line, m, kInclude))
                    all.push_back({relative.string(), number, layer, m[1].str()});
            }
        }
    return all;
}

TEST(Layers, EveryIncludeRunsDownOrWithinItsLayer) {
    const std::vector<Include> includes = includesOf(PLUME_SOURCE_DIR);
    ASSERT_GT(includes.size(), 500u) << "the scan found too few #include lines under " PLUME_SOURCE_DIR;
    const auto& rule = layerRule();
    std::string wrong;
    for (const Include& inc : includes) {
        const auto sees = rule.find(inc.layer);
        if (sees == rule.end()) {
            wrong += inc.file + ": its folder '" + inc.layer +
                     "' is no layer of the rule (tests/layers_test.cpp, CMakeLists.txt)\n";
            continue;
        }
        if (!rule.count(inc.target)) continue;  // not one of plume's folders
        if (!sees->second.count(inc.target))
            wrong += inc.file + ":" + std::to_string(inc.line) + ": " + inc.layer + " includes " +
                     inc.target + "/, which it must not see\n";
    }
    EXPECT_EQ(wrong, "") << "includes running up or across a layer:\n" << wrong;
}

// The folders the rule names are the folders there are: a layer left in the rule after its
// folder went, or a folder without a layer, is a rule that no longer says what the tree is.
TEST(Layers, TheRuleNamesEverySourceFolder) {
    std::set<std::string> folders = {"render"};
    for (const auto& entry : fs::directory_iterator(fs::path(PLUME_SOURCE_DIR) / "src"))
        if (entry.is_directory() && entry.path().filename() != "blender")
            folders.insert(entry.path().filename().string());
    std::set<std::string> layers;
    for (const auto& [layer, sees] : layerRule()) layers.insert(layer);
    EXPECT_EQ(folders, layers);
}

}  // namespace
}  // namespace plume
