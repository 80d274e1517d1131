#!/usr/bin/python3
"""Detail and grain of smoke frames, plume against Blender's Mantaflow (issue 25's measure).

A manual measurement, not a test and not run in CI (a whole run takes minutes and
its bake times depend on the machine). Needs numpy and Pillow from Debian
(`apt-get install python3-numpy python3-pil`, hence /usr/bin/python3), GNU time
(/usr/bin/time), and for the bakes Blender 3.4 (`blender` on PATH, or --blender).

    tests/bench/detail.py [--plume build/plume] [--work /tmp/plume-detail]
                          [--res 64 128] [--upres-res 64] [--upres-factor 2]
                          [--manta-res 64] [--manta-noise-res 64]
    tests/bench/detail.py --frames-only DIR [DIR ...]

The measure, per frame (a PNG):
  1. 8-bit luminance: Y = 0.2126 R + 0.7152 G + 0.0722 B (Rec. 709's weights) of
     the frame's 8-bit sRGB values, rounded to an integer 0..255;
  2. the background out: each row's median subtracted from the row;
  3. the crop that holds the smoke: pixels whose |Y - median| exceeds
     --threshold (4 levels), their bounding box over rows and columns holding
     at least --min-pixels such pixels, grown by --margin (8 px). Each frame in
     its own crop (--shared-crops: one box around every sequence's frame, as
     before issue 56, which a wider smoke's cap widens for all); --inside: only
     the rectangle inside the smoke (the middle three fifths of its rows, the
     columns all of them have smoke beyond, less the margin), the silhouette's
     edge left out, which suits wide smoke only;
  4. the crop times a 2D Hann window, then its 2D FFT; power = |F|^2 at radial
     frequency f = sqrt(fx^2 + fy^2) in cycles per pixel;
  5. of the power at f >= 0.005 cycles/px (the background's slope and the crop's
     mean left out): Detail = the share at 0.02 <= f < 0.05 (eddies of 20 to 50
     px at 720p), Grain = the share at f > 0.1 (features under 10 px: noise,
     aliasing, voxel steps).
Each figure is the mean over the frames (20 to 32 by default, before either
plume's head reaches the domain's top and spreads into a cap).

What a full run does, in this order, so every bake sees much the same load:
  - `plume bake scenes/bench.toml --set domain.resolution=N --vdb DIR` for each
    --res, and with `--set upres.factor=F` for each --upres-res, under
    /usr/bin/time -v;
  - Blender's Mantaflow baking the same setup (tests/bench/mantaflow_bench.py)
    at each --manta-res, and with its noise (wavelet turbulence, noise_scale 2)
    at each --manta-noise-res;
  - `plume render-vdb 'CACHE' --scene scenes/bench.toml --png OUT --frames 36-48
    --no-video` of every cache: one camera, look and light for all (plume's
    bench_####.vdb, Mantaflow's data/fluid_data_####.vdb, and its noise's
    noise/fluid_noise_####.vdb, whose grid is --manta-noise-grid);
  - the measure over the frames, every cache's frame k cropped together, and a
    markdown table: detail, grain, bake wall and CPU time, peak RSS.
--frames-only measures PNG folders already rendered (say an upres bake's), with
the same shared crop; it bakes and renders nothing.
"""
import argparse
import os
import re
import shutil
import sys
import time

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import REPO, timed  # noqa: E402  (the same GNU time wrapper)

# Frequencies in cycles per pixel.
LOW_CUT = 0.005
DETAIL_BAND = (0.02, 0.05)
GRAIN_FROM = 0.1


def luminance(path):
    """The frame's 8-bit luminance (Rec. 709 weights of the sRGB 8-bit values)."""
    rgb = np.asarray(Image.open(path).convert("RGB"), dtype=np.float64)
    y = rgb @ np.array([0.2126, 0.7152, 0.0722])
    return np.rint(y)


def without_background(y):
    """Each row minus its median: the sky's vertical gradient out."""
    return y - np.median(y, axis=1, keepdims=True)


