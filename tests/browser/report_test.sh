#!/usr/bin/env bash
# CTest driver for the report test (tests/browser/CMakeLists.txt): plume
# renders a tiny scene with --report, and Debian's Chromium opens the page
# offline (check_report.mjs, driven by playwright-core): every chart drew,
# no console error, no network request.
#
# Usage: report_test.sh PLUME SOURCE_DIR WORK_DIR
# Exit: 0 pass, 1 fail, 77 skip (no node/npm, or no Chromium); with
# PLUME_REQUIRE_ALL=1 (CI), a missing tool fails instead of skipping.
set -euo pipefail

[[ $# -eq 3 ]] || { echo "usage: $0 PLUME SOURCE_DIR WORK_DIR" >&2; exit 2; }
plume=$1 src=$2 work=$3
test_name=report-test
source "$src/tests/browser/common.sh"
[[ -x $plume ]] || fail "no plume binary at $plume"

rm -rf "$work"
mkdir -p "$work"
cd "$work"

# The golden 'rising' scene, 12 frames: the contact sheet holds frames 1, 11
# (every tenth) and 12 (the last); one chart per --stats column but the frame.
timeout 120 "$plume" render "$src/tests/golden/scenes/rising.toml" --set time.frames=12 \
  -o rising.mp4 --stats stats.csv --report report.html --quiet || fail "plume render exited with $?"
columns=$(head -n 1 stats.csv | tr ',' '\n' | wc -l)
say "plume wrote report.html ($(stat -c %s report.html) bytes), $((columns - 1)) stats columns"

rc=0
timeout --kill-after=10 90 node "$here/check_report.mjs" report.html \
  --charts $((columns - 1)) --pictures 3 --chromium "$chromium" || rc=$?
[[ $rc -ne 124 && $rc -ne 137 ]] || fail "check_report.mjs timed out"
exit $rc
