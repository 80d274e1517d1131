#!/usr/bin/env bash
# CTest driver for farm.bake_tasks (tests/farm/CMakeLists.txt): plume farm
# --bake-tasks 2 on the private Slurm cluster of tests/farm/cluster.sh runs
# the bake as ONE MPI job of 2 tasks.
#
# Usage: bake_tasks_test.sh PLUME WORK_DIR [MPI_PROBE]
# (MPI_PROBE is left out for a plume built without MPI: plume farm then
# refuses --bake-tasks 2 in one line, which is all this test checks.)
#
# 1. Starts the cluster (cluster.sh) with its partition DOWN, submits
#    `plume farm tiny.toml --slurm --bake-tasks 2` (16 cells, 3 frames), then
#    puts a wrapper in front of the plume binary the job scripts run (a copy
#    in WORK/bin; the scripts carry no test hook) and sets the partition UP.
#    The wrapper logs each call with its Slurm step, task and task count;
#    when plume bake fails in a task it runs MPI_PROBE (an MPI program,
#    tests/farm/mpi_probe.cpp) there, to tell an MPI start that failed from
#    plume's own failure.
# 2. Checks that the bake ran as the 2 tasks of one srun step and completed,
#    its closing line printed once, and that the farm's frames are plume
#    render's of a one-process bake, byte for byte. (A process lost mid-bake
#    is tests/mpi/lost_process_test.sh's.)
# 3. Cancels what is left and stops the daemons it started, by pid.
#
# Runs as root (CI) or as a normal user. Exit: 0 pass, 1 fail, 77 skip (no
# slurm-wlm); with PLUME_REQUIRE_ALL=1 (CI) a missing Slurm fails instead.
set -euo pipefail

