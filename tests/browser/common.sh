# Sourced by the browser tests' drivers (run_test.sh, report_test.sh, ...): the
# tools they need, and playwright-core and three from the lockfile. Sets $chromium and
# $here; defines say, fail and skip. The caller sets $test_name first.
say() { echo "$test_name: $*"; }
fail() { say "FAIL: $*" >&2; exit 1; }
skip() {
  [[ ${PLUME_REQUIRE_ALL:-} != 1 ]] || fail "$* (PLUME_REQUIRE_ALL=1: nothing may be skipped)"
  say "SKIP: $*"
  exit 77
}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

for tool in node npm; do
  command -v "$tool" >/dev/null || skip "no $tool on PATH (apt-get install nodejs npm)"
done
chromium=$(command -v "${CHROMIUM:-chromium}") || skip "no Chromium on PATH (apt-get install chromium)"
say "node $(node --version), npm $(npm --version 2>/dev/null), $("$chromium" --version 2>/dev/null | head -n 1)"

# playwright-core and three from the lockfile, installed into
# tests/browser/node_modules when one is missing or not the locked version.
# One installer at a time (other build trees run these tests from the same
# source tree); readers share the lock.
exec 9<"$here/package-lock.json"
flock -x -w 200 9 || fail "timed out waiting for the lock on $here/package-lock.json"
packages=(playwright-core three)
installed_version() {  # installed_version PACKAGE
  node -e 'try { console.log(require(process.argv[1] + "/node_modules/" + process.argv[2] + "/package.json").version) } catch { console.log("none") }' "$here" "$1"
}
locked_version() {  # locked_version PACKAGE
  node -e 'console.log(require(process.argv[1] + "/package-lock.json").packages["node_modules/" + process.argv[2]].version)' "$here" "$1"
}
stale=()
for package in "${packages[@]}"; do
  have=$(installed_version "$package") locked=$(locked_version "$package")
  [[ $have == "$locked" ]] || stale+=("$package $have in node_modules, lockfile wants $locked")
done
if ((${#stale[@]})); then
  say "$(IFS=';'; echo "${stale[*]}"): npm ci in $here"
  (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 timeout 150 \
     npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) || fail "npm ci in $here exited with $?"
  for package in "${packages[@]}"; do
    have=$(installed_version "$package") locked=$(locked_version "$package")
    [[ $have == "$locked" ]] || fail "after npm ci, node_modules has $package $have, not $locked"
  done
fi
flock -s 9
say "playwright-core $(installed_version playwright-core), three $(installed_version three)"
