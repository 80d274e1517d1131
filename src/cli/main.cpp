// plume: the command line. Parses arguments, runs a subcommand, and turns
// errors into one line on stderr and an exit status:
// 0 success, 2 usage or scene error, 1 any other failure.
#include <malloc.h>

#include <CLI/CLI.hpp>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "cli/encode.h"
#include "cli/new_scene.h"
#include "cli/upres_command.h"
#include "cli/usage_errors.h"
#include "cli/video_output.h"
#include "core/error.h"
#include "core/processes.h"
#include "core/report.h"
#include "farm/farm.h"
#include "preview/preview.h"
#include "run/interrupt.h"
#include "scene/schema.h"
#include "scene/starter_scenes.h"

namespace {

// The options of every command that runs frames through the sinks
// (run/frame_sinks.h). `frames` says what --frames picks, `set` gives an
// example key for --set.
constexpr const char* kSimulatedFrames = "Frames to write, A-B or A (earlier frames are simulated)";
void addRunOptions(CLI::App* cmd, plume::RunOptions& o,
                   const std::string& frames = kSimulatedFrames,
                   const std::string& set = "domain.resolution=48") {
    cmd->add_option("--frames", o.frames, frames);
    cmd->add_option("--set", o.overrides, "Override a scene key: --set " + set)
        ->allow_extra_args(false);
    cmd->add_option("--threads", o.threads,
                    "Worker threads (0: all cores); results are identical for any count")
        ->check(CLI::Range(0, 1024))
        ->capture_default_str();
    cmd->add_option("--stats", o.outputs.statsPath,
                    "Write per-frame timings and solver statistics to a CSV file");
    cmd->add_option("--report", o.outputs.reportPath,
                    "Write an HTML page: charts of the statistics, the scene, the machine, "
                    "a contact sheet (self-contained, needs libjs-chart.js)");
    cmd->add_flag("-q,--quiet", o.quiet, "Print nothing but errors");
}

// The command line as a shell would take it back: each word quoted when it
// holds anything but letters, digits and -_./=:,+@% (for the --report page).
std::string quotedCommandLine(int argc, char** argv) {
    std::string line;
    for (int i = 0; i < argc; ++i) {
        std::string word = i == 0 ? "plume" : argv[i];
        const bool plain =
            !word.empty() && word.find_first_not_of(
                                 "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                 "0123456789-_./=:,+@%") == std::string::npos;
        if (!plain) {
            std::string quoted = "'";
            for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
            word = quoted + "'";
        }
        line += (i ? " " : "") + word;
    }
    return line;
}

// The options of the commands that write frames (render, render-vdb) for a
// farm's chunks: frames only, and none redone that a previous try finished.
// frames: the command's own frame outputs, "--png/--exr/--vdb".
void addChunkOptions(CLI::App* cmd, plume::RunOptions& o, const std::string& frames) {
    cmd->add_flag("--no-video", o.noVideo, "Write no MP4, only the " + frames + " frames");
    cmd->add_flag("--skip-existing", o.outputs.skipExisting,
                  "Do not redo a frame whose every output file is already there (with --no-video)");
}

// What the subcommands' options parse into.
struct Options {
    plume::RunOptions run;
    plume::FarmOptions farm;
    plume::PreviewOptions preview;
    plume::NewSceneOptions newScene;
};

void addRenderOptions(CLI::App* cmd, Options& o) {
    plume::RunOptions& opt = o.run;
    cmd->add_option("scene", opt.scenePath, "Scene file (TOML)")->required();
    cmd->add_option("-o,--output", opt.output, "Video to write (default: <scene name>.mp4)");
    cmd->add_option("--vdb", opt.outputs.vdbDir,
                    "Also write an OpenVDB cache, DIR/<name>_0001.vdb ...");
    cmd->add_option("--nvdb", opt.outputs.nvdbDir,
                    "Also write a NanoVDB cache, DIR/<name>_0001.nvdb ... (output.nvdb_codec)");
    cmd->add_option("--png", opt.outputs.pngDir,
                    "Also write every frame as DIR/<name>_0001.png ...");
    cmd->add_option("--exr", opt.outputs.exrDir,
                    "Also write every frame as linear half-float RGBA, DIR/<name>_0001.exr ...");
    cmd->add_option("--deep", opt.outputs.deepDir,
                    "Also write every frame as a deep EXR (RGBA, Z, ZBack a sample), "
                    "DIR/<name>_0001.exr ...");
    cmd->add_option("--flipbook", opt.outputs.flipbookDir,
                    "Write a texture sheet of frames sampled from the shot, "
                    "DIR/<name>_colour.png and DIR/<name>.json ([flipbook]); no video without -o");
    addRunOptions(cmd, opt);
    addChunkOptions(cmd, opt, "--png/--exr/--vdb");
}

void addBakeOptions(CLI::App* cmd, Options& o) {
    plume::RunOptions& opt = o.run;
    cmd->add_option("scene", opt.scenePath, "Scene file (TOML)")->required();
    cmd->add_option("--vdb", opt.outputs.vdbDir, "Cache folder: DIR/<name>_0001.vdb ...");
    cmd->add_option("--nvdb", opt.outputs.nvdbDir,
                    "NanoVDB cache folder, beside or instead of --vdb: DIR/<name>_0001.nvdb ...");
    cmd->add_flag("--resume", opt.resume, "Continue a stopped bake after its last complete frame");
    addRunOptions(cmd, opt);
}

void addRenderVdbOptions(CLI::App* cmd, Options& o) {
    plume::RunOptions& opt = o.run;
    cmd->add_option("input", opt.pattern, "'DIR/NAME_####.vdb', a single .vdb file, or a folder")
        ->required();
    cmd->add_option("-o,--output", opt.output, "Video to write (default: <sequence name>.mp4)");
    cmd->add_option("--scene", opt.scenePath, "Take camera, lights and look from this scene file");
    cmd->add_option("--grid", opt.grid, "Float grid to render (default: render.grid, \"density\")");
    cmd->add_option("--png", opt.outputs.pngDir, "Also write every frame as a PNG into DIR");
    cmd->add_option("--exr", opt.outputs.exrDir,
                    "Also write every frame as a linear half-float RGBA EXR into DIR");
    cmd->add_option("--deep", opt.outputs.deepDir,
                    "Also write every frame as a deep EXR (RGBA, Z, ZBack a sample) into DIR");
    cmd->add_option("--flipbook", opt.outputs.flipbookDir,
                    "Write a texture sheet of frames sampled from the sequence, "
                    "DIR/<name>_colour.png and DIR/<name>.json ([flipbook]); no video without -o");
    addRunOptions(cmd, opt, "Frames to write, A-B or A, by the files' frame numbers",
                  "render.width=640");
    addChunkOptions(cmd, opt, "--png/--exr");
}

void addUpresOptions(CLI::App* cmd, Options& o) {
    plume::RunOptions& opt = o.run;
    cmd->add_option("input", opt.pattern, "The base cache: 'DIR/NAME_####.vdb', or a folder")
        ->required();
    cmd->add_option("-o,--output", opt.output,
                    "Folder for the fine cache: OUTDIR/NAME_0001.vdb ...")
        ->required();
    cmd->add_option("--scene", opt.scenePath,
                    "The scene the cache was baked from (its emitters run on the fine grid); "
                    "without it (another tool's cache) the fine smoke is fed from the cache");
    cmd->add_option(
        "--factor", opt.factor,
        "Fine cells per base cell along an axis, 2 to 4 (default: upres.factor, else 2)");
    addRunOptions(cmd, opt, "Frames to write, A-B or A (every frame from 1 is still run)",
                  "upres.strength=2");
}

void addEncodeOptions(CLI::App* cmd, Options& o) {
    plume::RunOptions& opt = o.run;
    cmd->add_option(
           "input", opt.inputs,
           "'DIR/NAME_####.png', 'DIR/NAME_####.exr', or a folder holding one; several are "
           "tiled side by side")
        ->required();
    cmd->add_option("--label", opt.labels,
                    "Text drawn on each tiled sequence, in the order of the inputs");
    cmd->add_option("-o,--output", opt.output, "Video to write")->required();
    cmd->add_option("--fps", opt.fps, "Frames per second (default: the scene's, else 24)")
        ->check(CLI::Range(1.0, 240.0));
    cmd->add_option("--frames", opt.frames, "Frames to encode, A-B (each must be there)");
    cmd->add_option("--scene", opt.scenePath,
                    "Take output.* settings, time.fps and render.exposure from this scene");
    cmd->add_option("--set", opt.overrides, "Override a scene key: --set output.crf=23");
    cmd->add_flag("-q,--quiet", opt.quiet, "Print nothing but errors");
}

void addFarmOptions(CLI::App* cmd, Options& o) {
    plume::FarmOptions& opt = o.farm;
    cmd->add_option("scene", opt.scenePath, "Scene file (TOML), on storage every node sees")
        ->required();
    cmd->add_flag("--slurm", opt.slurm, "Submit to Slurm with sbatch (required)");
    cmd->add_option("-o,--output", opt.output,
                    "Video to write (default: <scene name>.mp4); job scripts go to OUT.farm/");
    cmd->add_option("--chunk", opt.chunk, "Frames per render task")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    cmd->add_option("--partition", opt.partition, "Slurm partition (sbatch --partition)");
    cmd->add_option("--account", opt.account, "Slurm account (sbatch --account)");
    cmd->add_option("--time", opt.time, "Time limit per job, HH:MM:SS (sbatch --time)");
    cmd->add_option("--mem-per-task", opt.memPerTask, "Memory per job, e.g. 4G (sbatch --mem)");
    cmd->add_option("--cpus-per-task", opt.cpusPerTask,
                    "CPUs per job (sbatch --cpus-per-task); each job runs as many threads as "
                    "Slurm gives it (default: the cluster's, often 1)")
        ->check(CLI::Range(1, 4096))
        ->default_str("");
    plume::addFarmBakeTasksOption(cmd, opt);
    cmd->add_option("--wedge", opt.wedges,
                    "Variants: KEY=V1,V2,...; several multiply (each its own cache and video)")
        ->allow_extra_args(false);
    cmd->add_option("--set", opt.overrides, "Override a scene key in every job")
        ->allow_extra_args(false);
    cmd->add_flag("--dry-run", opt.dryRun, "Write the job scripts without submitting them");
}

void addPreviewOptions(CLI::App* cmd, Options& o) {
    plume::PreviewOptions& opt = o.preview;
    cmd->add_option("scene", opt.run.scenePath,
                    "Scene file (TOML), watched with every file it reads")
        ->required();
    cmd->add_option("--port", opt.port, "Port of the page (0: any free port)")
        ->check(CLI::Range(0, 65535))
        ->capture_default_str();
    cmd->add_option("--bind", opt.bind,
                    "Address to listen on (loopback by default; another address shows the "
                    "preview to the network)")
        ->capture_default_str();
    cmd->add_option("--resolution", opt.run.resolution,
                    "The domain's cells along its longest side, at most (upres off)")
        ->check(CLI::Range(4, 1024))
        ->capture_default_str();
    cmd->add_option("--frames", opt.run.frames, "Frames to preview, A-B");
    cmd->add_option("--set", opt.run.overrides, "Override a scene key")->allow_extra_args(false);
    cmd->add_option("--threads", opt.threads, "Worker threads (0: all cores)")
        ->check(CLI::Range(0, 1024));
}

void addNewOptions(CLI::App* cmd, Options& o) {
    plume::NewSceneOptions& opt = o.newScene;
    std::vector<std::string> kinds;
    std::string list;
    for (const plume::StarterScene& s : plume::starterScenes()) {
        kinds.push_back(s.kind);
        list += std::string("\n  ") + s.kind + ": " + s.summary;
    }
    cmd->add_option("kind", opt.kind, "What to start from:" + list)
        ->required()
        ->check(CLI::IsMember(kinds));
    cmd->add_option("-o,--output", opt.output, "Scene file to write (default: KIND.toml); never replaced");
    cmd->add_option("--size", opt.size,
                    "The domain's longest side in metres (default: the kind's own); the scene "
                    "scales as a model does under gravity")
        ->check(CLI::Range(0.01, 10000.0));
    cmd->add_flag("-q,--quiet", opt.quiet, "Print nothing but errors");
}

void addCheckOptions(CLI::App* cmd, Options& o) {
    plume::RunOptions& opt = o.run;
    cmd->add_option("scene", opt.scenePath, "Scene file (TOML)");
    cmd->add_option("--set", opt.overrides, "Override a scene key");
    cmd->add_flag("--reference", opt.reference,
                  "Print the scene-file reference (every key, type, default, range)");
    cmd->add_option("--reference-format", opt.referenceFormat,
                    "The reference as markdown (the README's tables) or json (for tools)")
        ->check(CLI::IsMember({"markdown", "json"}))
        ->capture_default_str();
}

// The subcommands, one row each (ninja's ChooseTool): the name, the line of
// help, the options it takes, what runs it, and the -o it writes a video to
// (checked before it runs), if any. A new command is one row.
struct Command {
    const char* name;
    const char* description;
    void (*addOptions)(CLI::App*, Options&);
    int (*run)(const Options&);
    std::string (*video)(const Options&) = nullptr;
};

// A frame-writing command's -o, unless --no-video (which refuses any -o itself).
std::string videoOf(const Options& o) { return o.run.noVideo ? "" : o.run.output; }

const Command kCommands[] = {
    {"render", "Simulate a scene and render it to an MP4", addRenderOptions,
     [](const Options& o) { return plume::runRender(o.run); }, videoOf},
    {"bake", "Simulate a scene into an OpenVDB cache", addBakeOptions,
     [](const Options& o) { return plume::runBake(o.run); }},
    {"render-vdb", "Render an existing OpenVDB sequence (plume, Blender, EmberGen) to an MP4",
     addRenderVdbOptions, [](const Options& o) { return plume::runRenderVdb(o.run); }, videoOf},
    {"upres", "Add upres detail to an existing OpenVDB cache, writing a fine one", addUpresOptions,
     [](const Options& o) { return plume::runUpres(o.run); }},
    {"encode", "Encode a PNG or EXR frame sequence into the MP4 plume render writes",
     addEncodeOptions, [](const Options& o) { return plume::runEncode(o.run); },
     [](const Options& o) { return o.run.output; }},
    {"farm", "Render a scene across a Slurm cluster: bake, render frame chunks, encode",
     addFarmOptions, [](const Options& o) { return plume::runFarm(o.farm); },
     [](const Options& o) { return o.farm.output; }},
    {"preview", "Watch a scene and show a live preview of it on a local web page",
     addPreviewOptions, [](const Options& o) { return plume::runPreview(o.preview); }},
    {"new", "Write a starting scene: chimney, wispy, billowy, fog, candle, campfire, torch, fireball, explosion",
     addNewOptions, [](const Options& o) { return plume::runNewScene(o.newScene); }},
    {"check", "Validate a scene; print it resolved, with grid size and memory estimate",
     addCheckOptions, [](const Options& o) { return plume::runCheck(o.run); }},
};

// "" when word names a command, else the one-line error for it, with the
// nearest command when word looks like a typo of one.
std::string unknownCommand(std::string_view word) {
    std::vector<std::string_view> names;
    for (const Command& c : kCommands) {
        if (word == c.name) return {};
        names.push_back(c.name);
    }
    names.push_back("help");
    const std::string_view nearest = plume::nearestName(word, names);
    std::string line = "plume: error: '" + std::string(word) + "' is not a plume command";
    if (!nearest.empty()) return line + " (did you mean '" + std::string(nearest) + "'?)";
    line += " (commands:";
    for (const Command& c : kCommands) line += std::string(" ") + c.name;
    return line + "; see plume --help)";
}

}  // namespace

int run(int argc, char** argv, const plume::Processes* processes);

// `plume bake` started as several processes: one bake split across them
// (sim/solver_split.cpp). Process 0 writes the files and says what it does;
// a process that fails ends them all at once, so none waits for it.
int splitBake(int argc, char** argv) {
    plume::Processes processes(argc, argv);
    int status = 0;
    {
        const plume::ScopedWarningSink quiet(processes.rank() == 0 ? plume::WarningSink{}
                                                                   : [](const std::string&) {});
        status = run(argc, argv, &processes);
    }
    // A refusal every process made alike (a scene's error), or an interrupt
    // all stopped on after the same frame (128 + its signal: Solver::endFrame),
    // ends each alone; anything else one process met ends the run.
    if (status != 0 && status != 2 && status <= 128) processes.abort(status);
    return status;
}

int main(int argc, char** argv) {
    // Grids of a megabyte or more get pages of their own, handed back to the
    // system when freed. Left to itself glibc raises this threshold to the
    // size of the largest block freed so far, after which a sparse solve's
    // old grids (freed as its box moves) and a frame's VDB trees stay in the
    // heap: 20 MB more peak resident memory in a 128^3 bake.
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    // Started as several processes (mpirun, srun): a bake splits across
    // them; anything else is refused before anything is written, in one line
    // from the first of them.
    const plume::Launch launch = plume::launchFromEnvironment();
    if (const std::string why = plume::severalProcessesRefusal(launch); !why.empty()) {
        if (launch.rank == 0) plume::printMessage("plume: error: " + why);
        return 2;
    }
    if (launch.count > 1) {
        const bool bake = argc > 1 && std::string_view(argv[1]) == "bake";
        if (!bake) {
            if (launch.rank == 0)
                plume::printMessage(
                    "plume: error: only plume bake splits across processes, and " +
                    std::to_string(launch.count) +
                    " were started (mpirun or srun); run this command as one process");
            return 2;
        }
        return splitBake(argc, argv);
    }
    return run(argc, argv, nullptr);
}

int run(int argc, char** argv, const plume::Processes* processes) {
    // `plume help [COMMAND]` is `plume [COMMAND] --help`.
    std::vector<char*> args(argv, argv + argc);
    static char helpFlag[] = "--help";
    if (argc > 1 && std::string_view(argv[1]) == "help") {
        if (argc > 3) {
            plume::printMessage(
                "plume help: error: takes one command name, e.g. plume help render");
            return 2;
        }
        args.erase(args.begin() + 1);
        if (argc == 3 && std::string_view(argv[2]) == "help") args.pop_back();
        args.push_back(helpFlag);
    }
    // The first word that is not an option names the command.
    std::string command;
    if (args.size() > 1 && args[1][0] != '-') {
        if (const std::string error = unknownCommand(args[1]); !error.empty()) {
            plume::printMessage(error);
            return 2;
        }
        command = args[1];
    }

    Options options;
    CLI::App app{"plume " PLUME_VERSION ": simulate and render smoke from a scene file", "plume"};
    app.set_version_flag("--version", "plume " PLUME_VERSION);
    app.require_subcommand(1);
    app.footer("plume help COMMAND (or plume COMMAND --help) lists a command's options.");
    app.option_defaults()->always_capture_default();
    for (const Command& c : kCommands)
        c.addOptions(app.add_subcommand(c.name, c.description), options);

    try {
        app.parse(int(args.size()), args.data());
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        plume::printMessage(plume::usageError(app, e, command));
        return 2;
    }

    options.run.outputs.commandLine = quotedCommandLine(argc, argv);
    options.run.processes = processes;
    // A split bake's processes meet the same refusals: the first says them.
    const bool speaks = processes == nullptr || processes->rank() == 0;
    plume::installInterruptHandlers();
    try {
        for (const Command& c : kCommands) {
            if (!app.got_subcommand(c.name)) continue;
            if (c.video && !c.video(options).empty()) plume::checkVideoOutput(c.video(options));
            return c.run(options);
        }
    } catch (const plume::InputError& e) {
        // Every refusal reads WHERE: error: WHAT; one that names no place is plume's.
        const std::string line = e.what();
        if (speaks)
            plume::printMessage(
                line.find(": error: ") == std::string::npos ? "plume: error: " + line : line);
        return 2;
    } catch (const plume::RunError& e) {
        plume::printMessage(std::string("plume: error: ") + e.what());
        return 1;
    } catch (const std::exception& e) {
        plume::printMessage(std::string("plume: error: ") + e.what());
        return 1;
    }
    return 2;
}
