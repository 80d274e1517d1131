#!/usr/bin/env bash
# CTest driver for the Blender hand-off tests (tests/blender/CMakeLists.txt).
#
# Usage: run_test.sh import    PLUME SOURCE_DIR WORK_DIR
#            plume bakes tests/blender/tall_plume.toml; Blender imports the
#            sequence and renders it (import_plume_cache.py).
#        run_test.sh mantaflow PLUME SOURCE_DIR WORK_DIR
#            Blender's Mantaflow bakes a tiny smoke domain (bake_mantaflow.py);
#            plume render-vdb renders its fluid_data_####.vdb to an MP4, which
#            ffprobe must decode to one frame per cache file, each showing smoke.
#        run_test.sh fire_import    PLUME SOURCE_DIR WORK_DIR
#            plume bakes tests/blender/tiny_fire.toml; Blender imports its last
#            frame and Cycles renders it with a Principled Volume's blackbody
#            light from the flame and temperature grids (import_plume_fire.py):
#            orange, and not orange without the flame grid.
#        run_test.sh mantaflow_fire PLUME SOURCE_DIR WORK_DIR
#            Blender's Mantaflow bakes a tiny fire domain (bake_mantaflow.py
#            FIRE); plume render-vdb renders its last fluid_data_####.vdb to a
#            PNG with its defaults for a fire cache under a night sky; the
#            brightest pixels must be bright and orange, as they must not be
#            with --set render.emission=0 (the flame not shown).
#        run_test.sh cycles    PLUME SOURCE_DIR WORK_DIR
#            plume bakes scenes/plume.toml (64 cells, obstacle hidden, no
#            ground) to frame 72 and renders it as a linear transparent EXR;
#            Cycles renders the same cache, medium, lights and camera
#            (cycles_reference.py), which compares the two in luminance.
#            error.png and side_by_side.png are also copied to
#            $PLUME_CROPS_DIR/cycles (default /work/crops; empty: no copy).
#        run_test.sh addon     PLUME SOURCE_DIR WORK_DIR
#            Blender installs the add-on (plume_blender.zip beside PLUME), builds
#            a scene (domain, sphere emitter, moving collider), exports, bakes
#            and imports through the add-on's operators, and checks the volume,
#            the collider's empty inside, keys read back and refusals, and a
#            small Cycles frame (plume_addon.py).
#        run_test.sh addon_fire PLUME SOURCE_DIR WORK_DIR
#            the add-on bakes a fire emitter with every fire setting at its
#            default; the imported material is plume's fire mapping with the
#            constants plume prints, and a Cycles frame shows flame
#            (addon_fire.py).
#        run_test.sh addon_sparks PLUME SOURCE_DIR WORK_DIR
#            the add-on bakes a fire emitter that throws sparks; the imported
#            sparks object has, on two frames, as many points as OpenVDB
#            itself counts in the cache's `sparks` grid ($PLUME_VDB_POINT_COUNT,
#            tests/blender/vdb_point_count.cpp), and glows warm in Cycles
#            where the sparks are (addon_sparks.py).
#        run_test.sh addon_world PLUME SOURCE_DIR WORK_DIR
#            the add-on exports a night scene lit by its World alone: no light
#            in plume either, the World's colour x strength as plume's
#            background and sky light, Render with plume draws the night; the
#            imported material's Interpolation is the one plume's
#            render.filter takes (addon_world.py).
#        run_test.sh addon_fields PLUME SOURCE_DIR WORK_DIR
#            a ball of smoke blown by a Wind field, baked by Blender's
#            Mantaflow and by plume from the add-on's export of the same
#            objects: the same mean velocity within 15% (addon_fields.py).
#        run_test.sh addon_sequences PLUME SOURCE_DIR WORK_DIR
#            the add-on exports a collider grown by a shape key and a bent one
#            as mesh sequences, an emitter's particles as a points sequence
#            (files read back with numpy), bakes: the grown collider keeps the
#            smoke out at the mid frame, and a red emitter's smoke is red in
#            Cycles (addon_sequences.py).
#
# Exit: 0 pass, 1 fail, 77 skip (no Blender: apt-get install blender); with
# PLUME_REQUIRE_ALL=1 (CI), no Blender fails instead of skipping.
# $BLENDER picks another Blender binary.
set -euo pipefail

