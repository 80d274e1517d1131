#!/usr/bin/env bash
# plume started as several processes by a real mpirun: only bake splits; any
# other command, and a bake of what does not split yet (diffusion), is refused
# in one line, from one of them, exit status 2, with nothing written; a split
# bake whose substeps outrun its halo stops in one line.
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
refused diffusion "does not take physics.diffusion yet" bake tiny.toml --vdb cache \
  --set physics.diffusion=0.01
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
# Alone, under mpirun -np 1, it bakes as always.
mpirun -np 1 "$plume" bake tiny.toml --vdb cache >/dev/null
if [ ! -f cache/tiny_0002.vdb ]; then echo "FAIL: one process did not bake"; ls cache; exit 1; fi
echo "PASS"
