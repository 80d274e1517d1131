#!/usr/bin/env bash
# run_test.sh BUILD_DIR PREFIX VERSION_LINE SOURCE_DIR WORK_DIR
# Installs BUILD_DIR twice (DESTDIR=WORK/destdir under PREFIX, then --prefix WORK/prefix) and
# checks each install: bin/plume runs from PATH, from a folder outside the build tree, and
# prints VERSION_LINE; share/plume/plume_blender.zip holds the add-on and plume's schema;
# share/plume/plume.ocio is the OpenColorIO config the installed plume finds beside itself.
set -euo pipefail
build=$1 prefix=$2 version=$3 src=$4 work=$5
rm -rf "$work"
mkdir -p "$work/cwd"

fail() { echo "install: FAIL: $*" >&2; exit 1; }

check() {  # check ROOT: the files cmake --install put under ROOT
  local root=$1
  [ -x "$root/bin/plume" ] || fail "no executable $root/bin/plume"
  local got
  got=$(cd "$work/cwd" && env PATH="$root/bin:/usr/bin:/bin" plume --version) ||
    fail "$root/bin/plume --version exited $?"
  [ "$got" = "$version" ] || fail "$root/bin/plume --version printed '$got', expected '$version'"
  # The installed plume does real work: it checks a shipped scene.
  (cd "$work/cwd" && env PATH="$root/bin:/usr/bin:/bin" plume check "$src/scenes/plume.toml" >/dev/null) ||
    fail "$root/bin/plume check scenes/plume.toml failed"
  local zip=$root/share/plume/plume_blender.zip
  [ -f "$zip" ] || fail "no $zip"
  # Listed by CMake's own archive reader, not by anything of plume's.
  local listing
  listing=$(cd "$work/cwd" && cmake -E tar tf "$zip") || fail "$zip is not a readable zip"
  for member in plume_blender/__init__.py plume_blender/plume_schema.json; do
    grep -qx "$member" <<<"$listing" || fail "$zip lacks $member (has: $(echo $listing))"
  done
  # Its OpenColorIO config, found from the installed executable (not the build tree's).
  [ -f "$root/share/plume/plume.ocio" ] || fail "no $root/share/plume/plume.ocio"
  rm -rf "$work/cwd/exr"
  (cd "$work/cwd" && env -u OCIO PATH="$root/bin:/usr/bin:/bin" plume render "$src/tests/golden/scenes/rising.toml" \
    --no-video --exr exr -q --set domain.resolution=16 --set render.width=32 --set render.height=18 \
    --set time.frames=1 --set output.color_space=acescg) ||
    fail "$root/bin/plume render with output.color_space = \"acescg\" failed"
  [ -f "$work/cwd/exr/rising_0001.exr" ] || fail "no ACEScg EXR frame"
  echo "install: $root/bin/plume ($got), $zip and $root/share/plume/plume.ocio"
}

DESTDIR="$work/destdir" cmake --install "$build" >"$work/destdir.log"
check "$work/destdir$prefix"
cmake --install "$build" --prefix "$work/prefix" >"$work/prefix.log"
check "$work/prefix"