def smoke_box(images, threshold, min_pixels, margin):
    """(top, bottom, left, right), end exclusive: one box around the smoke of
    every image, grown by margin and clipped to the frame; None without smoke."""
    mask = np.zeros(images[0].shape, dtype=bool)
    for image in images:
        mask |= np.abs(image) > threshold
    rows = np.flatnonzero(mask.sum(axis=1) >= min_pixels)
    cols = np.flatnonzero(mask.sum(axis=0) >= min_pixels)
    if rows.size == 0 or cols.size == 0:
        return None
    h, w = mask.shape
    return (max(rows[0] - margin, 0), min(rows[-1] + 1 + margin, h),
            max(cols[0] - margin, 0), min(cols[-1] + 1 + margin, w))


def inside_box(image, box, threshold, margin):
    """(top, bottom, left, right) of the rectangle inside the smoke of one
    frame: over the middle rows of its box (a fifth off the top and the
    bottom), the columns every one of those rows has smoke beyond, less
    margin on each side; None when that leaves fewer than 32 columns. The
    silhouette's edge is power in the detail band too, whatever the smoke's
    inside holds."""
    top, bottom, left, right = box
    mask = np.abs(image[top:bottom, left:right]) > threshold
    rows = np.flatnonzero(mask.any(axis=1))
    if rows.size < 16:
        return None
    first, last = rows[0], rows[-1] + 1
    cut = (last - first) // 5
    lo, hi = 0, mask.shape[1]
    for r in range(first + cut, last - cut):
        cols = np.flatnonzero(mask[r])
        if cols.size == 0:
            return None
        lo, hi = max(lo, cols[0]), min(hi, cols[-1] + 1)
    lo, hi = lo + margin, hi - margin
    if hi - lo < 32:
        return None
    return (top + first + cut, top + last - cut, left + lo, left + hi)


def band_shares(crop):
    """(detail, grain) of one background-free crop: Hann window, FFT, shares of
    the power above LOW_CUT."""
    h, w = crop.shape
    window = np.outer(np.hanning(h), np.hanning(w))
    power = np.abs(np.fft.rfft2(crop * window)) ** 2
    # rfft2 keeps the non-negative x frequencies; the columns 1 .. w/2 (less
    # the Nyquist one for an even w) stand for two, their mirror included.
    weight = np.full(power.shape[1], 2.0)
    weight[0] = 1.0
    if w % 2 == 0:
        weight[-1] = 1.0
    power = power * weight
    fy = np.fft.fftfreq(h)[:, None]
    fx = np.fft.rfftfreq(w)[None, :]
    f = np.hypot(fx, fy)
    total = power[f >= LOW_CUT].sum()
    if total <= 0:
        return float("nan"), float("nan")
    detail = power[(f >= DETAIL_BAND[0]) & (f < DETAIL_BAND[1])].sum() / total
    grain = power[f > GRAIN_FROM].sum() / total
    return detail, grain


def frame_number(name):
    m = re.search(r"(\d+)\.png$", name)
    return int(m.group(1)) if m else None


def frames_in(folder):
    """{frame number: path} of the PNG frames in folder."""
    found = {}
    for name in os.listdir(folder):
        n = frame_number(name)
        if n is not None:
            found[n] = os.path.join(folder, name)
    if not found:
        sys.exit(f"detail: no numbered PNG frames in {folder}")
    return found


def measure(folders, a):
    """{folder: (detail, grain, frames, mean crop w x h)}: each frame number
    common to all folders measured in one crop around all of them (or each
    alone with --separate-crops), the shares averaged over the frames."""
    sequences = [frames_in(d) for d in folders]
    common = sorted(set.intersection(*(set(s) for s in sequences)))
    if a.frame_range:
        first, last = a.frame_range
        common = [n for n in common if first <= n <= last]
    if not common:
        sys.exit("detail: the folders share no frame number" +
                 f" in --frames {a.frames}")
    shares = {d: [] for d in folders}
    sizes = {d: [] for d in folders}
    for n in common:
        images = [without_background(luminance(s[n])) for s in sequences]
        if any(i.shape != images[0].shape for i in images):
            sys.exit(f"detail: frame {n} differs in size between the folders")
        groups = [[i] for i in range(len(images))] if a.separate_crops else [list(range(len(images)))]
        for group in groups:
            box = smoke_box([images[i] for i in group], a.threshold, a.min_pixels, a.margin)
            if box is None:
                print(f"detail: frame {n}: no smoke above the threshold; skipped", file=sys.stderr)
                continue
            for i in group:
                top, bottom, left, right = box
                if a.inside:
                    inner = inside_box(images[i], box, a.threshold, a.margin)
                    if inner is None:
                        print(f"detail: frame {n} of {folders[i]}: under 32 columns inside the "
                              "smoke; skipped", file=sys.stderr)
                        continue
                    top, bottom, left, right = inner
                shares[folders[i]].append(band_shares(images[i][top:bottom, left:right]))
                sizes[folders[i]].append((right - left, bottom - top))
    result = {}
    for d in folders:
        s = np.array(shares[d]) if shares[d] else np.full((1, 2), np.nan)
        wh = np.mean(sizes[d], axis=0) if sizes[d] else (0, 0)
        result[d] = (float(s[:, 0].mean()), float(s[:, 1].mean()), len(shares[d]), wh)
    return result


