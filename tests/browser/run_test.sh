#!/usr/bin/env bash
# CTest driver for the browser hand-off test (tests/browser/CMakeLists.txt):
# plume renders a small MP4, Debian's Chromium plays it from a loopback HTTP
# server (play_video.mjs, driven by playwright-core).
#
# Usage: run_test.sh PLUME SOURCE_DIR WORK_DIR
# Exit: 0 pass, 1 fail, 77 skip (no node/npm, or no Chromium); with
# PLUME_REQUIRE_ALL=1 (CI), a missing tool fails instead of skipping.
# $CHROMIUM picks another Chromium binary (default: chromium on PATH).
set -euo pipefail

[[ $# -eq 3 ]] || { echo "usage: $0 PLUME SOURCE_DIR WORK_DIR" >&2; exit 2; }
plume=$1 src=$2 work=$3
test_name=browser-test
source "$src/tests/browser/common.sh"
[[ -x $plume ]] || fail "no plume binary at $plume"

rm -rf "$work"
mkdir -p "$work"
cd "$work"

# A small video: the golden 'rising' scene, 1 s long. The expected size, frame
# count and rate are the ones plume resolves for the same scene and overrides.
scene=$src/tests/golden/scenes/rising.toml
sets=(--set time.frames=24)
"$plume" check "$scene" "${sets[@]}" >resolved.toml || fail "plume check $scene exited with $?"
get() {  # get SECTION KEY: the value of KEY in [SECTION] of the resolved scene
  awk -v sec="[$1]" -v key="$2" '/^\[/ { cur = $0; next } cur == sec && $1 == key { sub(/^[^=]*= */, ""); print; exit }' resolved.toml
}
width=$(get render width) height=$(get render height) frames=$(get time frames)
fps=$(get output fps)
awk -v f="$fps" 'BEGIN { exit !(f > 0) }' || fps=$(get time fps)
[[ -n $width && -n $height && -n $frames && -n $fps ]] || fail "could not read size/frames/fps from 'plume check $scene'"

timeout 120 "$plume" render "$scene" "${sets[@]}" -o "$work/rising.mp4" --quiet || fail "plume render exited with $?"
say "plume rendered $work/rising.mp4: ${width}x${height}, $frames frames at $fps fps"

# play_video.mjs bounds itself (launch 45 s, playback 60 s); this is the backstop.
rc=0
timeout --kill-after=10 150 node "$here/play_video.mjs" "$work/rising.mp4" \
  --width "$width" --height "$height" --frames "$frames" --fps "$fps" --chromium "$chromium" || rc=$?
[[ $rc -ne 124 && $rc -ne 137 ]] || fail "play_video.mjs timed out"
exit $rc
