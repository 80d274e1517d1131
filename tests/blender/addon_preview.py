# The add-on's preview (issue 40, item 2): bpy.ops.plume.preview() bakes a
# 128-cell domain at its Preview Resolution and imports it in place of the
# cache's volume; under a window (Xvfb), the Live toggle bakes again after a
# property change in the background while Blender's event loop keeps turning.
#
# Usage: blender -b --factory-startup --python-exit-code 1 --python addon_preview.py -- \
#            ADDON_ZIP PLUME WORK_DIR operator
#        xvfb-run -a blender --factory-startup --python-exit-code 1 --python addon_preview.py -- \
#            ADDON_ZIP PLUME WORK_DIR live
#
# operator: Domain_plume imported from <cache>/preview, its density voxel the
#   domain's size over the preview resolution (24), not over 128; every frame
#   of the scene there; Bake Final from Preview bakes at 128 cells with
#   guide.cache on those frames and imports the final; an emitter with a misspelt-free but impossible value
#   (emitter frames reversed) puts plume's error in the domain's status.
# live: Live on bakes a preview; the emitter's temperature changed, a second
#   preview follows without any operator call; Blender's event loop turns
#   while plume bakes (a timer ticks then), and the add-on's own turns on
#   Blender's main thread (the export, the import) each take under 0.25 s.
#   Under Xvfb's software drawing on a busy machine the loop itself turns
#   only every second or two, so the timer's gaps are printed, not judged.
import json
import os
import sys
import time

import bpy
from mathutils import Vector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from addon_common import (add_burner, add_domain, add_front_camera, add_shot, check, die,  # noqa: E402
                          gate, install, say)
import addon_common  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) != 4 or args[3] not in ("operator", "live"):
    sys.exit("usage: ... addon_preview.py -- ADDON_ZIP PLUME WORK_DIR operator|live")
addon_zip, plume, work = (os.path.abspath(a) for a in args[:3])
mode = args[3]
os.makedirs(work, exist_ok=True)
addon_common.failures = 0

RESOLUTION, PREVIEW = 128, 24
FIRST, LAST = 1, 12
DOMAIN_SIZE = Vector((1.0, 1.0, 1.5))

install(addon_zip, plume)
scene = add_shot(FIRST, LAST)
domain = add_domain(DOMAIN_SIZE, RESOLUTION)
domain.plume.preview_resolution = PREVIEW
domain.plume.cache_dir = os.path.join(work, "cache_" + mode)
burner = add_burner((0.5, 0.5, 0.25))
burner.plume.emitter_temperature = 2.0
preview_dir = os.path.join(domain.plume.cache_dir, "preview")


def imported():
    obj = bpy.data.objects.get("Domain_plume")
    if obj is None or obj.type != "VOLUME":
        return None, 0.0
    grids = obj.data.grids
    grids.load()
    voxel = grids["density"].matrix_object.col[0].length if "density" in grids else 0.0
    return obj, voxel


