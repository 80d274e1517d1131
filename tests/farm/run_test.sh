#!/usr/bin/env bash
# CTest driver for the farm test (tests/farm/CMakeLists.txt): plume farm on a
# real, private, single-node Slurm cluster on localhost.
#
# Usage: run_test.sh PLUME SOURCE_DIR WORK_DIR
#
# 1. Starts munged with a fresh key, slurmctld and slurmd with a generated
#    slurm.conf (one node, this machine's 2 CPUs, free ports), all in a
#    temporary folder, through SLURM_CONF; no system Slurm is touched
#    (tests/farm/cluster.sh, which bake_tasks_test.sh starts too).
# 2. Submits two farm runs of tests/golden/scenes/rising.toml (8 frames)
#    into the partition set DOWN, so no job starts before the test puts a
#    wrapper in front of the plume binary the job scripts run (a copy in
#    WORK/bin): it logs each call and fails one render task once; the scripts
#    themselves carry no test hook.
#    a. chunks of 3 (3, 3, 2 frames), 2 CPUs a job (--cpus-per-task 2), task 1
#       failing on its first try: render.sh requeues it with scontrol; Slurm
#       holds a requeued job ~2 minutes, which the test cuts short (scontrol
#       update StartTime=now) as an impatient operator would;
#    b. a 2x2 wedge (physics.vorticity x physics.buoyancy_heat), chunks of 4,
#       the cluster's default of 1 CPU a job.
#    c. --cpus-per-task 3, more than the node has: sbatch refuses it, plume
#       farm exits 2 naming the refusal, and leaves no folder behind.
# 3. Checks: (a) every frame is byte-identical to a single-machine
#    `plume render --png`, and the MP4 decodes to exactly the frames of that
#    render's video; the failed task ran twice and the encode after it; each
#    job's plume ran as many threads as Slurm gave the job (2 in a, 1 in b);
#    (b) four videos that differ, and shot_wedges.mp4 tiling them 2x2.
# 4. Cancels what is left and stops the daemons it started, by pid.
#
# Exit: 0 pass, 1 fail, 77 skip (no slurm-wlm: apt-get install slurm-wlm munge);
# with PLUME_REQUIRE_ALL=1 (CI) a missing Slurm fails instead of skipping.
set -euo pipefail

