"""plume.export, plume.bake, plume.render."""
import json
import os
import subprocess
import sys
import time

import bpy
from bpy.props import BoolProperty, StringProperty

from . import cache_import, export, preview, runner


def cache_dir(domain):
    """The domain's cache folder, else //plume_cache/ beside the .blend (a
    temporary folder for an unsaved file)."""
    d = domain.plume.cache_dir.strip()
    if d:
        return os.path.abspath(bpy.path.abspath(d))
    if bpy.data.filepath:
        return os.path.abspath(bpy.path.abspath("//plume_cache"))
    return os.path.join(bpy.app.tempdir or "/tmp", "plume_cache")


def export_for_run(context, purpose):
    """Writes the scene into the domain's cache folder (made then, so a
    refused scene leaves none); returns (Exported, folder)."""
    domain = export.find_domain(context.scene)
    folder = cache_dir(domain)
    toml = os.path.join(folder, export.scene_name(domain) + ".toml")
    return export.write_scene(context, toml, purpose), folder


def report_warnings(op, ex):
    for line in ex.notes:
        op.report({"INFO"}, line)
    for line in ex.warnings:
        op.report({"WARNING"}, line)


def with_warnings(text, ex):
    """The closing line, pointing back at the warnings (a modal run's last
    report is the one the status bar keeps)."""
    n = len(ex.warnings)
    return text if n == 0 else f"{text} ({n} warning{'s' if n > 1 else ''}: see Info)"


class PLUME_OT_export(bpy.types.Operator):
    """Write the scene as a plume scene file (TOML) with its meshes, and check it with plume"""
    bl_idname = "plume.export"
    bl_label = "Export plume scene"
    bl_options = {"REGISTER"}

    filepath: StringProperty(subtype="FILE_PATH", default="")
    filter_glob: StringProperty(default="*.toml", options={"HIDDEN"})
    check_with_plume: BoolProperty(name="Check with plume", default=True,
                                   description="Run `plume check` on the file written")

    def invoke(self, context, event):
        if not self.filepath:
            try:
                name = export.scene_name(export.find_domain(context.scene))
            except export.ExportError:
                name = "plume"
            self.filepath = bpy.path.abspath(f"//{name}.toml") if bpy.data.filepath else f"{name}.toml"
        context.window_manager.fileselect_add(self)
        return {"RUNNING_MODAL"}

    def execute(self, context):
        if not self.filepath:
            self.report({"ERROR"}, "plume.export: a filepath is required")
            return {"CANCELLED"}
        path = os.path.abspath(bpy.path.abspath(self.filepath))
        if not path.endswith(".toml"):
            path += ".toml"
        try:
            ex = export.write_scene(context, path, "export")
        except export.ExportError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        if self.check_with_plume:
            try:
                r = subprocess.run([runner.binary(), "check", path], capture_output=True, text=True)
            except runner.RunError as e:
                self.report({"ERROR"}, str(e))
                return {"CANCELLED"}
            if r.returncode != 0:
                self.report({"ERROR"}, runner.error_line(r.stderr.splitlines(), r.returncode))
                return {"CANCELLED"}
        report_warnings(self, ex)
        self.report({"INFO"}, with_warnings(f"plume: wrote {path} (frames {ex.first}-{ex.last})", ex))
        return {"FINISHED"}


class _PlumeRun:
    """A plume command run from Blender: blocking in execute (and always under
    `blender -b`), modal with a timer, progress bar and Esc from invoke."""

    def command(self, ex, folder):
        raise NotImplementedError

    def done(self, context, ex, folder, status, cancelled):
        raise NotImplementedError

    def start(self, context):
        try:
            self.ex, self.folder = export_for_run(context, self.verb)
            args = self.command(self.ex, self.folder)
            args[0:0] = [runner.binary()]
        except (export.ExportError, runner.RunError) as e:
            self.report({"ERROR"}, str(e))
            return False
        report_warnings(self, self.ex)
        print("plume: " + " ".join(args), flush=True)
        self.proc = runner.Process(args, self.ex.first, self.ex.last)
        self.last_frame = None
        return True

    def status_text(self):
        p = self.proc
        if p.done_frame is None:
            return f"plume {self.verb}: starting (frames {p.first}-{p.last}; Esc cancels)"
        return f"plume {self.verb}: frame {p.done_frame} of {p.first}-{p.last} (Esc cancels)"

    def execute(self, context):
        if not self.start(context):
            return {"CANCELLED"}
        wm = context.window_manager
        wm.progress_begin(0, 1000)
        try:
            while self.proc.running():
                self._pump(context, echo=True)
                time.sleep(0.05)
        except KeyboardInterrupt:
            self.proc.cancel()
        finally:
            self._pump(context, echo=True)
            wm.progress_end()
        status = self.proc.finish()
        for line in self.proc.poll_lines():
            print(line, flush=True)
        return self.finished(context, status)

    def _pump(self, context, echo=False):
        for line in self.proc.poll_lines():
            if echo:
                print(line, flush=True)
        context.window_manager.progress_update(int(1000 * self.proc.fraction()))

    def invoke(self, context, event):
        if bpy.app.background or context.window is None:
            return self.execute(context)
        if not self.start(context):
            return {"CANCELLED"}
        wm = context.window_manager
        self.timer = wm.event_timer_add(0.25, window=context.window)
        wm.modal_handler_add(self)
        wm.progress_begin(0, 1000)
        context.workspace.status_text_set(self.status_text())
        return {"RUNNING_MODAL"}

    def modal(self, context, event):
        if event.type == "ESC" and event.value == "PRESS":
            self.proc.cancel()
            context.workspace.status_text_set(f"plume {self.verb}: stopping after the frame in flight…")
            return {"RUNNING_MODAL"}
        if event.type != "TIMER":
            return {"PASS_THROUGH"}
        self._pump(context)
        if self.proc.cancelled is False:
            context.workspace.status_text_set(self.status_text())
        if self.proc.running():
            return {"PASS_THROUGH"}
        wm = context.window_manager
        wm.event_timer_remove(self.timer)
        wm.progress_end()
        context.workspace.status_text_set(None)
        status = self.proc.finish()
        return self.finished(context, status)

    def finished(self, context, status):
        early = self.stopped_early()
        if self.proc.cancelled and not early:
            status = 0  # every frame was written before the signal landed
        return self.done(context, self.ex, self.folder, status, early)

    def stopped_early(self):
        """Cancelled, and plume did stop before the last frame (an Esc as it
        finished leaves a whole bake)."""
        p = self.proc
        return p.cancelled and (p.done_frame is None or p.done_frame < p.last)

    def failed(self, status):
        self.report({"ERROR"}, runner.error_line(self.proc.lines, status))
        return {"CANCELLED"}