if mode == "operator":
    t = time.monotonic()
    result = bpy.ops.plume.preview()
    seconds = time.monotonic() - t
    obj, voxel = imported()
    check(result == {"FINISHED"} and obj is not None, "plume.preview imported Domain_plume",
          f"{result}, in {seconds:.1f} s")
    dx = max(DOMAIN_SIZE) / PREVIEW
    check(abs(voxel - dx) < 0.01 * dx, f"its voxel is the preview's ({dx:.4f} m), not 1/{RESOLUTION}",
          f"{voxel:.4f} m")
    files = sorted(f for f in os.listdir(preview_dir) if f.endswith(".vdb"))
    check(len(files) == LAST - FIRST + 1, "a VDB a frame in <cache>/preview", f"{len(files)} files")
    check(not any(f.endswith(".vdb") for f in os.listdir(domain.plume.cache_dir)),
          "the cache folder itself is left alone")
    gate("operator")
    # Bake Final from Preview: the domain's resolution, following the preview ([guide]).
    import plume_blender.runner as runner_module  # noqa: E402
    calls, started = [], runner_module.Process.__init__

    def recorded(self, args, *rest, **kw):
        calls.append(list(args))
        started(self, args, *rest, **kw)

    runner_module.Process.__init__ = recorded
    t = time.monotonic()
    result = bpy.ops.plume.bake(from_preview=True)
    final_seconds = time.monotonic() - t
    runner_module.Process.__init__ = started
    obj, voxel = imported()
    words = calls[-1] if calls else []
    guide = next((w for w in words if w.startswith("guide.cache=")), "")
    check(result == {"FINISHED"} and obj is not None, "Bake Final from Preview imported Domain_plume",
          f"{result}, in {final_seconds:.1f} s")
    check(os.path.join(preview_dir, "Domain_####.vdb") in guide,
          "plume bake followed <cache>/preview (guide.cache)", guide or " ".join(words))
    dx = max(DOMAIN_SIZE) / RESOLUTION
    check(abs(voxel - dx) < 0.01 * dx, f"its voxel is the domain's ({dx:.4f} m)", f"{voxel:.4f} m")
    files = sorted(f for f in os.listdir(domain.plume.cache_dir) if f.endswith(".vdb"))
    check(len(files) == LAST - FIRST + 1, "a VDB a frame in the cache folder", f"{len(files)} files")
    gate("from preview")
    # A scene plume refuses: its line in the domain's status, the operator cancelled.
    burner.plume.emitter_frames = (10, 5)
    try:
        bpy.ops.plume.preview()
        refused = False
    except RuntimeError:
        refused = True
    status = domain.plume.preview_status
    check(refused and "error:" in status and "frames" in status,
          "a refused scene's error is the domain's preview status", status)
    gate("refusal")
    say(f"preview of {LAST - FIRST + 1} frames at {PREVIEW} cells (domain {RESOLUTION}): {seconds:.1f} s")
    sys.exit(0)

# --- live, in a window: everything from timers, Blender's event loop running.
# A longer preview, so the bake outlasts several of the timer's ticks.
import plume_blender.preview as live  # noqa: E402
domain.plume.preview_resolution = 40
scene.frame_end = 36
ticks, imports, steps = [], [], {"phase": 0, "t0": time.monotonic(), "during": 0}


def watch_imports():
    obj = bpy.data.objects.get("Domain_plume")
    key = obj.data.name_full + str(obj.as_pointer()) if obj else None
    if key and (not imports or imports[-1][1] != key):
        imports.append((time.monotonic(), key, domain.plume.preview_status))


def tick():
    ticks.append(time.monotonic())
    proc = live._run["proc"]
    if proc is not None and proc.running():
        steps["during"] += 1  # the event loop turns while plume bakes
    watch_imports()
    now = time.monotonic() - steps["t0"]
    if steps["phase"] == 0:
        domain.plume.live = True  # the first preview, now
        steps["phase"] = 1
    elif steps["phase"] == 1 and len(imports) >= 1:
        steps["changed_at"] = time.monotonic()
        burner.plume.emitter_temperature = 3.0  # a property change: a second preview follows
        steps["phase"] = 2
    elif steps["phase"] == 2 and len(imports) >= 2:
        finish(True)
        return None
    if now > 90:
        finish(False)
        return None
    return 0.05


def finish(ok):
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    result = {"ok": ok, "imports": len(imports), "longest_gap": max(gaps) if gaps else None,
              "ticks_during_bakes": steps["during"], "main_thread": live._run["timings"],
              "tick_times": [round(t - steps["t0"], 3) for t in ticks],
              "ticks": len(ticks), "status": domain.plume.preview_status,
              "second_after_change": (imports[1][0] - steps["changed_at"]) if len(imports) > 1 else None}
    with open(os.path.join(work, "live.json"), "w") as f:
        json.dump(result, f)
    bpy.ops.wm.quit_blender()


bpy.app.timers.register(tick, first_interval=1.0)
