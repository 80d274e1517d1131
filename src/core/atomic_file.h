// Files written so that a reader never sees half of one: the bytes go to a
// temporary name beside the file, and a rename puts it in place. A crash, a
// full disk or an error leaves the old file or none, never a torn one, and a
// failed write leaves no temporary behind. Every temporary name is the
// writer's own, so two runs writing one output at once (a farm task requeued
// beside its straggler, a second terminal) do not break each other: each
// writes its own temporary and the last rename wins.
//
// A path that names a device or a FIFO is never replaced: the rename would
// put a regular file where /dev/null was. Such a path is written in place,
// with no temporary (/dev/null takes a whole run and discards it; a FIFO
// takes a CSV or HTML as a stream); a format that seeks back into its file
// (MP4, EXR, VDB) is refused for a FIFO, which cannot seek.
#pragma once

#include <functional>
#include <string>

namespace plume {

// A temporary name of path's own to this writer: "path<suffix>.<host>.<pid>.<n>",
// with n counting the names this process made. Every temporary plume writes
// is named here.
std::string temporaryPath(const std::string& path, const std::string& suffix = ".tmp");

// What an output path names, for a writer.
enum class OutputTarget {
    File,    // a regular file, or nothing yet: written under a temporary and renamed
    Device,  // a device that seeks (/dev/null): written in place
    Stream,  // a FIFO, or a device that cannot seek (a terminal): written in place, in order
    Folder,  // a folder: not writable as a file
    Socket,  // a socket: not writable as a file
};
OutputTarget outputTarget(const std::string& path);

// Refuses, as the InputError "plume: error: cannot write 'path': ...", a path
// a writer cannot take: a folder, a socket, or for a writer that seeks
// (`seeking` names its format, "an MP4"; null for one that writes in order)
// a FIFO or a device that cannot seek.
void requireWritableTarget(const std::string& path, const char* seeking = nullptr);

// One file being written under a temporary name (temporaryPath), or in place
// where path names a device or a FIFO (tempPath() is then path itself, and
// neither commit nor discard touches it). Unless commit() succeeds, the
// temporary is removed, on destruction at the latest. `seeking` as for
// requireWritableTarget, which the constructor calls for a path in place.
class AtomicFile {
  public:
    explicit AtomicFile(std::string path, const std::string& suffix = ".tmp",
                        const char* seeking = nullptr);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    const std::string& path() const { return path_; }
    const std::string& tempPath() const { return tempPath_; }
    // Whether the file is written in place (a device or a FIFO): no rename,
    // and nothing to read back.
    bool inPlace() const { return inPlace_; }

    // Renames the temporary over path. On failure removes the temporary and
    // throws RunError "cannot write 'path': why".
    void commit();
    // Removes the temporary now; never throws.
    void discard();

  private:
    std::string path_, tempPath_;
    bool inPlace_ = false;
    bool done_ = false;
};

// Runs write(temporary path), then commits. Whatever write throws removes the
// temporary: an InputError, RunError or std::bad_alloc passes as it is, any
// other exception becomes the RunError "cannot write 'path': what".
void writeAtomically(const std::string& path,
                     const std::function<void(const std::string& tempPath)>& write);
// The same for a writer that seeks (`seeking` as for AtomicFile: "an EXR").
void writeAtomically(const std::string& path, const char* seeking,
                     const std::function<void(const std::string& tempPath)>& write);

// Removes the temporaries (temporaryPath's names) in dir that a killed run of
// this host left: a SIGKILL or a power cut gives no chance to clean up, so the
// next run that writes there does. A temporary whose process still runs, or
// that another host made, is left alone; with a `prefix`, so is one whose
// name does not start with it (the temporaries of one file: "shot.mp4.").
// Returns how many were removed.
int removeStaleTemporaries(const std::string& dir, const std::string& prefix = "");

// Writes bytes to path atomically with every write checked, so a full disk is
// an error rather than a short file. Throws RunError "cannot write 'path': why".
void writeFileAtomically(const std::string& path, const std::string& bytes);

}  // namespace plume
