#!/usr/bin/env bash
# A split bake whose process 1 is killed (SIGKILL) mid-bake by this test:
# the run ends within 30 s with a non-zero status, every VDB under a final
# name is whole (OpenVDB reads it), and --resume goes on from the last whole
# frame to the fields one process bakes, bit for bit (vdb_same). The test
# kills only the process it started, by pid.
# Usage: lost_process_test.sh PLUME VDB_SAME WORK_DIR
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/split_helpers.sh"
plume=$1 same=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
tall_scene long.toml 0.5 96 60
"$plume" bake long.toml --vdb one -q

mpirun -np 2 --oversubscribe "$plume" bake long.toml --vdb split -q >out.txt 2>err.txt &
launcher=$!
wait_for split/long_0005.vdb || fail "the split bake wrote no frame 5 in 30 s"
victim=$(process_of "$launcher" 1)
[[ -n $victim ]] || fail "no process 1 under mpirun $launcher"
start=$(date +%s)
kill -KILL "$victim"
status=0
wait "$launcher" || status=$?
took=$(($(date +%s) - start))
((status != 0)) || fail "the run ended with status 0 after losing process 1"
((took <= 30)) || fail "the run took $took s to end after losing process 1"
echo "lost process 1: the run ended with status $status in $took s"
frames=$(ls split/*.vdb | wc -l)
((frames < 60)) || fail "the bake finished before process 1 was lost"
for f in split/*.vdb; do
  "$same" "$f" "$f" >/dev/null || fail "$f under its final name is not whole"
done
mpirun -np 2 --oversubscribe "$plume" bake long.toml --vdb split --resume >resumed.txt 2>&1 ||
  fail "the resumed split bake failed: $(cat resumed.txt)"
grep -q "resuming after frame" resumed.txt || fail "the resumed bake did not resume: $(cat resumed.txt)"
for f in one/*.vdb; do
  "$same" "$f" "split/$(basename "$f")" || fail "$(basename "$f") of the resumed split bake differs"
done
echo "PASS: $frames frames whole when process 1 was lost; resumed to one process's fields"
