// Errors carry what main() needs to pick the exit status and print one line.
// Library code throws; only main() decides how the program ends.
#pragma once

#include <stdexcept>
#include <string>

namespace plume {

// Where in a scene file (or a --set argument) something was found.
struct SourceLocation {
    std::string file;  // path as the user gave it, or "--set" for overrides
    int line = 0;      // 1-based; 0 when unknown
    int column = 0;    // 1-based; 0 when unknown

    std::string str() const;  // "file:line:col", dropping unknown parts
};

// A mistake in the user's input: a scene file, a --set, an argument. Exit 2.
class InputError : public std::runtime_error {
  public:
    explicit InputError(const std::string& message) : std::runtime_error(message) {}
    InputError(const SourceLocation& where, const std::string& message)
        : std::runtime_error(where.str() + ": error: " + message) {}
};

// Anything else that stops a run: I/O, a corrupt cache, non-finite fields. Exit 1.
class RunError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace plume
