#!/usr/bin/env bash
# plume started as several processes by a real mpirun: only bake splits; any
# other command, and a bake of what does not split yet (the SOR pressure solve), is refused
# in one line, from one of them, exit status 2, with nothing written; a split
# bake whose substeps outrun its halo stops in one line; the memory check
# counts each process's part.
# Usage: refusal_test.sh PLUME SOURCE_DIR WORK_DIR
set -euo pipefail
plume=$1 source=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
cat > tiny.toml <<'TOML'
[domain]
size = [1.0, 1.0, 1.0]
resolution = 12
[time]
frames = 2
[[emitter]]
shape = "sphere"
center = [0.5, 0.5, 0.3]
radius = 0.2
TOML
# refused NAME PATTERN COMMAND...: one error line matching PATTERN, status 2.
refused() {
  local name=$1 pattern=$2; shift 2
  local status=0
  mpirun -np 2 --oversubscribe "$plume" "$@" >out.txt 2>err.txt || status=$?
  if [ "$status" -ne 2 ]; then echo "FAIL: $name: status $status, not 2"; cat err.txt; exit 1; fi
  local lines
  lines=$(grep -c "^plume: error: " err.txt || true)
  if [ "$lines" -ne 1 ]; then echo "FAIL: $name: $lines error lines, not 1:"; cat err.txt; exit 1; fi
  grep "^plume: error: " err.txt
  if ! grep -q "^plume: error: .*$pattern" err.txt; then
    echo "FAIL: $name: the error does not say '$pattern'"; exit 1
  fi
  for out in cache tiny.mp4; do
    if [ -e "$out" ]; then echo "FAIL: $name: the refused run left $out"; exit 1; fi
  done
}
refused render "only plume bake splits across processes, and 2 were started" render tiny.toml
refused sor 'does not take solver.pressure = "sor" yet' bake tiny.toml --vdb cache \
  --set solver.pressure=sor
# Substeps longer than the halo holds (time.max_substeps caps them) stop the
# split bake rather than let it differ from one process's.
# (The frames before it are written, whole.)
sed 's/^radius = 0.2$/radius = 0.2\nvelocity = [0.0, 0.0, 20.0]/' tiny.toml > fast.toml
status=0
mpirun -np 2 --oversubscribe "$plume" bake fast.toml --vdb fast --set time.max_substeps=1 \
  --set time.frames=6 >out.txt 2>err.txt || status=$?
if [ "$status" -ne 2 ]; then echo "FAIL: reach: status $status, not 2"; cat err.txt; exit 1; fi
if [ "$(grep -c '^plume: error: ' err.txt)" -ne 1 ]; then echo "FAIL: reach:"; cat err.txt; exit 1; fi
grep "^plume: error: " err.txt
grep -q "^plume: error: frame [0-9]*: a substep of this split bake moves the smoke .* cells, more than the [0-9]* its halo holds" err.txt ||
  { echo "FAIL: reach: the error does not say how far"; exit 1; }
# So do sparks that outrun the halo: ballistic, and lifted at 150 g.
{ cat tiny.toml; echo 'fuel = 1.0'; echo 'sparks = 2000.0'; } > embers.toml
status=0
mpirun -np 2 --oversubscribe "$plume" bake embers.toml --vdb embers --set domain.resolution=48 \
  --set sparks.drag=0 --set sparks.buoyancy=100 --set time.frames=6 >out.txt 2>err.txt || status=$?
if [ "$status" -ne 2 ]; then echo "FAIL: sparks' reach: status $status"; cat err.txt; exit 1; fi
if [ "$(grep -c '^plume: error: ' err.txt)" -ne 1 ]; then echo "FAIL: sparks' reach:"; cat err.txt; exit 1; fi
grep "^plume: error: " err.txt
grep -q "^plume: error: frame [0-9]*: a spark of this split bake moves farther in a substep than its halo holds" err.txt ||
  { echo "FAIL: sparks' reach: the error does not say why"; exit 1; }
# The memory check counts a process's part: a domain too large for this
# machine is refused by each process for its slabs and halo, a smaller
# figure than one process's, and nothing is made.
status=0
"$plume" bake tiny.toml --vdb big --set domain.resolution=1024 2>alone.txt || status=$?
[ "$status" -eq 2 ] || { echo "FAIL: memory alone: status $status"; cat alone.txt; exit 1; }
status=0
mpirun -np 2 --oversubscribe "$plume" bake tiny.toml --vdb big --set domain.resolution=1024 \
  >out.txt 2>err.txt || status=$?
[ "$status" -eq 2 ] || { echo "FAIL: memory split: status $status"; cat err.txt; exit 1; }
[ "$(grep -c 'error: scene needs' err.txt)" -eq 1 ] || { echo "FAIL: memory split:"; cat err.txt; exit 1; }
grep "error: scene needs" err.txt
grep -q "a process (each of 2 holding 1024x1024x5[0-9][0-9] cells)" err.txt ||
  { echo "FAIL: memory split: the error does not say a process's part"; exit 1; }
alone=$(sed -n 's/.*needs about \([0-9.]*\) GiB.*/\1/p' alone.txt)
each=$(sed -n 's/.*needs about \([0-9.]*\) GiB.*/\1/p' err.txt)
awk -v a="$alone" -v e="$each" 'BEGIN { exit !(e < 0.6 * a) }' ||
  { echo "FAIL: memory split: $each GiB a process against $alone GiB alone"; exit 1; }
[ ! -e big ] || { echo "FAIL: memory split: the refused bake made big/"; exit 1; }
# Alone, under mpirun -np 1, it bakes as always.
mpirun -np 1 "$plume" bake tiny.toml --vdb cache >/dev/null
if [ ! -f cache/tiny_0002.vdb ]; then echo "FAIL: one process did not bake"; ls cache; exit 1; fi
echo "PASS"