say() { echo "blender-test: $*"; }
fail() { say "FAIL: $*" >&2; exit 1; }
skip() {
  [[ ${PLUME_REQUIRE_ALL:-} != 1 ]] || fail "$* (PLUME_REQUIRE_ALL=1: nothing may be skipped)"
  say "SKIP: $*"
  exit 77
}
[[ $# -eq 4 ]] || { echo "usage: $0 import|mantaflow|fire_import|mantaflow_fire|cycles|cycles_fire|addon|addon_fire|addon_sequences|addon_preview|addon_sparks|addon_world|addon_fields PLUME SOURCE_DIR WORK_DIR" >&2; exit 2; }
mode=$1 plume=$2 src=$3 work=$4
here=$src/tests/blender

blender=${BLENDER:-blender}
blender=$(command -v "$blender") || skip "no Blender on PATH (apt-get install blender)"
[[ -x $plume ]] || fail "no plume binary at $plume"
say "$("$blender" --version 2>/dev/null | head -n 1) at $blender"

rm -rf "$work"
mkdir -p "$work"
cd "$work"

# Blender in the background, factory settings, exit 1 on a Python error.
run_blender() {
  local script=$1 status=0; shift
  timeout --kill-after=10 180 "$blender" -b --factory-startup --python-exit-code 1 \
    --python "$script" -- "$@" || status=$?
  # The status before the message's $(basename) resets $? to 0.
  ((status == 0)) || fail "blender $(basename "$script") exited with $status"
}

# get SECTION KEY: the value of KEY in [SECTION] of resolved.toml (`plume check` of a scene)
get() {
  awk -v sec="[$1]" -v key="$2" '/^\[/ { cur = $0; next } cur == sec && $1 == key { sub(/^[^=]*= */, ""); print; exit }' resolved.toml
}

# flame_stats PNG: "R G B N" of the brightest 2% of the PNG's pixels (8-bit
# sRGB means over them, N of them), the fire's colour where it is brightest.
flame_stats() {
  ffmpeg -v error -i "$1" -f rawvideo -pix_fmt rgb24 - | od -An -v -tu1 -w3 |
    awk '{ print 0.2126 * $1 + 0.7152 * $2 + 0.0722 * $3, $1, $2, $3 }' | sort -g -r |
    awk '{ l[NR] = $0 } END { n = int(NR / 50); if (n < 1) n = 1
           for (i = 1; i <= n; ++i) { split(l[i], f, " "); r += f[2]; g += f[3]; b += f[4] }
           printf "%.1f %.1f %.1f %d\n", r / n, g / n, b / n, n }'
}
# is_orange R G B: bright (R > 150) and orange (R > G + 30, G > B + 30), in 8-bit sRGB.
is_orange() {
  awk -v r="$1" -v g="$2" -v b="$3" 'BEGIN { exit !(r > 150 && r > g + 30 && g > b + 30) }'
}

case $mode in
import)
  scene=$here/tall_plume.toml
  # Names, sizes and frame count as plume resolves them, so the test follows the scene file.
  "$plume" check "$scene" >resolved.toml || fail "plume check $scene exited with $?"
  name=$(sed -n "s/^# plume scene '\([^']*\)'.*/\1/p" resolved.toml)
  dx=$(sed -n 's/^# grid .*dx = \([0-9.eE+-]*\) m.*/\1/p' resolved.toml)
  frames=$(get time frames)
  read -r sx sy sz < <(get domain size | tr -d '[],' )
  [[ -n $name && -n $dx && -n $frames && -n $sz ]] ||
    fail "could not read name/dx/frames/size from 'plume check $scene'"
  say "scene '$name': domain $sx x $sy x $sz m, dx $dx m, $frames frames"

  timeout 120 "$plume" bake "$scene" --vdb "$work/cache" --quiet || fail "plume bake exited with $?"
  run_blender "$here/import_plume_cache.py" "$work/cache" "$name" "$frames" "$sx" "$sy" "$sz" "$dx" "$work/renders"
  say "PASS"
  ;;
