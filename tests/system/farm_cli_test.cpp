// plume farm without a cluster: the job scripts of --dry-run, and the errors
// found before anything is submitted. tests/farm runs them on a real Slurm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/processes.h"
#include "farm/farm_bake_tasks.h"
#include "io/vdb_cache.h"
#include "support/run.h"

namespace plume {
namespace {

namespace fs = std::filesystem;
using test::runPlume;
using test::scratchDir;

const std::string kScene = std::string(PLUME_SOURCE_DIR) + "/tests/golden/scenes/rising.toml";

std::string text(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// plume with PATH holding no sbatch: "status=N" last, after stderr.
std::string runWithoutSbatch(const fs::path& dir, const std::string& args) {
    return test::capture("cd '" + dir.string() + "' && PATH=/nonexistent '" PLUME_BINARY "' " +
                         args + " 2>&1; echo status=$?");
}

TEST(FarmCli, DryRunWritesRunnableCommentedScripts) {
    fs::path dir = scratchDir("farm_dry_run");
    auto r = runPlume(
        "farm " + kScene +
            " --slurm -o out/shot.mp4 --chunk 3 --partition short "
            "--time 00:10:00 --mem-per-task 2G --cpus-per-task 4 --wedge physics.vorticity=0.2,0.5 "
            "--dry-run",
        dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const fs::path farm = dir / "out" / "shot.farm";
    for (const char* variant : {"vorticity-0.2", "vorticity-0.5"})
        for (const char* script : {"bake.sh", "render.sh"}) {
            const fs::path p = farm / variant / script;
            ASSERT_TRUE(fs::exists(p)) << p;
            EXPECT_NE(fs::status(p).permissions() & fs::perms::owner_exec, fs::perms::none);
            EXPECT_EQ(test::capture("bash -n '" + p.string() + "' 2>&1; echo $?"), "0\n") << p;
        }
    for (const char* script : {"encode.sh", "submit.sh"})
        EXPECT_EQ(test::capture("bash -n '" + (farm / script).string() + "' 2>&1; echo $?"), "0\n")
            << script;
    const std::string render = text(farm / "vorticity-0.5" / "render.sh");
    EXPECT_NE(render.find("#SBATCH --array=0-2\n"), std::string::npos);  // 8 frames: 3, 3, 2
    EXPECT_NE(render.find("#SBATCH --partition=short\n"), std::string::npos);
    EXPECT_NE(render.find("#SBATCH --time=00:10:00\n"), std::string::npos);
    EXPECT_NE(render.find("#SBATCH --mem=2G\n"), std::string::npos);
    // Every job asks for the CPUs and runs as many threads as Slurm gives it.
    for (const fs::path& p : {farm / "vorticity-0.5" / "render.sh",
                              farm / "vorticity-0.5" / "bake.sh", farm / "encode.sh"})
        EXPECT_NE(text(p).find("#SBATCH --cpus-per-task=4\n"), std::string::npos) << p;
    for (const fs::path& p :
         {farm / "vorticity-0.5" / "render.sh", farm / "vorticity-0.5" / "bake.sh"})
        EXPECT_NE(text(p).find(" --threads \"${SLURM_CPUS_ON_NODE:-0}\""), std::string::npos) << p;
    // What users run carries no test hook.
    for (const auto& e : fs::recursive_directory_iterator(farm)) {
        if (e.path().extension() != ".sh") continue;
        EXPECT_EQ(text(e.path()).find("PLUME_"), std::string::npos) << e.path();
    }
    EXPECT_NE(render.find("--set 'physics.vorticity=0.5'"), std::string::npos);
    EXPECT_NE(render.find("--skip-existing"), std::string::npos);
    EXPECT_NE(text(farm / "vorticity-0.2" / "bake.sh").find(" bake '" + kScene + "' --vdb "),
              std::string::npos);
    const std::string encode = text(farm / "encode.sh");
    EXPECT_NE(encode.find("--label 'vorticity=0.2'"), std::string::npos) << encode;
    EXPECT_NE(encode.find((dir / "out" / "shot_wedges.mp4").string()), std::string::npos);
    EXPECT_NE(encode.find((dir / "out" / "shot_vorticity-0.5.mp4").string()), std::string::npos);
    EXPECT_NE(text(farm / "submit.sh").find("--dependency=afterok"), std::string::npos);
    EXPECT_FALSE(fs::exists(dir / "out" / "shot.mp4"));
}

// With upres.factor > 1 the farm bakes the base cache, adds the detail in a job
// of its own (plume upres) and renders that: the job scripts, run by hand here
// in their order, give the fine frames a bake with upres inline writes.
TEST(FarmCli, UpresIsAStageBetweenBakeAndRender) {
    fs::path dir = scratchDir("farm_upres");
    auto r =
        runPlume("farm " + kScene + " --slurm -o out/shot.mp4 --set upres.factor=2 --dry-run", dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const fs::path main = dir / "out" / "shot.farm" / "main";
    for (const char* script : {"bake.sh", "upres.sh", "render.sh"})
        EXPECT_EQ(test::capture("bash -n '" + (main / script).string() + "' 2>&1; echo $?"), "0\n")
            << script;
    EXPECT_NE(text(main / "bake.sh").find("--set 'upres.factor=2' --set upres.factor=1\n"),
              std::string::npos);
    EXPECT_NE(text(main / "render.sh").find((main / "fine" / "rising_####.vdb").string()),
              std::string::npos);
    const std::string submit = text(dir / "out" / "shot.farm" / "submit.sh");
    EXPECT_NE(submit.find("--dependency=afterok:${bake0%%;*} '" + main.string() + "'/upres.sh"),
              std::string::npos)
        << submit;
    EXPECT_NE(submit.find("--dependency=afterok:${upres0%%;*} '" + main.string() + "'/render.sh"),
              std::string::npos)
        << submit;

    for (const char* script : {"bake.sh", "upres.sh"})
        ASSERT_EQ(test::capture("bash '" + (main / script).string() + "' >/dev/null 2>&1; echo $?"),
                  "0\n")
            << script;
    EXPECT_EQ(test::capture("SLURM_ARRAY_TASK_ID=0 bash '" + (main / "render.sh").string() +
                            "' >/dev/null 2>&1; echo $?"),
              "0\n");
    EXPECT_TRUE(fs::exists(main / "frames" / "rising_0008.png"));
    r = runPlume(
        "bake " + kScene + " --set upres.factor=2 --set output.vdb_precision=exact --vdb inline -q",
        dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const CacheFrame farm = readVdbFrame((main / "fine" / "rising_0008.vdb").string());
    const CacheFrame inline_ = readVdbFrame((dir / "inline" / "rising_0008.vdb").string());
    EXPECT_EQ(farm.upresFactor, 2);
    ASSERT_EQ(farm.density.size(), inline_.density.size());
    EXPECT_EQ(std::memcmp(farm.density.data(), inline_.density.data(),
                          farm.density.size() * sizeof(float)),
              0);
}

// --bake-tasks 2: the bake job asks Slurm for 2 tasks, each with its CPUs and
// memory, and srun starts them as one MPI job (PMIx: what Debian's Open MPI
// speaks); the render array and the encode job are those of one task.
TEST(FarmCli, BakeTasksRunTheBakeAsOneMpiJobOfSeveralTasks) {
    if (!processesBuilt()) {
        if (test::requireAll()) FAIL() << "a build without MPI (PLUME_REQUIRE_ALL=1)";
        GTEST_SKIP() << "a build without MPI refuses --bake-tasks 2 (BakeTasksRefuses...)";
    }
    fs::path dir = scratchDir("farm_bake_tasks");
    auto r = runPlume(
        "farm " + kScene + " --slurm -o one/shot.mp4 --cpus-per-task 2 --mem-per-task 3G --dry-run",
        dir);
    ASSERT_EQ(r.status, 0) << r.err;
    r = runPlume("farm " + kScene +
                     " --slurm -o two/shot.mp4 --cpus-per-task 2 --mem-per-task 3G --bake-tasks 2 "
                     "--dry-run",
                 dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const fs::path one = dir / "one" / "shot.farm", two = dir / "two" / "shot.farm";
    const std::string bake = text(two / "main" / "bake.sh");
    EXPECT_EQ(test::capture("bash -n '" + (two / "main" / "bake.sh").string() + "' 2>&1; echo $?"),
              "0\n");
    EXPECT_NE(bake.find("\n#SBATCH --ntasks=2\n"), std::string::npos) << bake;
    EXPECT_NE(bake.find("\n#SBATCH --cpus-per-task=2\n"), std::string::npos) << bake;
    // 3G a task over its 2 CPUs; --mem would be per node, shared by the tasks on it.
    EXPECT_NE(bake.find("\n#SBATCH --mem-per-cpu=1536M\n"), std::string::npos) << bake;
    EXPECT_EQ(bake.find("#SBATCH --mem="), std::string::npos) << bake;
    EXPECT_NE(
        bake.find("\nexec srun --mpi=pmix --kill-on-bad-exit=1 --ntasks=2 --cpus-per-task=2 '" +
                  std::string(PLUME_BINARY) + "' bake '" + kScene + "' --vdb "),
        std::string::npos)
        << bake;
    // Each task runs the threads of its own CPUs, not the node's.
    EXPECT_NE(bake.find(" --threads \"${SLURM_CPUS_PER_TASK:-1}\" "), std::string::npos) << bake;
    EXPECT_NE(bake.find("--kill-on-bad-exit=1) rather than"), std::string::npos) << bake;
    // One task: the bake as before, no srun; the other jobs alike either way.
    const std::string alone = text(one / "main" / "bake.sh");
    EXPECT_EQ(alone.find("srun"), std::string::npos) << alone;
    EXPECT_EQ(alone.find("--ntasks"), std::string::npos) << alone;
    EXPECT_NE(alone.find("\n#SBATCH --mem=3G\n"), std::string::npos) << alone;
    // The same but for the output folder's name.
    auto relative = [&](const fs::path& script, const char* out) {
        std::string s = text(dir / out / "shot.farm" / script);
        const std::string folder = (dir / out).string();
        for (size_t at; (at = s.find(folder)) != std::string::npos;)
            s.replace(at, folder.size(), "OUT");
        return s;
    };
    for (const char* script : {"main/render.sh", "encode.sh", "submit.sh"})
        EXPECT_EQ(relative(script, "two"), relative(script, "one")) << script;
}

TEST(FarmCli, BakeTasksRefusesWhatIsNotACount) {
    fs::path dir = scratchDir("farm_bake_tasks_errors");
    EXPECT_EQ(runWithoutSbatch(dir, "farm " + kScene + " --slurm --dry-run --bake-tasks 0"),
              "--bake-tasks 0: error: not in range 1 to 65536\nstatus=2\n");
    EXPECT_EQ(runWithoutSbatch(dir, "farm " + kScene + " --slurm --dry-run --bake-tasks two"),
              "--bake-tasks two: error: not a whole number\nstatus=2\n");
    // A plume without MPI would only refuse the tasks in the job: it refuses them now.
    if (!processesBuilt()) {
        EXPECT_EQ(runWithoutSbatch(dir, "farm " + kScene + " --slurm --dry-run --bake-tasks 2"),
                  "plume farm: error: --bake-tasks 2: this plume was built without MPI "
                  "(libopenmpi-dev), so it bakes as one process; leave out --bake-tasks, or "
                  "rebuild plume with libopenmpi-dev installed\nstatus=2\n");
        EXPECT_EQ(test::listDir(dir), std::vector<std::string>{});
        return;
    }
    EXPECT_EQ(runWithoutSbatch(
                  dir, "farm " + kScene + " --slurm --dry-run --bake-tasks 2 --mem-per-task lots"),
              "plume farm: error: --mem-per-task 'lots' is not a size Slurm reads (e.g. 4G, "
              "512M); with --bake-tasks each task gets it, shared among the task's CPUs\n"
              "status=2\n");
    EXPECT_EQ(test::listDir(dir), std::vector<std::string>{});  // nothing written
}

TEST(FarmCli, ErrorsComeBeforeAnythingIsSubmitted) {
    fs::path dir = scratchDir("farm_errors");
    EXPECT_EQ(runWithoutSbatch(dir, "farm " + kScene + " --slurm --wedge physics.vortcity=1,2"),
              "--wedge physics.vortcity=1: error: unknown key 'physics.vortcity' (did you mean "
              "'physics.vorticity'?)\nstatus=2\n");
    EXPECT_EQ(runWithoutSbatch(dir, "farm " + kScene + " --slurm --wedge physics.vorticity=1,-2"),
              "--wedge physics.vorticity=-2: error: 'physics.vorticity' = -2 is out of range "
              "[0, 100]\nstatus=2\n");
    EXPECT_EQ(runWithoutSbatch(dir, "farm " + kScene + " --slurm -o shot.mp4"),
              "plume farm: error: no sbatch on PATH (Slurm's client, Debian's slurm-client); "
              "--dry-run writes the job scripts without it\nstatus=2\n");
    EXPECT_EQ(runWithoutSbatch(dir, "farm " + kScene + " -o shot.mp4"),
              "plume farm: error: --slurm is required (Slurm is the scheduler plume submits "
              "to)\nstatus=2\n");
    // A loop blends frames that different tasks would render.
    const std::string loop = runWithoutSbatch(
        dir, "farm " + kScene + " --slurm --dry-run --set loop.frames=2 --set loop.overlap=1");
    EXPECT_EQ(loop.rfind("plume farm: error: [loop] blends the loop's last frames with the frames "
                         "before its first, and the farm renders frames in chunks apart",
                         0),
              0u)
        << loop;
    EXPECT_NE(loop.find("\nstatus=2\n"), std::string::npos) << loop;
    EXPECT_EQ(test::listDir(dir), std::vector<std::string>{});  // no scripts for a failed check
}

// sbatch refusing a job (here the second): the job before it is cancelled,
// plume farm exits 2 with sbatch's reason, and the folders and scripts this
// run made are gone; a folder that was there before stays, with its files.
TEST(FarmCli, ARefusedSubmissionCancelsItsJobsAndLeavesNothing) {
    fs::path dir = scratchDir("farm_refused");
    const fs::path bin = dir / "bin";
    fs::create_directories(bin);
    auto tool = [&](const char* name, const std::string& body) {
        std::ofstream(bin / name) << "#!/bin/bash\n" << body;
        fs::permissions(bin / name, fs::perms::owner_all);
    };
    tool("sbatch",
         "echo \"$*\" >>'" + (dir / "sbatch.log").string() +
             "'\n"
             "if [[ $(wc -l <'" +
             (dir / "sbatch.log").string() +
             "') == 1 ]]; then echo 101; exit 0; fi\n"
             "echo 'sbatch: error: Batch job submission failed: Invalid account' >&2\nexit 1\n");
    tool("scancel", "echo \"$*\" >>'" + (dir / "scancel.log").string() + "'\n");
    const std::string path = "PATH='" + bin.string() + "':/usr/bin:/bin";
    auto r = runPlume("farm " + kScene + " --slurm -o new/shot.mp4", dir, path);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "plume farm: error: sbatch refused " +
                         (dir / "new/shot.farm/main/render.sh").string() +
                         ": Batch job submission failed: Invalid account\n");
    EXPECT_EQ(text(dir / "scancel.log"), "101\n");
    EXPECT_FALSE(fs::exists(dir / "new"));

    fs::create_directories(dir / "old");
    std::ofstream(dir / "old" / "notes.txt") << "mine\n";
    fs::remove(dir / "sbatch.log");
    r = runPlume("farm " + kScene + " --slurm -o old/shot.mp4", dir, path);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(test::listDir(dir / "old"), std::vector<std::string>{"notes.txt"});
}

}  // namespace
}  // namespace plume

namespace plume {
namespace {

// --mem-per-task over a task's CPUs as --mem-per-cpu is rounded up: Slurm
// gives a task its CPUs times that, never less than it was asked for.
TEST(FarmCli, MemPerCpuIsRoundedUpSoATaskHasWhatItAskedFor) {
    struct Case {
        int cpus;
        const char* mem;
        long long perCpu;  // MiB
    };
    for (const Case c : {Case{3, "1G", 342}, Case{2, "3G", 1536}, Case{4, "1001M", 251},
                         Case{2, "1K", 1}, Case{1, "700", 700}, Case{0, "2G", 2048}}) {
        BakeTasks tasks;
        tasks.tasks = 2;
        tasks.cpusPerTask = c.cpus;
        tasks.memPerTask = c.mem;
        EXPECT_EQ(tasks.sbatchLines(),
                  "#SBATCH --ntasks=2\n#SBATCH --mem-per-cpu=" + std::to_string(c.perCpu) + "M\n")
            << c.mem << " over " << c.cpus;
        EXPECT_GE(c.perCpu * std::max(1, c.cpus), slurmMebibytes(c.mem)) << c.mem;
    }
}

}  // namespace
}  // namespace plume
