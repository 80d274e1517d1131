#!/usr/bin/env bash
# CTest driver for the six-way flipbook test (tests/browser/CMakeLists.txt):
# plume renders a small puff of smoke to Unity's six-way lightmaps with motion
# vectors (4 x 4 cells of 64 px, every other frame of 32), as PNG and as EXR,
# and its own frames lit by each light of sixway.mjs alone; Debian's Chromium
# draws each set of sheets as a game engine does (sixway_page.html, three.js)
# and sixway.mjs compares the two.
#
# Usage: sixway_test.sh PLUME SOURCE_DIR WORK_DIR
# Exit: 0 pass, 1 fail, 77 skip (no node/npm, or no Chromium); with
# PLUME_REQUIRE_ALL=1 (CI), a missing tool fails instead of skipping.
# $PLUME_SIXWAY_SET adds --set to every render, one for each word
# (render.extinction=10: a thinner puff), for measuring.
set -euo pipefail

[[ $# -eq 3 ]] || { echo "usage: $0 PLUME SOURCE_DIR WORK_DIR" >&2; exit 2; }
plume=$1 src=$2 work=$3
test_name=six-way-test
source "$src/tests/browser/common.sh"
[[ -x $plume ]] || fail "no plume binary at $plume"

rm -rf "$work"
mkdir -p "$work"
cd "$work"
sets=()
for set in ${PLUME_SIXWAY_SET:-}; do sets+=(--set "$set"); done

# tests/system/flipbook_maps_test.cpp's puff, 32 frames: the sheet takes
# frames 1, 3, ..., 31, so each frame between two cells is plume's own.
cat >puff.toml <<'TOML'
[domain]
size = [1.0, 1.0, 1.5]
resolution = 16
boundary = "open"
[time]
fps = 24
frames = 32
max_substeps = 2
[[emitter]]
shape = "sphere"
center = [0.5, 0.5, 0.25]
radius = 0.15
density = 1.0
temperature = 1.5
noise = 0.3
velocity = [0.0, 0.0, 1.5]
[camera]
type = "orthographic"
ortho_width = 1.6
position = [0.5, -1.8, 0.75]
look_at = [0.5, 0.5, 0.75]
TOML
# The sheets twice: 8-bit PNG (16-bit motion), and half-float EXR.
for format in png exr; do
  timeout 120 "$plume" render puff.toml -q --flipbook "fb_$format" "${sets[@]}" \
    --set flipbook.kind=six_way --set flipbook.motion=true --set flipbook.columns=4 \
    --set flipbook.rows=4 --set flipbook.frame_size=64 --set flipbook.format=$format ||
    fail "plume render --flipbook ($format) exited with $?"
  say "plume wrote $(cd "fb_$format" && echo *)"
done

# The camera's axes from the sidecar; each light's travel in the world from
# its direction toward the light (x right, y up, z away from the camera).
read -r -a axes < <(node -e '
  const a = require(process.argv[1]).meta.axes;
  console.log([...a.right, ...a.up, ...a.back].join(" "))' "$work/fb_png/puff.json") ||
  fail "no axes in fb_png/puff.json"
# plume's own frames lit by each light alone, as render/output/six_way.cpp
# lights a lightmap: irradiance pi, white, no sky, ground or emission.
while read -r light x y z; do
  travel=$(awk -v x="$x" -v y="$y" -v z="$z" -v a="${axes[*]}" 'BEGIN {
    split(a, v, " ")
    for (i = 1; i <= 3; ++i) d[i] = -x * v[i] - y * v[i + 3] + z * v[i + 6]
    printf "[%.9g, %.9g, %.9g]", d[1], d[2], d[3] }')
  mkdir -p "lit/$light"
  { cat puff.toml
    printf '[[light]]\ndirection = %s\nintensity = 3.14159265358979\ncolor = [1.0, 1.0, 1.0]\n' "$travel"
    printf '[render]\nwidth = 64\nheight = 64\ntransparent = true\nexposure = 1.0\n'
    printf 'ambient = [0.0, 0.0, 0.0]\nbackground = [0.0, 0.0, 0.0]\n'
    printf 'emission = 0.0\nheat_glow = 0.0\nfire_light = 0.0\n'
  } >"lit/$light/puff.toml"
  timeout 120 "$plume" render "lit/$light/puff.toml" -q --no-video "${sets[@]}" --exr "refs/$light" ||
    fail "plume render lit/$light/puff.toml exited with $?"
done < <(node "$here/sixway.mjs" --lights)
say "plume rendered the shot lit by each of $(ls refs | wc -l) lights (refs/*)"

status=0
for format in png exr; do
  rc=0
  timeout --kill-after=10 100 node "$here/sixway.mjs" "fb_$format" puff refs --chromium "$chromium" || rc=$?
  [[ $rc -ne 124 && $rc -ne 137 ]] || fail "sixway.mjs timed out ($format)"
  [[ $rc -eq 0 ]] || status=$rc
done
exit $status