mantaflow)
  res=32 frames=6 width=320 height=180
  run_blender "$here/bake_mantaflow.py" "$work/manta" "$res" "$frames"
  pattern=$work/manta/data/fluid_data_####.vdb
  timeout 120 "$plume" render-vdb "$pattern" -o "$work/mantaflow.mp4" --quiet \
    --set render.width=$width --set render.height=$height || fail "plume render-vdb '$pattern' exited with $?"
  [[ -s $work/mantaflow.mp4 ]] || fail "plume render-vdb wrote no $work/mantaflow.mp4"
  # Decode every frame: the container's frame count alone could be wrong.
  probe=$(ffprobe -v error -count_frames -select_streams v:0 \
    -show_entries stream=codec_name,width,height,nb_read_frames -of default=nw=1 "$work/mantaflow.mp4") ||
    fail "ffprobe cannot read $work/mantaflow.mp4"
  say "ffprobe: $(echo $probe)"
  got=$(sed -n 's/^nb_read_frames=//p' <<<"$probe")
  [[ $got == "$frames" ]] || fail "ffprobe decodes ${got:-no} frames, expected $frames (one per fluid_data_####.vdb)"
  # Smoke in every frame: the background is a vertical gradient (one grey per
  # row), so a frame of background alone spreads by a few levels along a row;
  # the puff spreads by about 60.
  spreads=$(ffmpeg -v error -i "$work/mantaflow.mp4" -f rawvideo -pix_fmt gray - | od -An -v -tu1 -w"$width" |
    awk -v h="$height" '{ lo = 255; hi = 0
                          for (i = 1; i <= NF; ++i) { if ($i < lo) lo = $i; if ($i > hi) hi = $i }
                          f = int((NR - 1) / h); if (hi - lo > s[f]) s[f] = hi - lo }
                        END { for (f = 0; f in s; ++f) printf "%d ", s[f] }') ||
    fail "ffmpeg cannot decode $work/mantaflow.mp4 to grey"
  say "largest grey spread along a row, per frame: $spreads"
  n=0
  for spread in $spreads; do
    n=$((n + 1))
    ((spread > 20)) || fail "frame $n shows no smoke (grey levels spread by $spread along a row; background alone spreads by about 4)"
  done
  ((n == frames)) || fail "ffmpeg decodes $n frames to grey, expected $frames"
  say "PASS: plume render-vdb renders Blender's $frames-frame Mantaflow cache to an MP4 of $frames frames of smoke"
  ;;
fire_import)
  scene=$here/tiny_fire.toml
  "$plume" check "$scene" >resolved.toml || fail "plume check $scene exited with $?"
  name=$(sed -n "s/^# plume scene '\([^']*\)'.*/\1/p" resolved.toml)
  frames=$(get time frames) kelvin=$(get render fire_temperature) extinction=$(get render extinction)
  emission=$(get render emission)
  read -r sx sy sz < <(get domain size | tr -d '[],' )
  [[ -n $name && -n $frames && -n $kelvin && -n $extinction && -n $emission && -n $sz ]] ||
    fail "could not read name/frames/fire_temperature/extinction/emission/size from 'plume check $scene'"
  "$plume" check --reference --reference-format json >schema.json || fail "plume check --reference exited with $?"
  timeout 120 "$plume" bake "$scene" --vdb "$work/cache" --quiet || fail "plume bake exited with $?"
  cache=$work/cache/${name}_$(printf %04d "$frames").vdb
  [[ -s $cache ]] || fail "plume bake wrote no $cache"
  run_blender "$here/import_plume_fire.py" "$cache" "$kelvin" "$extinction" "$emission" schema.json \
    "$sx" "$sy" "$sz" "$work/renders"
  say "PASS: Cycles renders plume's fire cache ($name, frame $frames) with orange blackbody light from its flame"
  ;;
mantaflow_fire)
  res=32 frames=8
  run_blender "$here/bake_mantaflow.py" "$work/manta" "$res" "$frames" FIRE
  cache=$work/manta/data/fluid_data_$(printf %04d $frames).vdb
  [[ -s $cache ]] || fail "Mantaflow wrote no $cache"
  # plume's defaults for a fire cache (render.emission, render.fire_temperature;
  # src/run/cache_sequence.cpp, CacheSequence::fireDefaults), at night: a dark sky, so the light seen is the flame's.
  look=(--set render.width=160 --set render.height=120
        --set 'render.background_top=[0.01,0.012,0.02]' --set 'render.background_bottom=[0.02,0.02,0.025]'
        --set 'render.ambient=[0.02,0.025,0.04]')
  for variant in fire no_flame; do
    extra=()
    [[ $variant == fire ]] || extra=(--set render.emission=0)
    timeout 60 "$plume" render-vdb "$cache" -o "$work/$variant.mp4" --png "$work/$variant" \
      "${look[@]}" "${extra[@]}" --quiet || fail "plume render-vdb $cache ($variant) exited with $?"
  done
  png=fluid_data_$(printf %04d $frames).png
  for variant in fire no_flame; do
    [[ -s $work/$variant/$png ]] || fail "plume render-vdb wrote no $work/$variant/$png"
  done
  read -r r g b n < <(flame_stats "$work/fire/$png") || fail "ffmpeg cannot decode $work/fire/$png"
  say "fire: brightest $n pixels, mean sRGB ($r, $g, $b)"
  read -r r0 g0 b0 n0 < <(flame_stats "$work/no_flame/$png") || fail "ffmpeg cannot decode $work/no_flame/$png"
  say "with render.emission=0: brightest $n0 pixels, mean sRGB ($r0, $g0, $b0)"
  is_orange "$r" "$g" "$b" ||
    fail "plume render-vdb shows no orange flame in Mantaflow's fire (brightest pixels ($r, $g, $b); want R > 150, R > G + 30, G > B + 30)"
  ! is_orange "$r0" "$g0" "$b0" ||
    fail "the control (render.emission=0) looks orange too ($r0, $g0, $b0): the check cannot tell a flame"
  say "PASS: plume render-vdb shows the flame of Blender's Mantaflow fire as orange light"
  ;;
