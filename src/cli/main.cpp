// plume: the command line. Parses arguments, runs a subcommand, and turns
// errors into one line on stderr and the exit status of DESIGN.md:
// 0 success, 2 usage or scene error, 1 any other failure.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <malloc.h>
#include <exception>

#include "cli/commands.h"
#include "cli/encode.h"
#include "cli/farm.h"
#include "cli/interrupt.h"
#include "core/error.h"
#include "core/report.h"

namespace {

void addRunOptions(CLI::App* cmd, plume::RunOptions& o) {
    cmd->add_option("--frames", o.frames,
                    "Frames to write, A-B or A (earlier frames are simulated)");
    cmd->add_option("--set", o.overrides, "Override a scene key: --set domain.resolution=48")
        ->allow_extra_args(false);
    cmd->add_option("--threads", o.threads,
                    "Worker threads (0: all cores); results are identical for any count")
        ->check(CLI::Range(0, 1024))
        ->capture_default_str();
    cmd->add_option("--stats", o.statsPath,
                    "Write per-frame timings and solver statistics to a CSV file");
    cmd->add_flag("-q,--quiet", o.quiet, "Print nothing but errors");
}

// The options of the commands that write frames (render, render-vdb) for a
// farm's chunks: frames only, and none redone that a previous try finished.
void addChunkOptions(CLI::App* cmd, plume::RunOptions& o) {
    cmd->add_flag("--no-video", o.noVideo, "Write no MP4, only the --png/--exr/--vdb frames");
    cmd->add_flag("--skip-existing", o.skipExisting,
                  "Do not redo a frame whose every output file is already there (with --no-video)");
}

}  // namespace

