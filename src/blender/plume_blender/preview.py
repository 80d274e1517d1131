"""plume.preview and the domain's Live toggle: a small bake of the domain (its
resolution capped at the domain's Preview Resolution, upres off) in the
background, imported in place of the cache's volume. Live bakes again whenever
a plume property, an object's transform or keys, or the frame range changes:
debounced, cancelling the run before; Blender's UI never waits on plume."""
import os
import signal

import bpy

from . import cache_import, export, runner

DEBOUNCE = 0.4  # seconds after the last change before a live preview starts
POLL = 0.1      # how often a running preview is looked at

_run = {"proc": None, "ex": None, "folder": None, "exporting": False, "due": None,
        "timings": []}  # (what, seconds on Blender's main thread): export, import


def preview_folder(domain):
    from .operators import cache_dir  # operators imports this module
    return os.path.join(cache_dir(domain), "preview")


def _status(domain, text):
    if domain is not None and domain.plume.preview_status != text:
        domain.plume.preview_status = text


def cancel():
    """Stops the preview bake in flight, at once (its frames are thrown away)."""
    proc = _run["proc"]
    _run["proc"] = None
    if proc is not None and proc.running():
        proc.cancelled = True
        try:
            os.killpg(proc.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.proc.wait()


def start(context):
    """Exports the scene beside the cache and starts `plume bake` at the
    preview resolution; raises export.ExportError or runner.RunError."""
    cancel()
    domain = export.find_domain(context.scene)
    folder = preview_folder(domain)
    toml = os.path.join(folder, export.scene_name(domain) + ".toml")
    _run["exporting"] = True
    t = _clock()
    try:
        ex = export.write_scene(context, toml, "bake")
    finally:
        _run["exporting"] = False
        _run["timings"].append(("export", _clock() - t))
    cap = domain.plume.preview_resolution
    args = [runner.binary(), "bake", toml, "--vdb", folder, "--set", "upres.factor=1"]
    if domain.plume.resolution > cap:
        args += ["--set", f"domain.resolution={cap}"]
    background = not bpy.app.background  # a UI to keep responsive
    _run.update(proc=runner.Process(args, ex.first, ex.last, background), ex=ex, folder=folder)
    _status(domain, f"baking a preview at {min(cap, domain.plume.resolution)} cells…")
    return ex


def finish(context):
    """Once the bake in flight has ended: imports it, or shows its error.
    Returns the Volume object, or None."""
    proc, ex, folder = _run["proc"], _run["ex"], _run["folder"]
    if proc is None or proc.running():
        return None
    _run["proc"] = None
    status = proc.finish()
    if proc.cancelled:
        return None
    if status != 0:
        _status(ex.domain, runner.error_line(proc.lines, status))
        return None
    t = _clock()
    try:
        obj = cache_import.import_sequence(context, ex.domain, folder, ex.name, ex.first, ex.last)
    except RuntimeError as e:
        _status(ex.domain, str(e))
        return None
    finally:
        _run["timings"].append(("import", _clock() - t))
    _status(ex.domain, f"preview: frames {ex.first}-{ex.last}")
    return obj


def _poll():
    """The timer that drives previews: starts one when due, imports one when done."""
    context = bpy.context
    now = _clock()
    due = _run["due"]
    if due is not None and now >= due:
        _run["due"] = None
        try:
            start(context)
        except (export.ExportError, runner.RunError) as e:
            try:
                _status(export.find_domain(context.scene), str(e))
            except export.ExportError:
                pass
    finish(context)
    return POLL if (_run["proc"] is not None or _run["due"] is not None) else None


def _clock():
    import time
    return time.monotonic()


def schedule():
    """A change: the live preview starts DEBOUNCE seconds after the last one."""
    _run["due"] = _clock() + DEBOUNCE
    if not bpy.app.timers.is_registered(_poll):
        bpy.app.timers.register(_poll, first_interval=POLL)


def _live_domain(scene):
    for obj in scene.objects:
        if obj.plume.role == "DOMAIN" and obj.plume.live:
            return obj
    return None


_frame_range = {}


def _on_depsgraph(scene, depsgraph):
    """Live: a change to an object plume reads, or to the frame range."""
    if _run["exporting"] or _live_domain(scene) is None:
        return
    changed = False
    key = scene.name
    if _frame_range.get(key) != (scene.frame_start, scene.frame_end, scene.render.fps):
        changed = key in _frame_range
        _frame_range[key] = (scene.frame_start, scene.frame_end, scene.render.fps)
    for update in depsgraph.updates:
        obj = update.id.original if isinstance(update.id, bpy.types.Object) else None
        if obj is None or obj.plume.role == "NONE":
            continue
        if update.is_updated_transform or update.is_updated_geometry or _props_changed(obj):
            changed = True
    if changed:
        schedule()


_props_seen = {}


def _props_changed(obj):
    """Whether obj.plume's values differ from the last look (a property edit
    comes as an update of the object without transform or geometry)."""
    settings = obj.plume
    now = tuple(str(getattr(settings, p.identifier)) for p in settings.bl_rna.properties
                if p.identifier not in ("rna_type", "preview_status"))
    before = _props_seen.get(obj.name)
    _props_seen[obj.name] = now
    return before is not None and before != now


def live_update(settings, context):
    """The Live toggle's update: on, a preview now and on every change; off, none."""
    if settings.live:
        if _on_depsgraph not in bpy.app.handlers.depsgraph_update_post:
            bpy.app.handlers.depsgraph_update_post.append(_on_depsgraph)
        schedule()
    elif not any(o.plume.live for o in bpy.data.objects if o.plume.role == "DOMAIN"):
        unregister()


def unregister():
    if _on_depsgraph in bpy.app.handlers.depsgraph_update_post:
        bpy.app.handlers.depsgraph_update_post.remove(_on_depsgraph)
    _run["due"] = None
    cancel()


class PLUME_OT_preview(bpy.types.Operator):
    """Bake a small preview of the domain with plume and import it in place of its cache"""
    bl_idname = "plume.preview"
    bl_label = "Preview with plume"
    bl_options = {"REGISTER"}

    def execute(self, context):
        try:
            ex = start(context)
        except (export.ExportError, runner.RunError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        if bpy.app.background or context.window is None:
            # No event loop to poll from: wait for the bake here.
            _run["proc"].proc.wait()
            obj = finish(context)
            if obj is None:
                self.report({"ERROR"}, ex.domain.plume.preview_status)
                return {"CANCELLED"}
            self.report({"INFO"}, f"plume: preview of frames {ex.first}-{ex.last} imported as "
                                  f"'{obj.name}'")
            return {"FINISHED"}
        if not bpy.app.timers.is_registered(_poll):
            bpy.app.timers.register(_poll, first_interval=POLL)
        return {"FINISHED"}


classes = (PLUME_OT_preview,)