say() { echo "bake-tasks-test: $*"; }
fail() { say "FAIL: $*" >&2; exit 1; }
skip() {
  [[ ${PLUME_REQUIRE_ALL:-} != 1 ]] || fail "$* (PLUME_REQUIRE_ALL=1: nothing may be skipped)"
  say "SKIP: $*"
  exit 77
}
[[ $# -eq 2 || $# -eq 3 ]] || { echo "usage: $0 PLUME WORK_DIR [MPI_PROBE]" >&2; exit 2; }
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
plume=$(realpath "$1") work=$(realpath -m "$2") probe=${3:+$(realpath "$3")}
for tool in munged slurmctld slurmd sbatch srun squeue scontrol scancel; do
  command -v "$tool" >/dev/null || PATH=$PATH:/usr/sbin:/sbin
  command -v "$tool" >/dev/null || skip "no $tool (apt-get install slurm-wlm munge)"
done
[[ -x $plume ]] || fail "no plume binary at $plume"
# Open MPI refuses to run as root unless told it may; the jobs take this
# environment from sbatch.
if ((EUID == 0)); then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

rm -rf "$work"
mkdir -p "$work"
cd "$work"
cat >tiny.toml <<'TOML'
[domain]
size = [1.0, 1.0, 1.0]
resolution = 16
[time]
frames = 3
[[emitter]]
shape = "sphere"
center = [0.5, 0.5, 0.3]
radius = 0.2
temperature = 1.0
[camera]
position = [0.5, -1.8, 0.5]
look_at = [0.5, 0.5, 0.5]
[render]
width = 32
height = 18
TOML
source "$here/cluster.sh"

mkdir -p "$work/bin"
cp "$plume" "$work/bin/plume"
scontrol update PartitionName=farm State=DOWN
status=0
"$work/bin/plume" farm tiny.toml --slurm -o "$work/shot.mp4" --bake-tasks 2 >farm.out 2>farm.err ||
  status=$?
if [[ -z $probe ]]; then
  # A build without MPI (no MPI_PROBE either): plume farm refuses the tasks up front.
  ((status == 2)) && grep -q '^plume farm: error: --bake-tasks 2: this plume was built without MPI' farm.err ||
    fail "a plume without MPI did not refuse --bake-tasks 2 (status $status): $(cat farm.err)"
  [[ -z $(squeue -h) && ! -e $work/shot.farm ]] || fail "the refused plume farm submitted or wrote something"
  say "PASS (a build without MPI): $(cat farm.err)"
  exit 0
fi
((status == 0)) || fail "plume farm --bake-tasks 2 exited with $status: $(cat farm.err)"
cat farm.out
bake=$(sed -n 's/^scene: bake job \([0-9]*\) (2 MPI tasks), render array .*/\1/p' farm.out)
array=$(sed -n 's/^scene: bake job .*, render array \([0-9]*\) .*/\1/p' farm.out)
[[ -n $bake && -n $array ]] || fail "plume farm printed no 2-task bake job or render array id"
grep -q '^#SBATCH --ntasks=2$' "$work/shot.farm/main/bake.sh" || fail "bake.sh asks for no 2 tasks"

mv "$work/bin/plume" "$work/bin/plume.real"
cat >"$work/bin/plume.new" <<WRAPPER
#!/bin/bash
echo "step \${SLURM_JOB_ID:-}.\${SLURM_STEP_ID:-} task \${SLURM_PROCID:-} of \${SLURM_STEP_NUM_TASKS:-}: \$*" >>"$work/calls.log"
[[ \$1 == bake ]] || exec "$work/bin/plume.real" "\$@"
status=0
"$work/bin/plume.real" "\$@" || status=\$?
if ((status != 0)); then
  "$probe" || echo "test wrapper: the MPI probe failed (\$?)"
fi
exit "\$status"
WRAPPER
chmod +x "$work/bin/plume.new"
mv "$work/bin/plume.new" "$work/bin/plume"
scontrol update PartitionName=farm State=UP

# The bake job's end (it leaves the queue; MinJobAge keeps it for scontrol).
for _ in $(seq 1 180); do
  [[ $(squeue -h -j "$bake" -o %T 2>/dev/null) == "" ]] && break
  sleep 0.5
done
job=$(scontrol show job "$bake")
state=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$job")
[[ $state != RUNNING && $state != PENDING ]] ||
  fail "the bake job is still $state after 90 s (did one task's end not end the step? --kill-on-bad-exit): $(cat "$work"/shot.farm/logs/bake-main-*.log)"
log=$(cat "$work/shot.farm/logs/bake-main-$bake.log")
say "bake job $bake: $state; its log:"
sed 's/^/  | /' <<<"$log"

# Both calls to plume bake: one step, tasks 0 and 1 of 2 (not two steps or
# jobs of one task each, not plume run alone by the batch script).
bakes=$(grep ": bake " "$work/calls.log" || true)
steps=$(sed 's/ task .*//' <<<"$bakes" | sort -u | wc -l)
tasks=$(sed -n 's/^step [0-9]*\.[0-9]* task \([0-9]*\) of \([0-9]*\): bake .*/\1 of \2/p' <<<"$bakes" | sort | tr '\n' ',')
[[ $steps == 1 && $tasks == "0 of 2,1 of 2," ]] ||
  fail "plume bake did not run as the 2 tasks of one srun step: $bakes"

[[ $state == COMPLETED ]] || fail "the split bake job ended $state"
closing=$(grep -c '^plume: wrote 3 VDB frames' <<<"$log" || true)
((closing == 1)) || fail "the closing line came $closing times, not once"
# The render array and the encode job after it.
for _ in $(seq 1 240); do
  [[ -z $(squeue -h) ]] && break
  sleep 0.5
done
[[ -z $(squeue -h) ]] || fail "jobs still queued after 120 s: $(squeue)"
"$plume" bake tiny.toml --vdb ref/cache --set output.vdb_precision=exact -q ||
  fail "the one-process bake exited with $?"
"$plume" render tiny.toml -o ref/render.mp4 --png ref/frames -q || fail "the reference render exited with $?"
for n in 1 2 3; do
  f=$(printf 'tiny_%04d' "$n")
  cmp -s <(vdb_print -l "$work/shot.farm/main/cache/$f.vdb") <(vdb_print -l "ref/cache/$f.vdb") ||
    fail "frame $n of the split bake is not the one-process bake's (vdb_print -l)"
  cmp -s "$work/shot.farm/main/frames/$f.png" "ref/frames/$f.png" ||
    fail "frame $n rendered from the split bake differs from plume render --png's"
done
[[ -s $work/shot.mp4 ]] || fail "no shot.mp4"
say "PASS: the split bake ran as one MPI job of 2 tasks; its frames are plume render's"