int main(int argc, char** argv) {
    // Grids of a megabyte or more get pages of their own, handed back to the
    // system when freed. Left to itself glibc raises this threshold to the
    // size of the largest block freed so far, after which a sparse solve's
    // old grids (freed as its box moves) and a frame's VDB trees stay in the
    // heap: 20 MB more peak resident memory in a 128^3 bake.
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    plume::RunOptions opt;
    CLI::App app{"plume " PLUME_VERSION ": simulate and render smoke from a scene file", "plume"};
    app.set_version_flag("--version", "plume " PLUME_VERSION);
    app.require_subcommand(1);
    app.option_defaults()->always_capture_default();

    CLI::App* render = app.add_subcommand("render", "Simulate a scene and render it to an MP4");
    render->add_option("scene", opt.scenePath, "Scene file (TOML)")->required();
    render->add_option("-o,--output", opt.output, "Video to write (default: <scene name>.mp4)");
    render->add_option("--vdb", opt.vdbDir, "Also write an OpenVDB cache, DIR/<name>_0001.vdb ...");
    render->add_option("--png", opt.pngDir, "Also write every frame as DIR/<name>_0001.png ...");
    render->add_option("--exr", opt.exrDir,
                       "Also write every frame as linear half-float RGBA, DIR/<name>_0001.exr ...");
    addRunOptions(render, opt);
    addChunkOptions(render, opt);

    CLI::App* bake = app.add_subcommand("bake", "Simulate a scene into an OpenVDB cache");
    bake->add_option("scene", opt.scenePath, "Scene file (TOML)")->required();
    bake->add_option("--vdb", opt.vdbDir, "Cache folder: DIR/<name>_0001.vdb ...")->required();
    bake->add_flag("--resume", opt.resume, "Continue a stopped bake after its last complete frame");
    addRunOptions(bake, opt);

    CLI::App* renderVdb = app.add_subcommand(
        "render-vdb", "Render an existing OpenVDB sequence (plume, Blender, EmberGen) to an MP4");
    renderVdb
        ->add_option("input", opt.pattern, "'DIR/NAME_####.vdb', a single .vdb file, or a folder")
        ->required();
    renderVdb->add_option("-o,--output", opt.output,
                          "Video to write (default: <sequence name>.mp4)");
    renderVdb->add_option("--scene", opt.scenePath,
                          "Take camera, lights and look from this scene file");
    renderVdb->add_option("--grid", opt.grid,
                          "Float grid to render (default: render.grid, \"density\")");
    renderVdb->add_option("--png", opt.pngDir, "Also write every frame as a PNG into DIR");
    renderVdb->add_option("--exr", opt.exrDir,
                          "Also write every frame as a linear half-float RGBA EXR into DIR");
    renderVdb->add_option("--frames", opt.frames,
                          "Frames to write, A-B or A, by the files' frame numbers");
    addChunkOptions(renderVdb, opt);
    renderVdb->add_option("--set", opt.overrides, "Override a scene key");
    renderVdb->add_option("--threads", opt.threads, "Worker threads (0: all cores)");
    renderVdb->add_flag("-q,--quiet", opt.quiet, "Print nothing but errors");

    CLI::App* encode = app.add_subcommand(
        "encode", "Encode a PNG or EXR frame sequence into the MP4 plume render writes");
    encode
        ->add_option("input", opt.inputs,
                     "'DIR/NAME_####.png' or 'DIR/NAME_####.exr'; several are tiled side by side")
        ->required();
    encode->add_option("--label", opt.labels,
                       "Text drawn on each tiled sequence, in the order of the inputs");
    encode->add_option("-o,--output", opt.output, "Video to write")->required();
    encode->add_option("--fps", opt.fps, "Frames per second (default: the scene's, else 24)")
        ->check(CLI::Range(1.0, 240.0));
    encode->add_option("--frames", opt.frames, "Frames to encode, A-B (each must be there)");
    encode->add_option("--scene", opt.scenePath,
                       "Take output.* settings, time.fps and render.exposure from this scene");
    encode->add_option("--set", opt.overrides, "Override a scene key: --set output.crf=23");
    encode->add_flag("-q,--quiet", opt.quiet, "Print nothing but errors");

    plume::FarmOptions farmOpt;
    CLI::App* farm = app.add_subcommand(
        "farm", "Render a scene across a Slurm cluster: bake, render frame chunks, encode");
    farm->add_option("scene", farmOpt.scenePath, "Scene file (TOML), on storage every node sees")
        ->required();
    farm->add_flag("--slurm", farmOpt.slurm, "Submit to Slurm with sbatch (required)");
    farm->add_option("-o,--output", farmOpt.output,
                     "Video to write (default: <scene name>.mp4); job scripts go to OUT.farm/");
    farm->add_option("--chunk", farmOpt.chunk, "Frames per render task")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    farm->add_option("--partition", farmOpt.partition, "Slurm partition (sbatch --partition)");
    farm->add_option("--account", farmOpt.account, "Slurm account (sbatch --account)");
    farm->add_option("--time", farmOpt.time, "Time limit per job, HH:MM:SS (sbatch --time)");
    farm->add_option("--mem-per-task", farmOpt.memPerTask,
                     "Memory per job, e.g. 4G (sbatch --mem)");
    farm->add_option("--wedge", farmOpt.wedges,
                     "Variants: KEY=V1,V2,...; several multiply (each its own cache and video)")
        ->allow_extra_args(false);
    farm->add_option("--set", farmOpt.overrides, "Override a scene key in every job")
        ->allow_extra_args(false);
    farm->add_flag("--dry-run", farmOpt.dryRun, "Write the job scripts without submitting them");

    CLI::App* check = app.add_subcommand(
        "check", "Validate a scene; print it resolved, with grid size and memory estimate");
    check->add_option("scene", opt.scenePath, "Scene file (TOML)");
    check->add_option("--set", opt.overrides, "Override a scene key");
    check->add_flag("--reference", opt.reference,
                    "Print the scene-file reference (every key, type, default, range)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        plume::printMessage(std::string("plume: error: ") + e.what() + " (see plume --help)");
        return 2;
    }

    plume::installInterruptHandlers();
    try {
        if (render->parsed()) return plume::runRender(opt);
        if (bake->parsed()) return plume::runBake(opt);
        if (renderVdb->parsed()) return plume::runRenderVdb(opt);
        if (check->parsed()) return plume::runCheck(opt);
        if (encode->parsed()) return plume::runEncode(opt);
        if (farm->parsed()) return plume::runFarm(farmOpt);
    } catch (const plume::InputError& e) {
        plume::printMessage(e.what());
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
