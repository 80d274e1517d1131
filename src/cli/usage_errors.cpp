#include "cli/usage_errors.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "scene/schema.h"

namespace plume {

namespace {

// What CLI11 names first in its message: "--threads: At Most 1 ..." -> "--threads".
std::string leadingName(const std::string& text) { return text.substr(0, text.find(": ")); }

const CLI::Option* findOption(const CLI::App* app, const std::string& name) {
    if (!app || name.empty()) return nullptr;
    for (const CLI::Option* o : app->get_options()) {
        if (o->get_name() == name || o->check_name(name)) return o;
    }
    return nullptr;
}

// An option as the help lists it first: "-o" for "-o,--output".
std::string shownName(const CLI::Option* option, const std::string& fallback) {
    if (!option) return fallback;
    if (!option->get_snames().empty()) return "-" + option->get_snames().front();
    return option->get_name();
}

// The option with the value, as a user wrote it: "--threads 5000", "-o x.mp4".
std::string withValue(const std::string& name, const std::string& value) {
    return value.empty() ? name : name + " " + value;
}

bool isNumber(const std::string& text) {
    if (text.empty()) return false;
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size();
}

// "not a whole number" / "not a number" for an option's type, "" otherwise.
std::string notANumber(const CLI::Option* option, const std::string& value) {
    if (!option || isNumber(value)) return "";
    const std::string type = option->get_type_name();
    if (type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0) return "not a whole number";
    if (type.rfind("FLOAT", 0) == 0) return "not a number";
    return "";
}

// A value plume takes no option for, in this command: the word that fits,
// else a pointer to the nearest option or to the command's help.
std::string unexpected(const CLI::App* sub, const std::string& command,
                       const std::vector<std::string>& extras) {
    const std::string help = "see plume " + command + " --help";
    const std::string& word = extras.front();
    if (word.size() < 2 || word[0] != '-') {
        // A second positional: the commands take one scene file, or one input.
        std::string takes = "plume " + command + " takes one ";
        takes += findOption(sub, "scene") ? "scene file" : "input";
        return "'" + word + "': error: unexpected argument: " + takes + " (" + help + ")";
    }
    std::string name = word.substr(0, word.find('='));
    std::string value = word.size() > name.size() ? word.substr(name.size() + 1) : "";
    if (value.empty() && extras.size() > 1 && extras[1][0] != '-') value = extras[1];
    const std::string what = withValue(name, value) + ": error: ";

    // What users ask bake for that only render writes.
    if (command == "bake" && (name == "-o" || name == "--output"))
        return what + "plume bake writes only the --vdb cache, no video: plume render " +
               withValue(name, value) + " writes one (and takes --vdb DIR too)";
    if (command == "bake" &&
        (name == "--png" || name == "--exr" || name == "--deep" || name == "--no-video"))
        return what + "plume bake writes only the --vdb cache: plume render " +
               withValue(name, value) + " writes frames (and takes --vdb DIR too)";

    if (command == "render-vdb" && name == "--vdb")
        return what +
               "plume render-vdb reads a cache and writes none: plume bake --vdb DIR, or "
               "plume render --vdb DIR, writes one";

    std::vector<std::string> names;
    if (sub) {
        for (const CLI::Option* o : sub->get_options()) {
            if (!o->nonpositional()) continue;
            for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
            for (const std::string& n : o->get_snames()) names.push_back("-" + n);
        }
    }
    std::vector<std::string_view> candidates(names.begin(), names.end());
    const std::string_view nearest = nearestName(name, candidates);
    return what + "plume " + command + " has no option " + name +
           (nearest.empty() ? " (" + help + ")" : " (did you mean " + std::string(nearest) + "?)");
}

}  // namespace

std::string usageError(const CLI::App& app, const CLI::ParseError& error,
                       const std::string& command) {
    const std::string text = error.what();
    const CLI::App* sub = command.empty() ? nullptr : app.get_subcommand(command);
    const std::string help =
        command.empty() ? "see plume --help" : "see plume " + command + " --help";
    const std::string where = command.empty() ? "plume" : "plume " + command;

    // An option the command lacks is the likelier mistake than one it misses
    // (bake -o x.mp4 without --vdb): said first.
    if (dynamic_cast<const CLI::RequiredError*>(&error) && sub && !sub->remaining().empty())
        return unexpected(sub, command, sub->remaining());

    if (dynamic_cast<const CLI::RequiredError*>(&error)) {
        if (!sub) {
            std::string names;
            for (const CLI::App* c : app.get_subcommands([](const CLI::App*) { return true; }))
                names += (names.empty() ? "" : " ") + c->get_name();
            return "plume: error: no command given (commands: " + names + "; " + help + ")";
        }
        for (const CLI::Option* o : sub->get_options()) {
            if (!o->get_required() || o->count() > 0) continue;
            const std::string name = o->nonpositional() ? shownName(o, "") : "the " + o->get_name();
            return where + ": error: " + name + " is required (" + help + ")";
        }
    }

    if (dynamic_cast<const CLI::ExtrasError*>(&error)) {
        std::vector<std::string> extras = sub ? sub->remaining() : std::vector<std::string>{};
        if (extras.empty()) extras = app.remaining(true);
        if (!extras.empty()) {
            if (!sub)
                return extras.front() +
                       ": error: options go after the command, e.g. plume render "
                       "SCENE " +
                       extras.front() + " (" + help + ")";
            return unexpected(sub, command, extras);
        }
    }

    if (dynamic_cast<const CLI::ArgumentMismatch*>(&error)) {
        const CLI::Option* option = findOption(sub, leadingName(text));
        const std::string name = shownName(option, leadingName(text));
        if (option && option->count() > 1) {
            std::string values;
            const auto& given = option->results();
            for (size_t i = 0; i < given.size(); ++i)
                values += (i == 0 ? "" : i + 1 == given.size() ? ", then " : ", ") + given[i];
            const std::string times =
                given.size() == 2 ? "twice" : std::to_string(given.size()) + " times";
            return name + ": error: given " + times + " (" + values + "); give it once";
        }
        if (option && text.find(" missing") != std::string::npos)
            return name + ": error: needs a value (" + help + ")";
    }

    if (dynamic_cast<const CLI::ValidationError*>(&error)) {
        const CLI::Option* option = findOption(sub, leadingName(text));
        const std::string name = shownName(option, leadingName(text));
        std::string why = text.substr(std::min(text.size(), leadingName(text).size() + 2));
        // CLI11 prints a range of reals as "1.000000 to 240.000000".
        for (size_t at; (at = why.find(".000000")) != std::string::npos;) why.erase(at, 7);
        const std::string value =
            option && !option->results().empty() ? option->results().back() : "";
        // CLI11 says the value again: "Value 5000 not in range ...", "xml not in {...}".
        for (const std::string& lead : {"Value " + value + " ", value + " "})
            if (!value.empty() && why.rfind(lead, 0) == 0) why = why.substr(lead.size());
        if (const std::string nan = notANumber(option, value); !nan.empty()) why = nan;
        return withValue(name, value) + ": error: " + why;
    }

    if (dynamic_cast<const CLI::ConversionError*>(&error)) {
        const std::string lead = "Could not convert: ";
        if (text.rfind(lead, 0) == 0) {
            const size_t eq = text.find(" = ");
            const CLI::Option* option = findOption(sub, text.substr(lead.size(), eq - lead.size()));
            const std::string name = shownName(option, text.substr(lead.size(), eq - lead.size()));
            const std::string value = eq == std::string::npos ? "" : text.substr(eq + 3);
            const std::string nan = notANumber(option, value);
            return withValue(name, value) +
                   ": error: " + (nan.empty() ? "not a value it takes" : nan);
        }
    }

    return where + ": error: " + text + " (" + help + ")";
}

}  // namespace plume
