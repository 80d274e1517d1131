"""plume as a subprocess: its binary, its per-frame progress lines, its one-line
errors, and a clean stop (SIGINT: plume finishes the frame in flight and keeps
the frames written)."""
import os
import queue
import re
import shutil
import signal
import subprocess
import threading

import bpy

# plume's progress when stderr is not a terminal (src/run/progress.cpp):
# "frame 12/48: 3 substeps, ..."
FRAME_LINE = re.compile(r"^frame (\d+)/(\d+):")


class RunError(Exception):
    pass


def binary():
    prefs = bpy.context.preferences.addons[__package__].preferences
    path = bpy.path.abspath(prefs.binary.strip()) if prefs.binary.strip() else "plume"
    if os.sep in path:
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise RunError(f"plume: no program at '{path}' (Preferences > Add-ons > plume: binary)")
        return path
    found = shutil.which(path)
    if not found:
        raise RunError(f"plume: '{path}' is not on PATH (Preferences > Add-ons > plume: set the "
                       "binary's path)")
    return found


def error_line(lines, status):
    """plume's own one-line error (the last line with 'error:'), else the last line."""
    for line in reversed(lines):
        if "error:" in line:
            return line.strip()
    tail = [l for l in lines if l.strip()]
    return tail[-1].strip() if tail else f"plume exited with status {status}"


class Process:
    """A running plume command; its stderr is read on a thread into a queue."""

    def __init__(self, args, first, last, background=False):
        """background: at a lower priority (nice 10), so Blender's UI keeps the
        cores it needs while a live preview bakes."""
        self.args, self.first, self.last = args, first, last
        self.lines, self.done_frame = [], None
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL, text=True, bufsize=1,
                                     start_new_session=True,
                                     preexec_fn=(lambda: os.nice(10)) if background else None)
        self.queue = queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.cancelled = False

    def _read(self):
        for line in self.proc.stderr:
            self.queue.put(line.rstrip("\n"))
        self.queue.put(None)

    def poll_lines(self):
        """Lines read since the last call; updates done_frame."""
        out = []
        while True:
            try:
                line = self.queue.get_nowait()
            except queue.Empty:
                break
            if line is None:
                continue
            out.append(line)
            self.lines.append(line)
            m = FRAME_LINE.match(line)
            if m:
                self.done_frame = int(m.group(1))
        return out

    def fraction(self):
        if self.done_frame is None:
            return 0.0
        return (self.done_frame - self.first + 1) / max(1, self.last - self.first + 1)

    def cancel(self):
        if self.proc.poll() is None:
            self.cancelled = True
            self.proc.send_signal(signal.SIGINT)

    def running(self):
        return self.proc.poll() is None

    def finish(self):
        status = self.proc.wait()
        self.thread.join(timeout=5)
        self.poll_lines()
        return status