def bake_plume(a, res, upres=1):
    tag = f"plume{res}" + (f"_upres{upres}" if upres > 1 else "")
    out = os.path.join(a.work, tag)
    shutil.rmtree(out, ignore_errors=True)
    wall, cpu, rss = timed([a.plume, "bake", a.scene, "--vdb", out, "--set",
                            f"domain.resolution={res}", "--set", f"upres.factor={upres}",
                            "--quiet"], out + ".log")
    return {"tag": tag, "label": f"plume {res}³" + (f", upres ×{upres}" if upres > 1 else ""),
            "cache": os.path.join(out, "bench_####.vdb"),
            "wall": wall, "cpu": cpu, "rss": rss, "grid": None, "note": ""}


def bake_mantaflow(a, res, noise):
    tag = f"manta{res}" + (f"_noise{noise}" if noise else "")
    out = os.path.join(a.work, tag)
    shutil.rmtree(out, ignore_errors=True)
    log = out + ".log"
    wall, cpu, rss = timed([a.blender, "-b", "--factory-startup", "--python-exit-code", "1",
                            "--python", os.path.join(REPO, "tests/bench/mantaflow_bench.py"), "--",
                            out, str(res), "48", str(noise)], log)
    line = [l for l in open(log) if l.startswith("mantaflow-bench:")][-1]
    fields = dict(kv.split("=") for kv in line.split()[1:])
    if noise:
        cache, grid = os.path.join(out, "noise", "fluid_noise_####.vdb"), a.manta_noise_grid
    else:
        cache, grid = os.path.join(out, "data", "fluid_data_####.vdb"), None
    return {"tag": tag, "label": f"Mantaflow {res}³" + (f", noise ×{noise}" if noise else ""),
            "cache": cache,
            "wall": wall, "cpu": cpu, "rss": rss, "grid": grid,
            "note": f"stepping {float(fields['bake_s']):.1f} s"}


def render(a, bake):
    out = os.path.join(a.work, bake["tag"] + "_png")
    shutil.rmtree(out, ignore_errors=True)
    cmd = [a.plume, "render-vdb", bake["cache"], "--scene", a.scene, "--png", out, "--frames",
           a.frames, "--no-video", "--quiet"]
    if bake["grid"]:
        cmd += ["--grid", bake["grid"]]
    bake["render_wall"], _, _ = timed(cmd, out + ".log")
    bake["png"] = out
    bake["render_cmd"] = cmd
    return out


def print_table(rows, results):
    baked = any("wall" in row for row in rows)
    head = "| | detail (0.02-0.05 c/px) | grain (> 0.1 c/px) | frames | crop (mean) |"
    print(head + (" bake wall | bake CPU | peak RSS |" if baked else ""))
    print("|---" * (8 if baked else 5) + "|")
    for row in rows:
        detail, grain, n, (w, h) = results[row["png"]]
        line = f"| {row['label']} | {detail:.3f} | {grain:.4f} | {n} | {w:.0f}x{h:.0f} |"
        if baked:
            note = f" ({row['note']})" if row["note"] else ""
            line += f" {row['wall']:.1f} s{note} | {row['cpu']:.1f} s | {row['rss']:.0f} MB |"
        print(line)