cycles)
  # Only smoke: the ball (still an obstacle to the flow) and the ground are not drawn.
  # The default scene, its smoke upres'd x2 (as its limits were measured; it
  # ships at x4): Cycles reads the fine voxels as Blender imports them.
  scene=$src/scenes/plume.toml frame=72
  look=(--set domain.resolution=64 --set upres.factor=2 --set render.step=0.5
        --set 'obstacle[1].visible=false' --set ground.enabled=false
        --set render.width=320 --set render.height=180 --set render.transparent=true
        --set render.filter=cubic)
  "$plume" check "$scene" "${look[@]}" >resolved.toml || fail "plume check $scene exited with $?"
  timeout 120 "$plume" bake "$scene" --vdb "$work/cache" --frames $frame "${look[@]}" --quiet ||
    fail "plume bake exited with $?"
  cache=$work/cache/plume_$(printf %04d $frame).vdb
  [[ -s $cache ]] || fail "plume bake wrote no $cache"
  timeout 60 "$plume" render-vdb "$cache" --scene "$scene" -o "$work/plume.mp4" --exr "$work/plume_exr" \
    "${look[@]}" --quiet || fail "plume render-vdb $cache exited with $?"
  exr=$work/plume_exr/plume_$(printf %04d $frame).exr
  [[ -s $exr ]] || fail "plume render-vdb wrote no $exr"
  status=0
  (run_blender "$here/cycles_reference.py" "$cache" "$exr" resolved.toml "$work") || status=$?
  # The pictures, pass or fail, where the developer looks at them.
  crops=${PLUME_CROPS_DIR-/work/crops}
  if [[ -n $crops && -s $work/side_by_side.png ]]; then
    if mkdir -p "$crops/cycles" && cp "$work/side_by_side.png" "$work/error.png" "$crops/cycles/"; then
      say "copied side_by_side.png and error.png to $crops/cycles/"
    else
      say "warning: could not copy the pictures to $crops/cycles/"
    fi
  fi
  ((status == 0)) || exit $status
  say "PASS"
  ;;
cycles_fire)
  # The fireball, small: a frame with bright flame and dark soot, drawn by plume
  # (with its flame's light and without) and by Cycles' Principled Volume set
  # up as README "Fire" says.
  scene=$src/scenes/fireball.toml frame=24
  look=(--set domain.resolution=32 --set upres.factor=1 --set ground.enabled=false
        --set render.width=192 --set render.height=108 --set render.transparent=true
        --set render.filter=cubic --set 'emitter[1].sparks=0')  # the volume alone: Cycles draws no sparks
  "$plume" check "$scene" "${look[@]}" >resolved.toml || fail "plume check $scene exited with $?"
  timeout 120 "$plume" bake "$scene" --vdb "$work/cache" --frames $frame "${look[@]}" --quiet ||
    fail "plume bake exited with $?"
  cache=$work/cache/fireball_$(printf %04d $frame).vdb
  [[ -s $cache ]] || fail "plume bake wrote no $cache"
  for variant in fire dark; do
    extra=()
    [[ $variant == fire ]] || extra=(--set render.emission=0)
    timeout 60 "$plume" render-vdb "$cache" --scene "$scene" --exr "$work/$variant" --no-video \
      "${look[@]}" "${extra[@]}" --quiet || fail "plume render-vdb $cache ($variant) exited with $?"
  done
  exr=fireball_$(printf %04d $frame).exr
  status=0
  "$plume" check --reference --reference-format json >schema.json || fail "plume check --reference exited with $?"
  (run_blender "$here/cycles_fire.py" "$cache" "$work/fire/$exr" "$work/dark/$exr" resolved.toml \
    schema.json "$work/compare") || status=$?
  crops=${PLUME_CROPS_DIR-/work/crops}
  if [[ -n $crops && -s $work/compare/side_by_side.png ]]; then
    if mkdir -p "$crops/cycles_fire" &&
      cp "$work/compare/side_by_side.png" "$work/compare/error.png" "$crops/cycles_fire/"; then
      say "copied side_by_side.png and error.png to $crops/cycles_fire/"
    fi
  fi
  ((status == 0)) || exit $status
  say "PASS"
  ;;
