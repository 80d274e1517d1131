#!/usr/bin/env bash
# A bake split across 2 and 3 processes by a real mpirun writes the files one
# process writes: every grid of every frame the same, bit for bit, as
# OpenVDB reads them (vdb_same), and the same resume state and sparks files,
# byte for byte.
# Scenes: sparse smoke (advection-reflection), dense smoke (MacCormack), a
# fire, a moving solid, coloured smoke, diffusion and viscosity, upres,
# sparks, a fast jet; a split bake
# resumed with another number of processes and threads.
# Usage: split_bake_test.sh PLUME VDB_SAME SOURCE_DIR WORK_DIR [COUNTS...]
# COUNTS: the numbers of processes each scene is split in (2 and 3 unless given).
set -euo pipefail
plume=$1 same=$2 source=$3 work=$4
shift 4
[ $# -gt 0 ] && counts=("$@") || counts=(2 3)
rm -rf "$work" && mkdir -p "$work" && cd "$work"
scenes=$source/scenes

# bake NP DIR SCENE ARGS...: NP processes (1: plume alone, no mpirun).
bake() {
  local np=$1 dir=$2 scene=$3; shift 3
  if [ "$np" -eq 1 ]; then
    "$plume" bake "$scene" --vdb "$dir" -q "$@"
  else
    mpirun -np "$np" --oversubscribe "$plume" bake "$scene" --vdb "$dir" -q "$@"
  fi
}

# same_bakes NAME A B: every VDB of A equals B's, and the resume states.
same_bakes() {
  local name=$1 a=$2 b=$3 n=0
  for f in "$a"/*.vdb; do
    [ -f "$b/$(basename "$f")" ] || { echo "FAIL: $name: $b lacks $(basename "$f")"; exit 1; }
    "$same" "$f" "$b/$(basename "$f")" || { echo "FAIL: $name: $(basename "$f") differs"; exit 1; }
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || { echo "FAIL: $name: no frames in $a"; exit 1; }
  if [ "$(ls "$a" | wc -l)" -ne "$(ls "$b" | wc -l)" ]; then
    echo "FAIL: $name: $a and $b hold different files"; ls "$a" "$b"; exit 1
  fi
  # The resume state, and the sparks beside each frame in the order they are kept.
  for s in "$a"/*.resume* "$a"/*.ply; do
    [ -e "$s" ] || continue
    cmp -s "$s" "$b/$(basename "$s")" || { echo "FAIL: $name: $(basename "$s") differs"; exit 1; }
  done
  echo "$name: $n frames the same"
}

# check NAME SCENE ARGS...: one process against each of the counts.
check() {
  local name=$1 scene=$2 np; shift 2
  bake 1 "$name.1" "$scene" "$@"
  for np in "${counts[@]}"; do
    bake "$np" "$name.$np" "$scene" "$@"
    same_bakes "$name, $np processes" "$name.1" "$name.$np"
  done
}

# A tall domain, so each process holds a part of it, halo and all, and a
# source just below the cuts (2 processes cut at 24, 3 at 16 and 32) whose
# smoke crosses them within a few frames.
full="--set output.vdb_precision=full"
cat > tall.toml <<'TOML'
[domain]
size = [1.0, 1.0, 4.0]
resolution = 48
boundary.all = "open"
boundary.z_min = "wall"
[time]
frames = 12
cfl = 4.0
max_substeps = 4
[physics]
vorticity = 0.3
turbulence = 0.5
turbulence_scale = 0.2
TOML
source_at() {  # source_at Z EXTRA_KEYS: an emitter at height Z
  cat <<TOML
[[emitter]]
shape = "sphere"
center = [0.5, 0.5, $1]
radius = 0.15
temperature = 1.5
velocity = [0.0, 0.0, 2.0]
${2:-}
TOML
}
{ cat tall.toml; source_at 1.2; } > smoke.toml
check smoke smoke.toml $full
{ cat tall.toml; echo '[solver]'; echo 'advection = "maccormack"'; echo 'sparse = false'
  source_at 1.8; } > dense.toml
check dense dense.toml $full
{ cat tall.toml; source_at 1.2 'fuel = 1.0'; } > fire.toml
check fire fire.toml $full --set physics.ignition_temperature=0.3 --set physics.flame_heat=2.0
# --stats: the same totals (summed by process 0 as the slabs arrive).
burn="--set physics.ignition_temperature=0.3 --set physics.flame_heat=2.0"
bake 1 stats.1 fire.toml $burn --stats stats.1.csv
bake 3 stats.3 fire.toml $burn --stats stats.3.csv
# frame, substeps, iterations, residual, cells, smoke, fuel, peak speed: not the times
cut -d, -f1-4,8-11 stats.1.csv > totals.1 && cut -d, -f1-4,8-11 stats.3.csv > totals.3
diff totals.1 totals.3 || { echo "FAIL: --stats: 3 processes' totals differ"; exit 1; }
echo "stats, 3 processes: the same totals"
{ cat tall.toml; source_at 0.6; cat <<'TOML'
[[obstacle]]
shape = "sphere"
radius = 0.15
center = [0.5, 0.5, 0.8]
[[obstacle.key]]
frame = 1
center = [0.5, 0.5, 0.8]
[[obstacle.key]]
frame = 12
center = [0.5, 0.5, 3.2]
TOML
} > solid.toml
check solid solid.toml $full --frames 8-12
{ cat tall.toml; source_at 1.2 'color = [0.9, 0.2, 0.1]'; source_at 1.5 'color = [0.1, 0.3, 0.9]'
} > color.toml
check color color.toml $full
# Implicit diffusion and viscosity: their sweeps exchange the halo as often as
# their error can cross it (sim/diffusion.h), colours and all.
check diffuse color.toml $full --set solver.sparse=false --set physics.diffusion=0.01 \
  --set physics.viscosity=0.005
check upres smoke.toml $full --set time.frames=6 --set upres.factor=2
# Sparks from the flame and from the emitter, crossing the cuts: every process
# keeps them all, moves those over its slabs and bears those born there.
{ cat tall.toml; echo '[sparks]'; echo 'rate = 2000.0'; source_at 1.2 $'fuel = 1.0\nsparks = 300.0'
} > sparks.toml
check sparks sparks.toml $full $burn
# A jet across the cuts at one substep a frame: its traces near the longest a
# split bake takes (ceil(cfl) + 1 cells), which the halo must hold.
{ cat tall.toml; echo '[solver]'; echo 'sparse = false'; source_at 1.5
} | sed 's/^velocity = .*/velocity = [1.0, 0.0, 10.0]/; s/^max_substeps = .*/max_substeps = 1/' > jet.toml
check jet jet.toml $full --set time.frames=8

# Resumed: frames 1-5 split in two, then on to 10 in three with one thread.
bake 2 resumed smoke.toml $full --frames 1-5
bake 3 resumed smoke.toml $full --resume --threads 1
same_bakes "smoke resumed" smoke.1 resumed
echo "PASS"