def parse_range(text):
    m = re.fullmatch(r"(\d+)(?:-(\d+))?", text)
    if not m:
        sys.exit(f"detail: --frames wants A-B or A, got {text!r}")
    return int(m.group(1)), int(m.group(2) or m.group(1))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--plume", default=os.path.join(REPO, "build/plume"))
    p.add_argument("--blender", default=shutil.which("blender") or "/usr/bin/blender")
    p.add_argument("--scene", default=os.path.join(REPO, "scenes/bench.toml"),
                   help="the scene baked by plume, and the camera and look of every render")
    p.add_argument("--work", default="/tmp/plume-detail")
    p.add_argument("--res", type=int, nargs="*", default=[64, 128],
                   help="plume bake resolutions (default 64 128)")
    p.add_argument("--upres-res", type=int, nargs="*", default=[64],
                   help="plume bake resolutions with upres (default 64)")
    p.add_argument("--upres-factor", type=int, default=2,
                   help="upres.factor of those bakes (default 2, as Mantaflow's noise x2)")
    p.add_argument("--manta-res", type=int, nargs="*", default=[64],
                   help="Mantaflow bake resolutions without noise (default 64; 128 takes ~5 min)")
    p.add_argument("--manta-noise-res", type=int, nargs="*", default=[64],
                   help="Mantaflow bake resolutions with noise x2 (default 64)")
    p.add_argument("--manta-noise-grid", default="density_noise",
                   help="the density grid's name in Mantaflow's noise cache")
    p.add_argument("--frames", default="20-32",
                   help="frames rendered and measured (default 20-32: both plumes' heads "
                        "still under the domain's top)")
    p.add_argument("--frames-only", nargs="+", metavar="DIR",
                   help="only measure these folders of PNG frames, cropped together")
    p.add_argument("--shared-crops", dest="separate_crops", action="store_false",
                   help="crop every folder's frame in one box around all their smoke "
                        "(the old measure), not each around its own")
    p.add_argument("--inside", action="store_true",
                   help="measure only the rectangle inside the smoke, its silhouette's edge "
                        "left out (narrow: a crop under ~100 px puts its window's own power "
                        "into the detail band)")
    p.add_argument("--threshold", type=float, default=4.0,
                   help="|luminance - row median| that counts as smoke, in 8-bit levels (default 4)")
    p.add_argument("--min-pixels", type=int, default=2,
                   help="smoke pixels a row or column needs to count in the crop (default 2)")
    p.add_argument("--margin", type=int, default=8, help="pixels around the smoke's box (default 8)")
    a = p.parse_args()
    a.frame_range = parse_range(a.frames)

    if a.frames_only:
        results = measure(a.frames_only, a)
        print_table([{"label": d, "png": d} for d in a.frames_only], results)
        return

    a.plume = os.path.abspath(a.plume)
    a.scene = os.path.abspath(a.scene)
    os.makedirs(a.work, exist_ok=True)
    load0 = os.getloadavg()
    started = time.monotonic()
    bakes = [bake_plume(a, res) for res in a.res]
    bakes += [bake_plume(a, res, a.upres_factor) for res in a.upres_res]
    bakes += [bake_mantaflow(a, res, 0) for res in a.manta_res]
    bakes += [bake_mantaflow(a, res, 2) for res in a.manta_noise_res]
    for bake in bakes:
        render(a, bake)
    results = measure([b["png"] for b in bakes], a)
    load1 = os.getloadavg()
    print(f"plume: {a.plume}; {os.cpu_count()} CPUs; load average {load0[0]:.2f} before, "
          f"{load1[0]:.2f} after; {time.monotonic() - started:.0f} s in all.\n")
    print(f"scenes/bench.toml, 48 frames baked; frames {a.frames} rendered by plume render-vdb "
          f"--scene {os.path.relpath(a.scene, REPO)}, "
          f"{'each frame number cropped together' if not a.separate_crops else 'each frame in its own crop'}"
          f"{', inside the smoke' if a.inside else ''}:\n")
    print_table(bakes, results)
    print("\nRenders:")
    for b in bakes:
        print("  " + " ".join(b["render_cmd"]))
    print(f"\nMeasure them again: {sys.argv[0]} --frames-only " + " ".join(b["png"] for b in bakes))


if __name__ == "__main__":
    main()