say() { echo "farm-test: $*"; }
fail() { say "FAIL: $*" >&2; exit 1; }
skip() {
  [[ ${PLUME_REQUIRE_ALL:-} != 1 ]] || fail "$* (PLUME_REQUIRE_ALL=1: nothing may be skipped)"
  say "SKIP: $*"
  exit 77
}
[[ $# -eq 3 ]] || { echo "usage: $0 PLUME SOURCE_DIR WORK_DIR" >&2; exit 2; }
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
plume=$(realpath "$1") src=$(realpath "$2") work=$(realpath -m "$3")
for tool in munged slurmctld slurmd sbatch squeue scontrol scancel; do
  command -v "$tool" >/dev/null || PATH=$PATH:/usr/sbin:/sbin
  command -v "$tool" >/dev/null || skip "no $tool (apt-get install slurm-wlm munge)"
done
[[ -x $plume ]] || fail "no plume binary at $plume"
scene=$src/tests/golden/scenes/rising.toml frames=8 width=96 height=54

rm -rf "$work"
mkdir -p "$work"
cd "$work"
# The cluster: tests/farm/cluster.sh (stopped when this script exits).
source "$here/cluster.sh"

# The plume the jobs run: a copy, so the wrapper below can stand in for it.
mkdir -p "$work/bin"
cp "$plume" "$work/bin/plume"
scontrol update PartitionName=farm State=DOWN

start=$(date +%s%N)
# a. Uneven chunks, 2 CPUs a job, task 1 failing once.
"$work/bin/plume" farm "$scene" --slurm -o "$work/shot.mp4" --chunk 3 --cpus-per-task 2 \
  >farm_a.out || fail "plume farm exited with $?"
cat farm_a.out
# b. A 2x2 wedge.
"$work/bin/plume" farm "$scene" --slurm -o "$work/wedge/shot.mp4" --chunk 4 \
  --wedge physics.vorticity=0,0.8 --wedge physics.buoyancy_heat=0.3,1.2 >farm_b.out ||
  fail "plume farm --wedge exited with $?"
cat farm_b.out
array_a=$(sed -n 's/^scene: bake job [0-9]*, render array \([0-9]*\) .*/\1/p' farm_a.out)
bake_a=$(sed -n 's/^scene: bake job \([0-9]*\),.*/\1/p' farm_a.out)
[[ -n $array_a && -n $bake_a ]] || fail "plume farm printed no bake job or render array id"
grep -q '^watch: squeue -j ' farm_a.out || fail "plume farm printed no squeue command"

# c. A job Slurm cannot place: refused at submission, nothing left behind.
status=0
"$work/bin/plume" farm "$scene" --slurm -o "$work/refused/shot.mp4" --cpus-per-task 3 \
  >farm_c.out 2>farm_c.err || status=$?
((status == 2)) || fail "plume farm --cpus-per-task 3 exited with $status, not 2: $(cat farm_c.err)"
grep -q '^plume farm: error: sbatch refused .*bake.sh: ' farm_c.err ||
  fail "plume farm --cpus-per-task 3 did not pass on sbatch's refusal: $(cat farm_c.err)"
(($(wc -l <farm_c.err) == 1)) || fail "the refusal is not one line: $(cat farm_c.err)"
[[ ! -e $work/refused ]] || fail "a refused plume farm left $(find "$work/refused")"
say "refused: $(cat farm_c.err)"

# The wrapper the jobs now run: logs its arguments, fails task 1 of run a
# (frames 4-6) on its first try, runs the real plume otherwise.
mv "$work/bin/plume" "$work/bin/plume.real"
cat >"$work/bin/plume.new" <<WRAPPER
#!/bin/bash
echo "\$*" >>"$work/calls.log"
if [[ \$1 == render-vdb && " \$* " == *" --frames 4-6 "* && " \$* " == *" $work/shot.farm/"* ]] &&
  mkdir "$work/failed-once" 2>/dev/null; then
  echo "test wrapper: failing this task once" >&2
  exit 1
fi
exec "$work/bin/plume.real" "\$@"
WRAPPER
chmod +x "$work/bin/plume.new"
mv "$work/bin/plume.new" "$work/bin/plume"
scontrol update PartitionName=farm State=UP

# The single-machine reference, rendered while the cluster works.
"$plume" render "$scene" -o ref/render.mp4 --png ref/frames -q || fail "reference render exited with $?"

# Wait for every job; release the requeued task from Slurm's two-minute hold.
released=
for _ in $(seq 1 360); do
  queue=$(squeue -h -o '%i %T %r')
  [[ -z $queue ]] && break
  if [[ -z $released ]] && grep -q "^${array_a}_1 PENDING BeginTime" <<<"$queue"; then
    sleep 1  # the first run's end reaches slurmctld before the job starts again
    scontrol update JobId="${array_a}_1" StartTime=now
    released=yes
    say "task ${array_a}_1 was requeued after failing; released it from Slurm's hold"
  fi
  sleep 0.5
done
[[ -z $(squeue -h) ]] || fail "jobs still queued after 180 s: $(squeue)"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
say "both farm runs done in $((elapsed_ms / 1000)).$(printf %03d $((elapsed_ms % 1000))) s (the references computed meanwhile)"
[[ -n $released ]] || fail "task 1 was never requeued"
# The failed task: its log shows both tries; Slurm counts one restart and a success.
log=$(cat "$work/shot.farm/logs/render-main-${array_a}_1.log")
grep -q 'test wrapper: failing this task once' <<<"$log" || fail "task 1 did not fail first: $log"
grep -q 'renders frames 4-6 (try 2)' <<<"$log" || fail "task 1 did not run again: $log"
job=$(scontrol show job "${array_a}_1")
grep -q 'JobState=COMPLETED' <<<"$job" || fail "task 1 did not complete: $job"
grep -q 'Restarts=1' <<<"$job" || fail "task 1 was not restarted once: $job"

# Threads: as many as Slurm gave each job (2 asked for in a; b: the default, 1).
grep -q 'NumCPUs=2 ' <<<"$(scontrol show job "$bake_a")" || fail "run a's bake did not get 2 CPUs"
threads() { sed -n "s|^$1.* --threads \([0-9]*\).*|\1|p" "$work/calls.log" | sort -u | tr '\n' ' '; }
[[ $(threads "bake $scene --vdb $work/shot.farm/") == "2 " ]] ||
  fail "run a's bake did not run 2 threads: $(grep "^bake .*$work/shot.farm/" "$work/calls.log")"
[[ $(threads "render-vdb $work/shot.farm/") == "2 " ]] ||
  fail "run a's render tasks did not run 2 threads: $(grep "^render-vdb $work/shot.farm/" "$work/calls.log")"
[[ $(threads "bake $scene --vdb $work/wedge/") == "1 " ]] ||
  fail "run b's bakes did not run 1 thread: $(grep "^bake .*$work/wedge/" "$work/calls.log")"

# a. Frames and video.
for n in $(seq 1 $frames); do
  f=$(printf 'rising_%04d.png' "$n")
  cmp -s "$work/shot.farm/main/frames/$f" "ref/frames/$f" ||
    fail "frame $n rendered on the farm differs from plume render --png's"
done
[[ -s $work/shot.mp4 ]] || fail "the farm wrote no shot.mp4: $(cat "$work"/shot.farm/logs/encode-*.log)"
decode() { ffmpeg -v error -i "$1" -f rawvideo -pix_fmt yuv420p -; }
got=$(decode "$work/shot.mp4" | wc -c)
((got == frames * width * height * 3 / 2)) || fail "shot.mp4 decodes to $got bytes, not $frames frames"
cmp -s <(decode "$work/shot.mp4") <(decode ref/render.mp4) ||
  fail "shot.mp4 does not decode to the frames of plume render's video"

# b. Four variant videos, all different, and the tiled one.
videos=("$work"/wedge/shot_vorticity-*+buoyancy_heat-*.mp4)
((${#videos[@]} == 4)) || fail "expected 4 wedge videos, got: ${videos[*]}"
sums=$(for v in "${videos[@]}"; do decode "$v" | md5sum; done | sort -u | wc -l)
((sums == 4)) || fail "the 4 wedge videos are not 4 different videos"
probe=$(ffprobe -v error -count_frames -show_entries stream=width,height,nb_read_frames -of csv=p=0 \
  "$work/wedge/shot_wedges.mp4") || fail "no readable shot_wedges.mp4"
[[ $probe == "$((2 * width)),$((2 * height)),$frames" ]] ||
  fail "shot_wedges.mp4 is $probe, expected $((2 * width)),$((2 * height)),$frames"
say "PASS: farm frames and video match plume render's bit for bit; failed chunk requeued; threads as Slurm gave (2, 1); refused sbatch left nothing; 2x2 wedge: 4 videos + tiled"
