#include "farm/farm.h"

#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/processes.h"
#include "core/report.h"
#include "farm/farm_bake_tasks.h"
#include "farm/farm_chunks.h"
#include "farm/wedge.h"
#include "io/frame_name.h"
#include "run/output_paths.h"
#include "scene/loader.h"

namespace plume {

namespace fs = std::filesystem;

namespace {

// One variant of the farm run and where its files go.
struct FarmVariant {
    WedgeVariant wedge;
    std::string dir;    // OUT.farm/<name> (OUT.farm/main without wedges)
    std::string video;  // OUT.mp4, or OUT_<name>.mp4 for a wedge
    std::string sceneName;
    int frames = 0;
    int startFrame = 1;  // time.start_frame: the frames are startFrame .. + frames - 1
    // upres.factor > 1: the bake writes the base cache, an upres job adds the
    // detail (plume upres) into fine/, and the render array draws that.
    bool upres = false;
    std::string bakeJob, upresJob, renderJob;  // sbatch ids once submitted

    std::string label() const { return wedge.label.empty() ? "the scene" : wedge.label; }
    std::string logName() const { return wedge.name.empty() ? "main" : wedge.name; }
    // The cache the render array draws.
    std::string renderedCache() const { return dir + (upres ? "/fine" : "/cache"); }
};

// "--set 'k=v' --set ..." for the scene options of every job of a variant.
std::string setArgs(const FarmOptions& opt, const FarmVariant& v) {
    std::string out;
    for (const std::string& o : opt.overrides) out += " --set " + shellQuote(o);
    for (const std::string& o : v.wedge.overrides) out += " --set " + shellQuote(o);
    return out;
}

// The #SBATCH lines every job shares; `tasks`: a bake of several MPI tasks.
std::string sbatchHeader(const FarmOptions& opt, const std::string& jobName, const std::string& log,
                         int tasks = 1) {
    std::string h = "#SBATCH --job-name=" + jobName + "\n#SBATCH --output=" + log +
                    "\n#SBATCH --open-mode=append\n";
    if (!opt.partition.empty()) h += "#SBATCH --partition=" + opt.partition + "\n";
    if (!opt.account.empty()) h += "#SBATCH --account=" + opt.account + "\n";
    if (!opt.time.empty()) h += "#SBATCH --time=" + opt.time + "\n";
    h += BakeTasks{tasks, opt.cpusPerTask, opt.memPerTask}.sbatchLines();
    if (opt.cpusPerTask > 0)
        h += "#SBATCH --cpus-per-task=" + std::to_string(opt.cpusPerTask) + "\n";
    return h;
}

// plume's --threads in a job: as many as the CPUs Slurm gave it (on this node:
// --cpus-per-task, or the cluster's default, often one); all cores outside Slurm.
const char* const kThreads = " --threads \"${SLURM_CPUS_ON_NODE:-0}\"";

std::string bakeScript(const FarmOptions& opt, const FarmVariant& v, const std::string& plume,
                       const std::string& scene, const std::string& farmDir) {
    const BakeTasks tasks{opt.bakeTasks, opt.cpusPerTask, opt.memPerTask};
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# plume farm: bake " << (v.wedge.label.empty() ? "the scene" : v.wedge.label) << ", "
      << v.frames << " frames, into " << v.dir << "/cache"
      << (tasks.split() ? ", as one MPI job of " + std::to_string(tasks.tasks) + " tasks" : "")
      << ".\n"
      << "# A simulation advances in time order, so one job bakes every frame; the\n"
      << "# render array waits for it to end well (afterok) rather than polling for\n"
      << "# files, so no render task holds a node while the bake is still running.\n"
      << "# --requeue: Slurm may restart it (a node lost); bake --resume then goes on\n"
      << "# after the last complete frame, and a finished bake ends at once.\n"
      << sbatchHeader(
             opt, "plume-bake" + (v.wedge.name.empty() ? "" : "-" + v.wedge.name),
             farmDir + "/logs/bake-" + (v.wedge.name.empty() ? "main" : v.wedge.name) + "-%j.log",
             tasks.tasks)
      << "#SBATCH --requeue\n"
      << "set -euo pipefail\n";
    if (tasks.split())
        s << "# srun starts the " << tasks.tasks << " tasks as one MPI job; plume splits the grid\n"
          << "# among them, each holding its part, and the fields are the one-process\n"
          << "# bake's, bit for bit. Each task (--cpus-per-task, --mem-per-task) runs as\n"
          << "# many threads as CPUs it was given.\n"
          << "# A task that dies (its node lost, killed) ends the others at once\n"
          << "# (--kill-on-bad-exit=1) rather than leaving them waiting for it, so the\n"
          << "# job ends within seconds with a non-zero status. No VDB is half-written\n"
          << "# under its final name (each is renamed into place when whole); requeued\n"
          << "# or submitted again, bake --resume goes on from the last whole frame.\n"
          << "# Without Slurm, run this under salloc, or start the bake with mpirun.\n";
    else
        s << "# As many threads as CPUs Slurm gave the job (plume farm --cpus-per-task);\n"
          << "# frames are identical for any count.\n";
    s << "# An exact cache (32-bit, nothing dropped) renders to the very frames plume\n"
      << "# render would; a --set output.vdb_precision given to plume farm wins.\n"
      << (v.upres ? "# Without upres: the upres job adds the detail to this base cache.\n" : "")
      << "exec " << tasks.launcher() << shellQuote(plume) << " bake " << shellQuote(scene)
      << " --vdb " << shellQuote(v.dir + "/cache") << " --resume --threads " << tasks.threads()
      << " --set output.vdb_precision=exact" << setArgs(opt, v)
      << (v.upres ? " --set upres.factor=1" : "") << "\n";
    return s.str();
}

std::string upresScript(const FarmOptions& opt, const FarmVariant& v, const std::string& plume,
                        const std::string& scene, const std::string& farmDir) {
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# plume farm: add upres detail to " << v.label() << "'s base cache, " << v.frames
      << " frames, into " << v.dir << "/fine.\n"
      << "# One job: each frame's fine smoke comes from the one before. From the\n"
      << "# exact base cache the frames are those a bake with upres writes, bit for\n"
      << "# bit; a wedge of upres.* keys changes only this job and the render's.\n"
      << "# --requeue: run again, it starts from the first frame and writes the same files.\n"
      << sbatchHeader(opt, "plume-upres" + (v.wedge.name.empty() ? "" : "-" + v.wedge.name),
                      farmDir + "/logs/upres-" + v.logName() + "-%j.log")
      << "#SBATCH --requeue\n"
      << "set -euo pipefail\n"
      << "exec " << shellQuote(plume) << " upres "
      << shellQuote(frameFilePattern(v.dir + "/cache", v.sceneName, ".vdb")) << " --scene "
      << shellQuote(scene) << setArgs(opt, v) << " -o " << shellQuote(v.dir + "/fine") << kThreads
      << "\n";
    return s.str();
}

std::string renderScript(const FarmOptions& opt, const FarmVariant& v, const std::string& plume,
                         const std::string& scene, const std::string& farmDir) {
    const FarmChunks chunks{v.frames, opt.chunk, v.startFrame};
    const int tasks = chunks.tasks();
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# plume farm: render " << (v.wedge.label.empty() ? "the scene" : v.wedge.label)
      << " from its cache, " << opt.chunk << " frames per array task (" << tasks << " tasks for "
      << v.frames << " frames).\n"
      << "# Each frame is the same PNG whichever task renders it; a task run again\n"
      << "# (requeued, or this script rerun by hand) skips frames already written:\n"
      << "# they are renamed into place only when whole, so existing means complete.\n"
      << sbatchHeader(opt, "plume-render" + (v.wedge.name.empty() ? "" : "-" + v.wedge.name),
                      farmDir + "/logs/render-" + (v.wedge.name.empty() ? "main" : v.wedge.name) +
                          "-%A_%a.log")
      << "#SBATCH --array=0-" << tasks - 1 << "\n"
      << "#SBATCH --requeue\n"
      << "set -uo pipefail\n"
      << "task=${SLURM_ARRAY_TASK_ID:?run me with sbatch, or set SLURM_ARRAY_TASK_ID=0..."
      << tasks - 1 << "}\n"
      << chunks.rangeBash()
      << "echo \"plume farm: task $task renders frames $first-$last (try $(( "
         "${SLURM_RESTART_COUNT:-0} + 1 )))\"\n"
      << "status=0\n"
      << shellQuote(plume) << " render-vdb "
      << shellQuote(frameFilePattern(v.renderedCache(), v.sceneName, ".vdb")) << " --scene "
      << shellQuote(scene) << setArgs(opt, v) << " --frames \"$first-$last\" --png "
      << shellQuote(v.dir + "/frames") << " --no-video --skip-existing" << kThreads
      << " || status=$?\n"
      << "(( status == 0 )) && exit 0\n"
      << "# A failed task asks Slurm to run it again (at most twice more; Slurm holds a\n"
      << "# requeued job about two minutes first). The encode job waits on the whole\n"
      << "# array with afterok, so it runs once every task has ended well.\n"
      << "if [[ -n ${SLURM_ARRAY_JOB_ID:-} ]] && (( ${SLURM_RESTART_COUNT:-0} < 2 )); then\n"
      << "  echo \"plume farm: task $task failed ($status); requeueing it\" >&2\n"
      << "  # Slurm then ends this run; exiting first would report the failure too.\n"
      << "  scontrol requeue \"${SLURM_ARRAY_JOB_ID}_${task}\" && sleep 600\n"
      << "fi\n"
      << "exit \"$status\"\n";
    return s.str();
}

std::string encodeScript(const FarmOptions& opt, const std::vector<FarmVariant>& variants,
                         const std::string& plume, const std::string& scene,
                         const std::string& farmDir, const std::string& wedgeVideo) {
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# plume farm: the last job. Encodes each variant's frames into its video"
      << (wedgeVideo.empty() ? "" : " and tiles\n# the variants, labelled, into " + wedgeVideo)
      << ".\n"
      << "# It is submitted with --dependency=afterok on every render array (the job\n"
      << "# ids are known only then, so the dependency is on sbatch's command line,\n"
      << "# see submit.sh); plume encode still refuses a missing frame by number.\n"
      << sbatchHeader(opt, "plume-encode", farmDir + "/logs/encode-%j.log")
      << "set -euo pipefail\n";
    int frames = variants.front().frames;
    for (const FarmVariant& v : variants) {
        s << shellQuote(plume) << " encode "
          << shellQuote(frameFilePattern(v.dir + "/frames", v.sceneName, ".png")) << " --frames "
          << v.startFrame << "-" << v.startFrame + v.frames - 1 << " --scene " << shellQuote(scene)
          << setArgs(opt, v) << " -o " << shellQuote(v.video) << "\n";
        frames = std::min(frames, v.frames);
    }
    if (!wedgeVideo.empty()) {
        s << shellQuote(plume) << " encode";
        for (const FarmVariant& v : variants)
            s << " \\\n  " << shellQuote(frameFilePattern(v.dir + "/frames", v.sceneName, ".png"));
        for (const FarmVariant& v : variants) s << " \\\n  --label " << shellQuote(v.wedge.label);
        const int start = variants.front().startFrame;
        s << " \\\n  --frames " << start << "-" << start + frames - 1 << " --scene "
          << shellQuote(scene);
        for (const std::string& o : opt.overrides) s << " --set " << shellQuote(o);
        s << " -o " << shellQuote(wedgeVideo) << "\n";
    }
    return s.str();
}

// submit.sh: the same submissions plume farm makes, to rerun by hand.
std::string submitScript(const std::vector<FarmVariant>& variants, const std::string& farmDir) {
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# plume farm: submits every job of this run, as plume farm did. Safe to run\n"
      << "# again after a failure: the bake resumes after its last frame, the render\n"
      << "# tasks skip the frames already written.\n"
      << "set -euo pipefail\n"
      << "cd " << shellQuote(farmDir) << "\n"
      << "arrays= ids=\n";
    for (size_t n = 0; n < variants.size(); ++n) {
        const std::string d = shellQuote(variants[n].dir);
        // The render array waits on the upres job when there is one, else on the bake.
        const std::string before = (variants[n].upres ? "upres" : "bake") + std::to_string(n);
        s << "bake" << n << "=$(sbatch --parsable " << d << "/bake.sh)\n";
        if (variants[n].upres)
            s << "upres" << n << "=$(sbatch --parsable --dependency=afterok:${bake" << n << "%%;*} "
              << d << "/upres.sh)\n"
              << "ids=$ids${upres" << n << "%%;*},\n";
        s << "render" << n << "=$(sbatch --parsable --dependency=afterok:${" << before << "%%;*} "
          << d << "/render.sh)\n"
          << "arrays=$arrays:${render" << n << "%%;*}\n"
          << "ids=$ids${bake" << n << "%%;*},${render" << n << "%%;*},\n";
    }
    s << "encode=$(sbatch --parsable --dependency=afterok$arrays encode.sh)\n"
      << "echo \"submitted; watch with: squeue -j $ids${encode%%;*}\"\n";
    return s.str();
}

void writeScript(const std::string& path, const std::string& text) {
    writeFileAtomically(path, text);
    fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
}

std::string findOnPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
        if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
    return {};
}

struct CommandResult {
    int status = -1;
    std::string out, err;
};

// Runs a shell command line; stdout through a pipe, stderr through a file.
CommandResult runCommand(const std::string& command) {
    char errPath[] = "/tmp/plume-farm-XXXXXX";
    const int errFd = mkstemp(errPath);
    if (errFd < 0) throw RunError("cannot create a temporary file for sbatch's messages");
    close(errFd);
    CommandResult r;
    std::FILE* pipe = popen((command + " 2>" + shellQuote(errPath) + " </dev/null").c_str(), "r");
    if (!pipe) throw RunError("cannot run: " + command);
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
    const int raw = pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    std::ifstream err(errPath);
    std::stringstream ss;
    ss << err.rdbuf();
    r.err = ss.str();
    std::remove(errPath);
    return r;
}

// sbatch's complaint as one line: its lines joined, without the "sbatch: error: " prefixes.
std::string oneLine(const std::string& text) {
    std::stringstream lines(text);
    std::string out;
    for (std::string line; std::getline(lines, line);) {
        for (const char* prefix : {"sbatch: error: ", "sbatch: "})
            if (line.rfind(prefix, 0) == 0) line = line.substr(std::string(prefix).size());
        if (!line.empty()) out += (out.empty() ? "" : "; ") + line;
    }
    return out.empty() ? "no message" : out;
}

// Submits jobs one at a time; if sbatch refuses one, cancels those before it.
class Submitter {
  public:
    explicit Submitter(std::string sbatch) : sbatch_(std::move(sbatch)) {}
    ~Submitter() {
        if (committed_ || ids_.empty()) return;
        std::string ids;
        for (const std::string& id : ids_) ids += (ids.empty() ? "" : ",") + id;
        runCommand("scancel " + shellQuote(ids));
    }
    std::string submit(const std::string& script, const std::string& dependency) {
        std::string command = shellQuote(sbatch_) + " --parsable";
        if (!dependency.empty()) command += " --dependency=afterok:" + dependency;
        command += " " + shellQuote(script);
        const CommandResult r = runCommand(command);
        // --parsable prints "id" or "id;cluster".
        const std::string id = r.out.substr(0, r.out.find_first_of(";\n"));
        if (r.status != 0 || id.empty())
            throw InputError("plume farm: error: sbatch refused " + script + ": " +
                             oneLine(r.err + r.out));
        ids_.push_back(id);
        return id;
    }
    void commit() { committed_ = true; }

