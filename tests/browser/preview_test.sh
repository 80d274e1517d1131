#!/usr/bin/env bash
# CTest driver for plume preview in a browser (tests/browser/CMakeLists.txt):
# plume preview serves a scene's live preview; Debian's Chromium opens the
# page (preview.mjs, driven by playwright-core) while the scene is saved with
# its emitter moved, with a misspelt key, and fixed again. Then: the server
# listens on loopback only, and Ctrl-C stops it cleanly, leaving nothing.
#
# Usage: preview_test.sh PLUME SOURCE_DIR WORK_DIR
# Exit: 0 pass, 1 fail, 77 skip (no node/npm, or no Chromium); with
# PLUME_REQUIRE_ALL=1 (CI), a missing tool fails instead of skipping.
set -euo pipefail

[[ $# -eq 3 ]] || { echo "usage: $0 PLUME SOURCE_DIR WORK_DIR" >&2; exit 2; }
plume=$1 src=$2 work=$3
test_name=preview-test
source "$src/tests/browser/common.sh"
[[ -x $plume ]] || fail "no plume binary at $plume"

rm -rf "$work"
mkdir -p "$work/run"
cd "$work/run"

# A warm puff rising from the left of a small box; preview.mjs moves it right.
cat >puff.toml <<'TOML'
[domain]
size = [1.5, 1.0, 1.5]
resolution = 48
boundary = "open"

[time]
frames = 24

[[emitter]]
shape = "sphere"
center = [0.4, 0.5, 0.3]
radius = 0.18
temperature = 1.5

[camera]
position = [0.75, -2.2, 0.75]
look_at = [0.75, 0.5, 0.75]

[render]
width = 320
height = 240
TOML

pid=
stop_preview() { [[ -z $pid ]] || kill "$pid" 2>/dev/null || true; }
trap stop_preview EXIT
"$plume" preview puff.toml --port 0 >"$work/preview.out" 2>"$work/preview.err" &
pid=$!
url=
for _ in $(seq 100); do
  url=$(grep -o 'http://[^ ]*' "$work/preview.out" || true)
  [[ -n $url ]] && break
  kill -0 "$pid" 2>/dev/null || fail "plume preview exited: $(cat "$work/preview.err")"
  sleep 0.1
done
[[ -n $url ]] || fail "plume preview printed no URL"
say "plume preview (pid $pid) at $url"

# Loopback only: the port is bound to 127.0.0.1, on no other address.
port=${url##*:}
port=${port%/}
listening=$(ss -ltnH "sport = :$port" | awk '{print $4}')
[[ $listening == "127.0.0.1:$port" ]] || fail "listening on '$listening', not 127.0.0.1:$port alone"

rc=0
timeout --kill-after=10 150 node "$here/preview.mjs" "$url" "$work/run/puff.toml" \
  --chromium "$chromium" || rc=$?
[[ $rc -ne 124 && $rc -ne 137 ]] || fail "preview.mjs timed out"
[[ $rc -eq 0 ]] || exit $rc

# Ctrl-C: it says so, exits 0, and leaves nothing beside the scene.
kill -INT "$pid"
status=0
wait "$pid" || status=$?
pid=
[[ $status -eq 0 ]] || fail "plume preview exited $status on Ctrl-C: $(cat "$work/preview.err")"
grep -q 'plume preview: stopped' "$work/preview.out" || fail "no closing line: $(cat "$work/preview.out")"
left=$(ls -A "$work/run")
[[ $left == "puff.toml" ]] || fail "left behind in the scene's folder: $left"
say "the page followed every save; Ctrl-C stopped the server; nothing left behind"
grep '^preview' "$work/preview.out" | sed "s/^/$test_name: /"
