# The add-on's modal bake in Blender's real UI (not in CI: it needs a display,
# e.g. Xvfb). Opens the .blend blender.addon saves, invokes Bake as the panel's
# button does, presses Esc (Blender's event simulation) once two frames are on
# disk, checks that plume stopped early with its frames imported, invokes
# Resume, waits for every frame, and takes screenshots mid-bake (the status
# line), of the viewport with the smoke and the plume panel, and of the
# Properties editor alone (panel.png: the domain's sub-panels).
#
# Usage (after ctest -R blender.addon):
#   w=build/tests/blender/addon
#   BLENDER_USER_SCRIPTS=$w/user_scripts BLENDER_USER_CONFIG=/tmp/plume_ui xvfb-run -a -s "-screen 0 1280x800x24" \
#     blender $w/addon.blend --enable-event-simulate --python tests/blender/addon_ui.py -- build/plume OUT_DIR
# Prints "addon-ui: PASS" and quits, or "addon-ui: FAIL ..." and quits with 1.
import glob
import os
import shutil
import sys
import time

import bpy

plume, out = (os.path.abspath(a) for a in sys.argv[sys.argv.index("--") + 1:])
bpy.ops.preferences.addon_enable(module="plume_blender")
bpy.context.preferences.addons["plume_blender"].preferences.binary = plume
scene = bpy.context.scene
domain = bpy.data.objects["Domain"]
domain.plume.resolution = 96  # slow enough to stop mid-bake
cache = os.path.join(out, "cache")
shutil.rmtree(cache, ignore_errors=True)
os.makedirs(cache)
domain.plume.cache_dir = cache
frames = scene.frame_end - scene.frame_start + 1
win = bpy.context.window_manager.windows[0]
area = next(a for a in win.screen.areas if a.type == "VIEW_3D")
state = {"step": "bake", "t": time.monotonic()}


def say(msg):
    print(f"addon-ui: {msg}", flush=True)


def quit(ok, msg):
    say(("PASS " if ok else "FAIL ") + msg)
    if not ok:
        os._exit(1)
    bpy.ops.wm.quit_blender()


def on_disk():
    return len(glob.glob(os.path.join(cache, "*.vdb")))


def screenshot(name):
    with bpy.context.temp_override(window=win, area=area):
        bpy.ops.screen.screenshot(filepath=os.path.join(out, name))


def tick():
    step, waited = state["step"], time.monotonic() - state["t"]
    if waited > 180:
        quit(False, f"timed out at step '{step}'")
    if step == "bake":
        with bpy.context.temp_override(window=win, area=area):
            say(f"Bake: {bpy.ops.plume.bake('INVOKE_DEFAULT')}")
        state.update(step="esc", t=time.monotonic())
    elif step == "esc" and on_disk() >= 2:
        screenshot("during_bake.png")
        win.event_simulate(type="ESC", value="PRESS")
        win.event_simulate(type="ESC", value="RELEASE")
        say(f"Esc with {on_disk()} frames on disk")
        state.update(step="stopped", t=time.monotonic())
    elif step == "stopped" and bpy.data.objects.get("Domain_plume") is not None:
        n = bpy.data.objects["Domain_plume"].data.frame_duration
        say(f"stopped: {on_disk()} frames on disk, Domain_plume has {n}")
        if not (2 <= on_disk() < frames and n == on_disk()):
            quit(False, "Esc did not stop the bake early with its frames imported")
        with bpy.context.temp_override(window=win, area=area):
            say(f"Resume: {bpy.ops.plume.bake('INVOKE_DEFAULT', resume=True)}")
        state.update(step="resumed", t=time.monotonic())
    elif step == "resumed" and on_disk() == frames and bpy.data.objects.get("Domain_plume") is not None \
            and bpy.data.objects["Domain_plume"].data.frame_duration == frames:
        say(f"resumed: {frames} frames")
        scene.frame_set(scene.frame_start + frames * 3 // 4)
        for o in bpy.context.view_layer.objects:
            o.select_set(False)
        domain.select_set(True)
        bpy.context.view_layer.objects.active = domain
        for a in win.screen.areas:
            if a.type == "PROPERTIES":
                a.spaces[0].context = "PHYSICS"
        region = next(r for r in area.regions if r.type == "WINDOW")
        with bpy.context.temp_override(window=win, area=area, region=region):
            bpy.ops.view3d.view_selected()
        state.update(step="shoot", t=time.monotonic())
    elif step == "shoot" and waited > 2.0:
        screenshot("viewport.png")
        props = next((a for a in win.screen.areas if a.type == "PROPERTIES"), None)
        if props is not None:
            # The domain's plume panel as a user first sees it (sub-panels in
            # their default open or closed state).
            with bpy.context.temp_override(window=win, area=props):
                bpy.ops.screen.screenshot_area(filepath=os.path.join(out, "panel.png"))
        quit(True, f"Esc stopped the modal bake, Resume finished it; screenshots in {out}")
    return 0.05


bpy.app.timers.register(tick, first_interval=2.0)