  private:
    std::string sbatch_;
    std::vector<std::string> ids_;
    bool committed_ = false;
};

// What this run adds to the disk: the topmost new folder of each path it
// makes, or the new file. Unless kept (the jobs are submitted, or --dry-run),
// they go again, so a refused sbatch leaves no OUT.farm/ behind, nor an
// output folder made for it; what was there before is left alone.
class MadePaths {
  public:
    ~MadePaths() {
        if (kept_) return;
        std::error_code ec;
        for (auto it = made_.rbegin(); it != made_.rend(); ++it) fs::remove_all(*it, ec);
    }
    // Call before making `path` (absolute).
    void note(const fs::path& path) {
        std::error_code ec;
        fs::path top;
        for (fs::path p = path; !fs::exists(p, ec) && p != p.parent_path(); p = p.parent_path())
            top = p;
        if (!top.empty()) made_.push_back(top);
    }
    void keep() { kept_ = true; }

  private:
    std::vector<fs::path> made_;
    bool kept_ = false;
};

}  // namespace

void addFarmBakeTasksOption(CLI::App* cmd, FarmOptions& opt) {
    cmd->add_option("--bake-tasks", opt.bakeTasks,
                    "Bake as one Slurm job of N MPI tasks (srun --mpi=pmix), each process "
                    "holding 1/N of the grid, with --cpus-per-task CPUs and --mem-per-task "
                    "memory each; the render jobs are as with 1")
        ->check(CLI::Range(1, 65536))
        ->capture_default_str();
}

