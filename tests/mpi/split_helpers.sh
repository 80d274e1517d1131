# Shared by the split-bake tests that stop a bake from outside (sourced).

# tall_scene FILE WIDTH RESOLUTION FRAMES: a column of smoke rising through a
# tall open domain, so both processes hold smoke.
tall_scene() {
  local half
  half=$(awk -v w="$2" 'BEGIN { print w / 2 }')
  cat >"$1" <<TOML
[domain]
size = [$2, $2, 4.0]
resolution = $3
boundary.all = "open"
[time]
frames = $4
[[emitter]]
shape = "sphere"
center = [$half, $half, 0.3]
radius = 0.12
temperature = 2.0
velocity = [0.0, 0.0, 3.0]
TOML
}

# wait_for FILE: up to 30 s for a frame to appear.
wait_for() {
  for _ in $(seq 1 600); do
    [[ -f $1 ]] && return 0
    sleep 0.05
  done
  return 1
}

# process_of LAUNCHER RANK: the pid of that process of the mpirun LAUNCHER started.
process_of() {
  local child p
  for child in $(pgrep -P "$1" || true); do
    for p in "$child" $(pgrep -P "$child" || true); do
      if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2"; then
        echo "$p"
        return
      fi
    done
  done
}
