#!/usr/bin/env bash
# plume started as several processes by a real mpirun refuses in one line,
# from one of them, exit status non-zero, with nothing written; alone it bakes.
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
status=0
mpirun -np 2 --oversubscribe "$plume" bake tiny.toml --vdb cache >out.txt 2>err.txt || status=$?
if [ "$status" -eq 0 ]; then echo "FAIL: two processes baked (status 0)"; exit 1; fi
lines=$(grep -c "^plume: error: " err.txt || true)
if [ "$lines" -ne 1 ]; then echo "FAIL: $lines error lines, not 1:"; cat err.txt; exit 1; fi
grep "^plume: error: " err.txt
if ! grep -q "^plume: error: .*2 were started (mpirun or srun)" err.txt; then
  echo "FAIL: the error does not say how many were started"; exit 1
fi
if [ -e cache ]; then echo "FAIL: the refused run left cache/"; exit 1; fi
# Alone, under mpirun -np 1, it bakes as always.
mpirun -np 1 "$plume" bake tiny.toml --vdb cache >/dev/null
if [ ! -f cache/tiny_0002.vdb ]; then echo "FAIL: one process did not bake"; ls cache; exit 1; fi
echo "PASS"