std::string shellQuote(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

int runFarm(const FarmOptions& opt) {
    if (!opt.slurm)
        throw InputError(
            "plume farm: error: --slurm is required (Slurm is the scheduler plume "
            "submits to)");
    if (opt.bakeTasks < 1)
        throw InputError("plume farm: error: --bake-tasks must be 1 or more (got " +
                         std::to_string(opt.bakeTasks) + ")");
    // The job scripts run this plume: one without MPI would only refuse the tasks.
    if (opt.bakeTasks > 1 && !processesBuilt())
        throw InputError("plume farm: error: --bake-tasks " + std::to_string(opt.bakeTasks) +
                         ": this plume was built without MPI (libopenmpi-dev), so it bakes as "
                         "one process; leave out --bake-tasks, or rebuild plume with "
                         "libopenmpi-dev installed");
    // A --mem-per-task the bake's tasks cannot share: refused before anything is written.
    (void)BakeTasks{opt.bakeTasks, opt.cpusPerTask, opt.memPerTask}.sbatchLines();

    // Every variant's scene, checked before anything is written or submitted.
    std::vector<Wedge> wedges;
    for (const std::string& arg : opt.wedges) wedges.push_back(parseWedge(arg));
    std::vector<FarmVariant> variants;
    for (const WedgeVariant& w : wedgeVariants(wedges)) {
        std::vector<std::string> overrides = opt.overrides;
        overrides.insert(overrides.end(), w.overrides.begin(), w.overrides.end());
        Scene scene;
        try {
            scene = loadScene(opt.scenePath, overrides);
        } catch (const InputError& e) {
            // The override came from a --wedge: say so, not "--set".
            std::string message = e.what();
            for (const std::string& o : w.overrides)
                if (message.rfind("--set " + o + ":", 0) == 0)
                    message = "--wedge " + o + message.substr(6 + o.size());
            throw InputError(message);
        }
        if (scene.render.width % 2 != 0 || scene.render.height % 2 != 0)
            throw InputError(
                "plume farm: error: render.width and render.height must be even for "
                "H.264 (got " +
                std::to_string(scene.render.width) + "x" + std::to_string(scene.render.height) +
                ")");
        // The render jobs read the bake's cache, which holds no pressure or divergence.
        if (scene.render.view == RenderView::Pressure ||
            scene.render.view == RenderView::Divergence)
            throw InputError(
                std::string("plume farm: error: render.view = \"") +
                (scene.render.view == RenderView::Pressure ? "pressure" : "divergence") +
                "\": the farm renders from its cache, which holds no such grid; "
                "plume render shows it from the solver");
        // A loop's last frames blend with frames before it, which another
        // task renders: chunks of frames cannot make it.
        if (scene.loop.on())
            throw InputError(
                "plume farm: error: [loop] blends the loop's last frames with the frames before "
                "its first, and the farm renders frames in chunks apart: bake on the farm without "
                "[loop] (--set loop.frames=0), then plume render-vdb the loop from its cache");
        FarmVariant v;
        v.wedge = w;
        v.sceneName = scene.name;
        v.frames = scene.time.frames;
        v.startFrame = scene.time.startFrame;
        v.upres = scene.upres.on();
        variants.push_back(std::move(v));
    }

    const std::string sbatch = findOnPath("sbatch");
    if (sbatch.empty() && !opt.dryRun)
        throw InputError(
            "plume farm: error: no sbatch on PATH (Slurm's client, Debian's "
            "slurm-client); --dry-run writes the job scripts without it");

    // Paths: absolute, since jobs run elsewhere on shared storage.
    const fs::path out =
        fs::absolute(opt.output.empty() ? variants[0].sceneName + ".mp4" : opt.output);
    const fs::path base = out.parent_path() / out.stem();
    const std::string farmDir = base.string() + ".farm";
    const std::string scene = fs::absolute(opt.scenePath).string();
    const std::string plume = fs::read_symlink("/proc/self/exe").string();
    const std::string wedgeVideo = wedges.empty() ? "" : base.string() + "_wedges.mp4";
    for (FarmVariant& v : variants) {
        v.dir = farmDir + "/" + (v.wedge.name.empty() ? "main" : v.wedge.name);
        v.video = v.wedge.name.empty() ? out.string() : base.string() + "_" + v.wedge.name + ".mp4";
    }

    // The scripts; the videos' folder is checked now, not when the encode job runs.
    MadePaths made;
    made.note(out.parent_path());
    ensureWritableFile(out.string());
    std::error_code ec;
    made.note(farmDir);
    fs::create_directories(farmDir + "/logs", ec);
    if (ec) throw RunError("cannot create '" + farmDir + "': " + ec.message());
    auto script = [&](const std::string& path, const std::string& text) {
        made.note(path);
        writeScript(path, text);
    };
    for (const FarmVariant& v : variants) {
        made.note(v.dir);
        fs::create_directories(v.dir + "/cache", ec);
        fs::create_directories(v.dir + "/frames", ec);
        if (v.upres) fs::create_directories(v.dir + "/fine", ec);
        if (ec) throw RunError("cannot create '" + v.dir + "': " + ec.message());
        script(v.dir + "/bake.sh", bakeScript(opt, v, plume, scene, farmDir));
        if (v.upres) script(v.dir + "/upres.sh", upresScript(opt, v, plume, scene, farmDir));
        script(v.dir + "/render.sh", renderScript(opt, v, plume, scene, farmDir));
    }
    script(farmDir + "/encode.sh", encodeScript(opt, variants, plume, scene, farmDir, wedgeVideo));
    script(farmDir + "/submit.sh", submitScript(variants, farmDir));
    if (opt.dryRun) {
        made.keep();
        printOutput("plume farm: wrote the job scripts into " + farmDir +
                    "/ (not submitted: --dry-run); submit them with " + farmDir + "/submit.sh\n");
        return 0;
    }

    // Submit: bake, then its upres job (with upres), then its render array
    // after that, then one encode after every array.
    Submitter submitter(sbatch);
    std::string arrays, watch;
    for (FarmVariant& v : variants) {
        v.bakeJob = submitter.submit(v.dir + "/bake.sh", "");
        watch += v.bakeJob + ",";
        std::string before = v.bakeJob;
        if (v.upres) {
            v.upresJob = submitter.submit(v.dir + "/upres.sh", v.bakeJob);
            watch += v.upresJob + ",";
            before = v.upresJob;
        }
        v.renderJob = submitter.submit(v.dir + "/render.sh", before);
        arrays += (arrays.empty() ? "" : ":") + v.renderJob;
        watch += v.renderJob + ",";
    }
    const std::string encodeJob = submitter.submit(farmDir + "/encode.sh", arrays);
    submitter.commit();
    made.keep();
    for (const FarmVariant& v : variants)
        printOutput(
            (v.wedge.label.empty() ? "scene" : v.wedge.label) + ": bake job " + v.bakeJob +
            (opt.bakeTasks > 1 ? " (" + std::to_string(opt.bakeTasks) + " MPI tasks)" : "") +
            (v.upres ? ", upres job " + v.upresJob : "") + ", render array " + v.renderJob + " (" +
            std::to_string(v.frames) + " frames in chunks of " + std::to_string(opt.chunk) + ")\n");
    printOutput("encode job " + encodeJob + " writes " +
                (variants.size() == 1 ? variants[0].video : "every variant's video") +
                (wedgeVideo.empty() ? "" : " and " + wedgeVideo) + "\n");
    printOutput("watch: squeue -j " + watch + encodeJob + "\n");
    return 0;
}

}  // namespace plume
