#!/usr/bin/env bash
# Ctrl-C in a split bake, and an interrupt that reaches one process only:
# every process stops after the same frame (Solver::endFrame), so the bake
# ends at once, names that frame once, leaves every VDB under a final name
# whole and a resume state of that frame, and --resume goes on to one
# process's fields bit for bit. The test signals only the process group and
# the process it started.
# Usage: interrupt_test.sh PLUME VDB_SAME WORK_DIR
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/split_helpers.sh"
plume=$1 same=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
launcher=""
fail() { echo "FAIL: $*"; exit 1; }
# A failed check leaves no bake of this test running.
cleanup() {
  local status=$?
  [[ -z $launcher ]] || kill -KILL "$launcher" 2>/dev/null || true
  exit "$status"
}
trap cleanup EXIT
tall_scene long.toml 1.0 128 40
"$plume" bake long.toml --vdb one -q

# A group of its own, as a terminal's foreground job is.
setsid mpirun -np 2 --oversubscribe "$plume" bake long.toml --vdb split >out.txt 2>err.txt &
launcher=$!
wait_for split/long_0004.vdb || fail "the split bake wrote no frame 4 in 30 s"
start=$(date +%s)
kill -INT -- "-$launcher"
status=0
wait "$launcher" || status=$?
launcher=""
took=$(($(date +%s) - start))
((status != 0)) || fail "the interrupted bake ended with status 0"
((took <= 30)) || fail "the bake took $took s to end after Ctrl-C"
echo "Ctrl-C: the bake ended with status $status in $took s"
lines=$(grep -c "interrupted after frame" err.txt || true)
((lines == 1)) || fail "expected one 'interrupted after frame' line, got $lines: $(cat err.txt)"
frames=$(ls split/*.vdb | wc -l)
((frames < 40)) || fail "the bake finished before Ctrl-C"
for f in split/*.vdb; do
  "$same" "$f" "$f" >/dev/null || fail "$f under its final name is not whole"
done
ls split | grep -q '\.tmp' && fail "temporaries left: $(ls split)"
# Resumed, then interrupted again through process 1 alone.
mpirun -np 2 --oversubscribe "$plume" bake long.toml --vdb split --resume >resumed.txt 2>&1 &
launcher=$!
first=$(printf %04d $((frames + 3)))
wait_for "split/long_$first.vdb" || fail "the resumed bake wrote no frame $first in 30 s"
victim=$(process_of "$launcher" 1)
[[ -n $victim ]] || fail "no process 1 under mpirun $launcher"
kill -INT "$victim"
for _ in $(seq 1 300); do
  kill -0 "$launcher" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$launcher" 2>/dev/null && fail "the bake went on 30 s after process 1 was interrupted"
status=0
wait "$launcher" || status=$?
launcher=""
((status != 0)) || fail "the bake interrupted through process 1 ended with status 0"
grep -q "resuming after frame" resumed.txt || fail "the resumed bake did not resume: $(cat resumed.txt)"
lines=$(grep -c "interrupted after frame" resumed.txt || true)
((lines == 1)) || fail "expected one 'interrupted after frame' line, got $lines: $(cat resumed.txt)"
again=$(ls split/*.vdb | wc -l)
((again < 40)) || fail "the resumed bake finished before process 1 was interrupted"
echo "process 1 interrupted: all stopped after frame $again"

mpirun -np 2 --oversubscribe "$plume" bake long.toml --vdb split --resume >resumed2.txt 2>&1 ||
  fail "the resumed split bake failed: $(cat resumed2.txt)"
for f in one/*.vdb; do
  "$same" "$f" "split/$(basename "$f")" || fail "$(basename "$f") of the resumed split bake differs"
done
echo "PASS: stopped after frames $frames and $again; resumed to one process's fields"
