// Files written so that a reader never sees half of one: the bytes go to a
// temporary name beside the file, and a rename puts it in place. A crash, a
// full disk or an error leaves the old file or none, never a torn one, and a
// failed write leaves no temporary behind. Every temporary name is the
// writer's own, so two runs writing one output at once (a farm task requeued
// beside its straggler, a second terminal) do not break each other: each
// writes its own temporary and the last rename wins.
#pragma once

#include <functional>
#include <string>

namespace plume {

// A temporary name of path's own to this writer: "path<suffix>.<host>.<pid>.<n>",
// with n counting the names this process made. Every temporary plume writes
// is named here.
std::string temporaryPath(const std::string& path, const std::string& suffix = ".tmp");

// One file being written under a temporary name (temporaryPath). Unless
// commit() succeeds, the temporary is removed, on destruction at the latest.
class AtomicFile {
  public:
    explicit AtomicFile(std::string path, const std::string& suffix = ".tmp");
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    const std::string& path() const { return path_; }
    const std::string& tempPath() const { return tempPath_; }

    // Renames the temporary over path. On failure removes the temporary and
    // throws RunError "cannot write 'path': why".
    void commit();
    // Removes the temporary now; never throws.
    void discard();

  private:
    std::string path_, tempPath_;
    bool done_ = false;
};

// Runs write(temporary path), then commits. Whatever write throws removes the
// temporary: a RunError or std::bad_alloc passes as it is, any other
// exception becomes the RunError "cannot write 'path': what".
void writeAtomically(const std::string& path,
                     const std::function<void(const std::string& tempPath)>& write);

// Removes the temporaries (temporaryPath's names) in dir that a killed run of
// this host left: a SIGKILL or a power cut gives no chance to clean up, so the
// next run that writes there does. A temporary whose process still runs, or
// that another host made, is left alone. Returns how many were removed.
int removeStaleTemporaries(const std::string& dir);

// Writes bytes to path atomically with every write checked, so a full disk is
// an error rather than a short file. Throws RunError "cannot write 'path': why".
void writeFileAtomically(const std::string& path, const std::string& bytes);

}  // namespace plume