addon)
  zip=$(dirname "$plume")/plume_blender.zip
  [[ -s $zip ]] || fail "no add-on zip at $zip (cmake --build build --target blender_addon)"
  # The add-on installs into this folder, not the user's Blender config.
  export BLENDER_USER_SCRIPTS=$work/user_scripts BLENDER_USER_CONFIG=$work/user_config
  run_blender "$here/plume_addon.py" "$zip" "$plume" "$work"
  say "PASS"
  ;;
addon_fire|addon_sequences|addon_world|addon_fields)
  zip=$(dirname "$plume")/plume_blender.zip
  [[ -s $zip ]] || fail "no add-on zip at $zip (cmake --build build --target blender_addon)"
  export BLENDER_USER_SCRIPTS=$work/user_scripts BLENDER_USER_CONFIG=$work/user_config
  run_blender "$here/$mode.py" "$zip" "$plume" "$work"
  say "PASS"
  ;;
addon_sparks)
  zip=$(dirname "$plume")/plume_blender.zip
  [[ -s $zip ]] || fail "no add-on zip at $zip (cmake --build build --target blender_addon)"
  counter=${PLUME_VDB_POINT_COUNT:-$(dirname "$plume")/tests/blender/vdb_point_count}
  [[ -x $counter ]] || fail "no vdb_point_count at $counter (cmake --build build --target vdb_point_count)"
  export BLENDER_USER_SCRIPTS=$work/user_scripts BLENDER_USER_CONFIG=$work/user_config
  run_blender "$here/addon_sparks.py" "$zip" "$plume" "$work" "$counter"
  say "PASS"
  ;;
addon_preview)
  zip=$(dirname "$plume")/plume_blender.zip
  [[ -s $zip ]] || fail "no add-on zip at $zip (cmake --build build --target blender_addon)"
  export BLENDER_USER_SCRIPTS=$work/user_scripts BLENDER_USER_CONFIG=$work/user_config
  run_blender "$here/addon_preview.py" "$zip" "$plume" "$work" operator
  # Live needs Blender's event loop: a window, on a virtual X server.
  command -v xvfb-run >/dev/null || skip "no xvfb-run for the Live toggle (apt-get install xvfb)"
  status=0
  timeout --kill-after=10 150 xvfb-run -a -s "-screen 0 1280x800x24" "$blender" --factory-startup \
    --python-exit-code 1 --python "$here/addon_preview.py" -- "$zip" "$plume" "$work" live \
    >live.log 2>&1 || status=$?
  ((status == 0)) || fail "Blender under Xvfb exited with $status: $(tail -n 5 live.log)"
  [[ -s $work/live.json ]] || fail "the live run wrote no live.json: $(tail -n 5 live.log)"
  python3 - "$work/live.json" <<'PY' || fail "Live: $(cat "$work/live.json")"
import json, sys
r = json.load(open(sys.argv[1]))
main = max(t for _, t in r["main_thread"])
print(f"blender-test: Live: {r['imports']} previews imported, the second {r['second_after_change']:.2f} s "
      f"after the change; {r['ticks_during_bakes']} of {r['ticks']} timer ticks while plume baked; "
      f"the add-on's longest turn on Blender's main thread {main:.3f} s (export or import); "
      f"the longest wait between ticks {r['longest_gap']:.3f} s (Xvfb's software drawing)")
sys.exit(0 if r["ok"] and r["imports"] >= 2 and r["ticks_during_bakes"] >= 1 and main < 0.25 else 1)
PY
  say "PASS"
  ;;
*)
  echo "unknown mode '$mode' (import|mantaflow|fire_import|mantaflow_fire|cycles|cycles_fire|addon|addon_fire|addon_sequences|addon_preview|addon_sparks|addon_world|addon_fields)" >&2; exit 2 ;;
esac
