#include "scene/overrides.h"

#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "scene/schema.h"

namespace plume {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

std::vector<std::string> splitDots(std::string_view s) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t dot; (dot = s.find('.', start)) != std::string_view::npos; start = dot + 1)
        parts.emplace_back(s.substr(start, dot - start));
    parts.emplace_back(s.substr(start));
    return parts;
}

bool allDigits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

std::string quoted(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string elementsPhrase(std::size_t n, std::string_view section) {
    std::string table = "[[" + std::string(section) + "]] table";
    if (n == 0) return "no " + table;
    return std::to_string(n) + " " + table + (n == 1 ? "" : "s");
}

// Where a node of the file sits, for errors about the file found while
// applying an override.
SourceLocation fileLocation(const toml::node& node) {
    const toml::source_region& src = node.source();
    return {src.path ? *src.path : std::string(), static_cast<int>(src.begin.line),
            static_cast<int>(src.begin.column)};
}

// A section or sub-table to write into, created when missing. A string where a
// table is needed ("domain.boundary = 'open'") becomes {all = that string}.
toml::table& childTable(toml::table& parent, const std::string& key, const std::string& name) {
    toml::node* node = parent.get(key);
    if (!node) return *parent.insert_or_assign(key, toml::table{}).first->second.as_table();
    if (toml::table* t = node->as_table()) return *t;
    if (toml::value<std::string>* s = node->as_string()) {
        toml::value<std::string> all = std::move(*s);
        toml::table& t = *parent.insert_or_assign(key, toml::table{}).first->second.as_table();
        t.insert_or_assign("all", std::move(all));
        return t;
    }
    throw InputError(fileLocation(*node), "'" + name + "' must be a table");
}

}  // namespace

std::string overrideSourceName(std::string_view arg) { return "--set " + std::string(arg); }

void applyOverrides(toml::table& root, const std::vector<std::string>& overrides) {
    for (const std::string& arg : overrides) {
        const std::string source = overrideSourceName(arg);
        const SourceLocation where{source};
        auto fail = [&](const std::string& message) { throw InputError(where, message); };

        // Split KEY=VALUE
        std::size_t eq = arg.find('=');
        if (eq == std::string::npos || trim(std::string_view(arg).substr(0, eq)).empty())
            fail("expected key=value, e.g. domain.resolution=48");
        std::string_view keyText = trim(std::string_view(arg).substr(0, eq));
        std::string_view valueText = trim(std::string_view(arg).substr(eq + 1));
        if (valueText.empty()) fail("no value after '='");

        // Section, with an element number for [[arrays]]: emitter[2].x or emitter.2.x
        std::vector<std::string> parts = splitDots(keyText);
        std::string sectionName = parts[0];
        std::string indexText;
        bool bracketed = false;
        if (std::size_t open = sectionName.find('['); open != std::string::npos) {
            if (sectionName.back() != ']')
                fail("expected NAME[N] in '" + std::string(keyText) + "'");
            indexText = sectionName.substr(open + 1, sectionName.size() - open - 2);
            sectionName.resize(open);
            bracketed = true;
        }
        const SectionSpec* section = findSection(sectionName);
        if (!section) {
            bool isTable = parts.size() > 1 || bracketed;
            fail(std::string(isTable ? "unknown section '" : "unknown key '") + sectionName + "'" +
                 didYouMean("", suggestTopLevel(sectionName, isTable)));
        }
        std::size_t first = 1;
        std::string display = sectionName;
        if (section->isArray) {
            if (!bracketed && parts.size() > 2 && allDigits(parts[1]))
                indexText = parts[1], first = 2;
            else if (!bracketed)
                fail("'" + sectionName + "' holds [[" + sectionName + "]] tables: write " +
                     sectionName + "[N].KEY with N from 1");
            if (!allDigits(indexText) || indexText.size() > 6 || std::stoi(indexText) < 1)
                fail("'" + sectionName + "[" + indexText + "]': elements are numbered from 1");
            display += "[" + indexText + "]";
        } else if (bracketed) {
            fail("'" + sectionName + "' is a single table, not [[" + sectionName + "]]");
        }

        // The key inside the section
        std::string key;
        for (std::size_t p = first; p < parts.size(); ++p) key += (p > first ? "." : "") + parts[p];
        if (key.empty()) {
            auto example =
                std::find_if(sceneKeys().begin(), sceneKeys().end(),
                             [&](const KeySpec& k) { return k.section == section->name; });
            fail("expected a key inside '" + display + "', e.g. " + display + "." +
                 std::string(example->key) + "=...");
        }
        if (!findKey(section->name, key))
            fail("unknown key '" + display + "." + key + "'" +
                 didYouMean(display, suggestKey(section->name, key)));

        // The value: TOML when it parses as TOML, else the bare text as a string
        toml::table parsed;
        try {
            parsed = toml::parse("v = " + std::string(valueText), std::string(source));
        } catch (const toml::parse_error&) {
            parsed = toml::parse("v = " + quoted(valueText), std::string(source));
        }
        toml::node* value = parsed.get("v");

        // The table it goes into
        toml::table* target = nullptr;
        if (section->isArray) {
            toml::node* node = root.get(sectionName);
            toml::array* elements = node ? node->as_array() : nullptr;
            std::size_t index = std::stoul(indexText), count = elements ? elements->size() : 0;
            if (node && !elements)
                throw InputError(
                    fileLocation(*node),
                    "'" + sectionName + "' must be an array of tables ([[" + sectionName + "]])");
            if (index > count)
                fail("'" + display + "' does not exist: the scene has " +
                     elementsPhrase(count, sectionName));
            target = (*elements)[index - 1].as_table();
            if (!target)
                throw InputError(fileLocation((*elements)[index - 1]),
                                 "'" + display + "' must be a table");
        } else {
            target = &childTable(root, sectionName, sectionName);
        }
        std::vector<std::string> keyParts = splitDots(key);
        std::string path = display;
        for (std::size_t p = 0; p + 1 < keyParts.size(); ++p) {
            path += "." + keyParts[p];
            target = &childTable(*target, keyParts[p], path);
        }
        value->visit([&](auto& v) { target->insert_or_assign(keyParts.back(), std::move(v)); });
    }
}

}  // namespace plume