def guide_args(domain, name, first, last):
    """plume's --set words for a bake guided by the domain's preview: its
    frames from <cache>/preview, blurred by two of the preview's cells.
    Raises runner.RunError when the preview lacks a frame of the shot."""
    folder = preview.preview_folder(domain)
    missing = [f for f in range(first, last + 1)
               if not os.path.isfile(os.path.join(folder, f"{name}_{f:04d}.vdb"))]
    if missing:
        raise runner.RunError(f"Bake from preview: {folder} has no preview of frame {missing[0]}; "
                              "press Preview first")
    cell = max(domain.dimensions) / max(1, min(domain.plume.preview_resolution,
                                                domain.plume.resolution))
    pattern = json.dumps(os.path.join(folder, f"{name}_####.vdb"))  # a TOML string
    return ["--set", f"guide.cache={pattern}", "--set", f"guide.blur={2.0 * cell:.4f}"]


class PLUME_OT_bake(_PlumeRun, bpy.types.Operator):
    """Bake the scene's domain with plume into its cache folder and import the smoke"""
    bl_idname = "plume.bake"
    bl_label = "Bake with plume"
    bl_options = {"REGISTER"}
    verb = "bake"

    resume: BoolProperty(name="Resume", default=False,
                         description="Go on from the last frame a stopped bake wrote (plume bake --resume)")
    from_preview: BoolProperty(
        name="From preview", default=False,
        description="Bake the final following the preview's motion ([guide] from <cache>/preview): "
                    "the preview's shape and path at the domain's resolution, with its detail")

    def command(self, ex, folder):
        args = ["bake", ex.toml_path, "--vdb", folder]
        if self.from_preview:
            args += guide_args(ex.domain, ex.name, ex.first, ex.last)
        return args + ["--resume"] if self.resume else args

    def done(self, context, ex, folder, status, cancelled):
        if status != 0 and not cancelled:
            return self.failed(status)
        try:
            obj = cache_import.import_sequence(context, ex.domain, folder, ex.name, ex.first, ex.last)
        except RuntimeError as e:
            if cancelled:
                self.report({"WARNING"}, f"plume bake cancelled before its first frame")
                return {"CANCELLED"}
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        if cancelled:
            self.report({"WARNING"}, f"plume bake cancelled after frame {self.proc.done_frame}; "
                                     "the frames so far are kept (Resume goes on)")
        else:
            self.report({"INFO"}, with_warnings(f"plume: baked frames {ex.first}-{ex.last} into "
                                                f"{folder}; imported as '{obj.name}'", ex))
        return {"FINISHED"}


class PLUME_OT_render(_PlumeRun, bpy.types.Operator):
    """Render the scene with plume's own renderer to an MP4 beside the .blend"""
    bl_idname = "plume.render"
    bl_label = "Render with plume"
    bl_options = {"REGISTER"}
    verb = "render"

    filepath: StringProperty(subtype="FILE_PATH", default="",
                             description="The MP4 (empty: //<domain>.mp4 beside the .blend)")

    def video_path(self, ex, folder):
        if self.filepath:
            return os.path.abspath(bpy.path.abspath(self.filepath))
        if bpy.data.filepath:
            return os.path.abspath(bpy.path.abspath(f"//{ex.name}.mp4"))
        return os.path.join(folder, f"{ex.name}.mp4")

    def command(self, ex, folder):
        self.video = self.video_path(ex, folder)
        return ["render", ex.toml_path, "-o", self.video]

    def done(self, context, ex, folder, status, cancelled):
        if status != 0 and not cancelled:
            return self.failed(status)
        if cancelled:
            self.report({"WARNING"}, f"plume render cancelled; {self.video} holds the frames so far")
        else:
            self.report({"INFO"}, with_warnings(f"plume: wrote {self.video}", ex))
        return {"FINISHED"}


classes = (PLUME_OT_export, PLUME_OT_bake, PLUME_OT_render)
