# Measures plume's look against a path tracer: Cycles renders the same VDB
# frame with the same medium, lights, sky and camera as plume's ray-marcher
# (render/march/ray_marcher.h, render/light/in_scattering.h), and the two linear
# premultiplied frames are compared in luminance over the smoke.
#
# Usage: blender -b --factory-startup --python-exit-code 1 --python cycles_reference.py -- \
#            VDB_FILE PLUME_EXR RESOLVED_TOML OUT_DIR [samples=N] [shift=S] [fov_scale=F] [reference=EXR]
#            [interpolation=CUBIC|LINEAR|CLOSEST] [seed=N] [bounces=N]
#
# RESOLVED_TOML is `plume check SCENE` with the same --set as plume's render
# (camera, lights, render.*). Optional: samples (Cycles samples, default 100);
# shift (voxels added to the volume object's position on every axis, default
# -0.5: Blender places voxel (i,j,k) half a voxel further along +x,+y,+z than
# OpenVDB's cell-centre convention that plume writes; see README.md);
# fov_scale (multiplies the Cycles camera's fov, 1; only to see the test fail);
# reference (a Cycles EXR of this scene rendered before, e.g. with more
# samples, compared instead of rendering one); interpolation (the volume
# material's, default CUBIC as plume's render.filter=cubic; LINEAR goes through
# every voxel's value, as render.filter=sharp and linear do: tests/blender/README.md);
# seed (Cycles' seed, 1; another gives its own noise floor against a frame
# of seed 1); bounces (Cycles' volume and total bounce limit, 32).
#
# Writes OUT_DIR/cycles.exr (Cycles, linear premultiplied RGBA),
# OUT_DIR/error.png (signed relative luminance error: red where plume is
# brighter, blue where darker, grey where only one has smoke) and
# OUT_DIR/side_by_side.png (plume | Cycles, sRGB over dark grey, exposure 1),
# prints a table of luminance errors by region, and exits 1 when the mean
# error overall or in a region exceeds its limit below, or the coverage
# differs (alpha masks' IoU, alpha centroids' distance).
import math
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cycles_common import (add_camera, add_lights_and_sky, box3, die, load_rgba,  # noqa: E402
                           load_volume, read_resolved, render_or_reference, save_png, say,
                           side_by_side, srgb)

# Regression limits, measured 2026-11-23 (scenes/plume.toml, 64 cells, frame
# 72, 320x180, Cycles 100 samples): mean |L_plume - L_cycles| / L_cycles over
# smoke pixels 21.2% (20.1% against 400 samples: about a point is Cycles'
# noise); the limit is that plus 2 percentage points. Tighten it as the
# renderer is tuned toward the reference: the goal is a mean of at most 8%,
# and no region worse than 10%.
# Measured 20.9% with both renderers reading density through a cubic B-spline
# (the default scene with its ball moved off the plume's axis); 11.3% with the
# lighting tuned toward Cycles (octave energy 0.5, octave phase 0.8, sky depth
# scale 0.02; 9.3% against 400 samples).
# Measured 9.4% with the sky from all six axis directions through the true
# optical depth (the sky's light from the smoke's openness, no fitted
# constant) and the sun's octaves weighted by how enclosed in smoke a sample
# is (render/light/in_scattering.h); 7.3% against 800 samples (the sky's and the
# suns' 400-sample frames added). By light: the sky alone 32.6% -> 7.5%, the
# suns alone 27.3% -> 12.7% (400 samples each): the old 11.3% was the sky's
# excess hiding the suns' missing multiple scattering.
# Measured 9.6% with the light the smoke around a sample sends back
# (render/light/in_scattering.h: kSkyReturn 0.98, kLightReturn 0.3): each light
# right on average (sky alone +4.1% -> -0.1%, suns alone -4.7% -> +0.9%),
# the stem 10.2% -> 9.6%; 6.9% against one 800-sample frame (edges 9.8%,
# stem 7.6%, lit 6.1%, shadowed 6.0%; 6.9% before). Per pixel, Cycles'
# own noise at 100 samples is 6.7% (edges 12.6%) of a 1600-sample frame, so
# these limits are regression guards; the 3x3 ones below hold the goal.
MAX_MEAN_ABS_REL = 0.116
# Per region, measured + 2 points the same way.
MAX_REGION_MEAN_ABS_REL = {"edges": 0.178, "stem": 0.116, "lit": 0.098, "shadowed": 0.103}
# In 3x3 neighbourhoods (below), measured 6.3% (edges 7.9%, stem 7.4%, lit
# 5.8%, shadowed 5.5%); 5.9% against 800 samples. The limit overall is the
# goal, 8% (measured + 1.7 points); each region measured + 2 points, all
# within the goal's 10%.
MAX_MEAN_ABS_REL_3X3 = 0.080
MAX_REGION_MEAN_ABS_REL_3X3 = {"edges": 0.099, "stem": 0.094, "lit": 0.078, "shadowed": 0.075}
# Coverage: intersection over union of the alpha > SMOKE_ALPHA masks (0.974
# measured), and the distance between the two frames' alpha centroids (0.38
# px measured with cubic density, 0.06 with linear; a half-voxel misplacement
# moves it by 1.2 px and drops the IoU only to 0.92). A misplaced volume or a
# wrong camera fails one of them.
MIN_ALPHA_IOU = 0.95
MAX_CENTROID_OFFSET_PX = 0.6
SMOKE_ALPHA = 0.05  # a pixel is smoke when both alphas exceed this
EDGE_ALPHA = 0.5    # smoke pixels with Cycles alpha below this are "edges"
MIN_LUMA = 1e-4     # relative errors only where Cycles' luminance exceeds this

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
options = dict(a.split("=", 1) for a in args[4:] if "=" in a)
if len(args) < 4 or len(options) != len(args) - 4:
    sys.exit("usage: ... cycles_reference.py -- VDB_FILE PLUME_EXR RESOLVED_TOML OUT_DIR "
             "[samples=N] [shift=S] [fov_scale=F] [reference=EXR] [interpolation=I]")
vdb_file, plume_exr, resolved_toml, out_dir = (os.path.abspath(a) for a in args[:4])
samples = int(options.pop("samples", 100))
reference = options.pop("reference", None)
shift_voxels = float(options.pop("shift", -0.5))
fov_scale = float(options.pop("fov_scale", 1.0))
interpolation = options.pop("interpolation", None)
seed = int(options.pop("seed", 1))  # another seed: Cycles' own noise, one frame against another
bounces = int(options.pop("bounces", 32))
if options:
    sys.exit(f"unknown options: {sorted(options)}")
os.makedirs(out_dir, exist_ok=True)

resolved, dx = read_resolved(resolved_toml)
cam_cfg, render_cfg = resolved["camera"], resolved["render"]
width, height = render_cfg["width"], render_cfg["height"]
sigma_t = render_cfg["extinction"]  # per metre per unit density
albedo = render_cfg["albedo"]
say(f"medium: extinction {sigma_t}/m, albedo {albedo}, phase g {render_cfg['phase']}; "
    f"ambient {render_cfg['ambient']}; dx {dx} m; {width}x{height}")

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
vol = load_volume(scene, vdb_file, dx, shift_voxels)

# --- Medium: scattering albedo*sigma_t*density (HG g), absorption the rest ----
mat = bpy.data.materials.new("PlumeMedium")
mat.use_nodes = True
mat.cycles.volume_interpolation = interpolation or "CUBIC"  # plume reads density through a cubic B-spline (render.filter = cubic, forced by run_test.sh)
nt = mat.node_tree
nt.nodes.clear()
attr = nt.nodes.new("ShaderNodeAttribute")
attr.attribute_name = "density"


def scaled(factor):
    m = nt.nodes.new("ShaderNodeMath")
    m.operation = "MULTIPLY"
    m.inputs[1].default_value = factor
    nt.links.new(attr.outputs["Fac"], m.inputs[0])
    return m.outputs[0]


scatter = nt.nodes.new("ShaderNodeVolumeScatter")
scatter.inputs["Color"].default_value = (1.0, 1.0, 1.0, 1.0)
scatter.inputs["Anisotropy"].default_value = render_cfg["phase"]
nt.links.new(scaled(albedo * sigma_t), scatter.inputs["Density"])
absorb = nt.nodes.new("ShaderNodeVolumeAbsorption")
absorb.inputs["Color"].default_value = (0.0, 0.0, 0.0, 1.0)  # absorbs (1 - colour) * density
nt.links.new(scaled((1.0 - albedo) * sigma_t), absorb.inputs["Density"])
add = nt.nodes.new("ShaderNodeAddShader")
nt.links.new(scatter.outputs[0], add.inputs[0])
nt.links.new(absorb.outputs[0], add.inputs[1])
out = nt.nodes.new("ShaderNodeOutputMaterial")
nt.links.new(add.outputs[0], out.inputs["Volume"])
vol.materials.append(mat)

# --- Lights, sky and camera as plume's ---------------------------------------
add_lights_and_sky(scene, resolved)
position, look_at = add_camera(scene, cam_cfg, fov_scale)

# --- Cycles: converged enough, point-sampled pixels (plume: one ray at each
# pixel's centre), transparent film, linear float EXR -------------------------
cycles_exr = render_or_reference(scene, samples, width, height, out_dir, reference, seed, bounces)


# --- Both frames as premultiplied linear RGBA, bottom row first ---------------
plume_px, cycles_px = load_rgba(plume_exr, width, height), load_rgba(cycles_exr, width, height)
n_px = width * height


def luma(px, i):
    return 0.2126 * px[4 * i] + 0.7152 * px[4 * i + 1] + 0.0722 * px[4 * i + 2]


lp = [luma(plume_px, i) for i in range(n_px)]
lc = [luma(cycles_px, i) for i in range(n_px)]
ap = [plume_px[4 * i + 3] for i in range(n_px)]
ac = [cycles_px[4 * i + 3] for i in range(n_px)]

# --- Coverage ----------------------------------------------------------------
in_p = [a > SMOKE_ALPHA for a in ap]
in_c = [a > SMOKE_ALPHA for a in ac]
both = sum(1 for i in range(n_px) if in_p[i] and in_c[i])
either = sum(1 for i in range(n_px) if in_p[i] or in_c[i])
iou = both / max(1, either)
alpha_diff = sum(abs(ap[i] - ac[i]) for i in range(n_px) if in_p[i] or in_c[i]) / max(1, either)


def centroid(alpha):
    total = max(1e-12, sum(alpha))
    return (sum(a * (i % width) for i, a in enumerate(alpha)) / total,
            sum(a * (i // width) for i, a in enumerate(alpha)) / total)


(cpx, cpy), (ccx, ccy) = centroid(ap), centroid(ac)

# --- Regions of the smoke ------------------------------------------------------
# edges: Cycles alpha < EDGE_ALPHA. Of the rest: stem, the lower third of the
# smoke's screen box in its middle third across; lit and shadowed, the other
# pixels above and below their median Cycles luminance.
smoke = [i for i in range(n_px) if in_p[i] and in_c[i] and lc[i] > MIN_LUMA]
if not smoke:
    die("no pixel has smoke in both frames")
xs = [i % width for i in range(n_px) if in_c[i]]
ys = [i // width for i in range(n_px) if in_c[i]]
x0, x1, y0, y1 = min(xs), max(xs) + 1, min(ys), max(ys) + 1  # y up (bottom row first)
regions = {"edges": [], "stem": [], "lit": [], "shadowed": []}
body = []
for i in smoke:
    x, y = i % width, i // width
    if ac[i] < EDGE_ALPHA:
        regions["edges"].append(i)
    elif y < y0 + (y1 - y0) / 3 and x0 + (x1 - x0) / 3 <= x < x0 + 2 * (x1 - x0) / 3:
        regions["stem"].append(i)
    else:
        body.append(i)
median = sorted(lc[i] for i in body)[len(body) // 2] if body else 0.0
for i in body:
    regions["lit" if lc[i] >= median else "shadowed"].append(i)


def stats(pixels, lp, lc):
    rel = [(lp[i] - lc[i]) / lc[i] for i in pixels]
    n = max(1, len(rel))
    return (sum(abs(r) for r in rel) / n, sum(rel) / n,
            sum(lp[i] for i in pixels) / max(1e-12, sum(lc[i] for i in pixels)), len(rel))


def error_table(lp, lc):
    return [("all smoke", stats(smoke, lp, lc))] + [(name, stats(px, lp, lc)) for name, px in regions.items()]


# Per pixel, and in 3x3 neighbourhoods (both frames' luminance averaged over
# each pixel's neighbours, the same pixels and regions): Cycles' own noise at
# CI's samples is per pixel (6.7% of it against 1600 samples, edges 12.6%),
# plume's error spreads over a voxel (2.4 px) or more, so the neighbourhood
# table measures plume's error with a ninth of Cycles' noise variance (2.2%,
# edges 3.8%).
table = error_table(lp, lc)
table3 = error_table(box3(lp, width, height), box3(lc, width, height))
say(f"smoke screen box x {x0}..{x1}, y {y0}..{y1} (from the bottom); body median Cycles luminance {median:.4f}")
for title, t in (("per pixel", table), ("3x3 neighbourhoods", table3)):
    say(f"{title}:")
    say(f"{'region':<10} {'pixels':>7} {'mean |rel|':>11} {'mean rel':>9} {'sum Lp/Lc':>10}")
    for name, (mean_abs, mean_signed, ratio, count) in t:
        say(f"{name:<10} {count:>7} {100 * mean_abs:>10.1f}% {100 * mean_signed:>+8.1f}% {ratio:>10.3f}")
say("colour: sum over smoke pixels plume / Cycles, R G B " + " ".join(
    f"{sum(plume_px[4 * i + c] for i in smoke) / max(1e-12, sum(cycles_px[4 * i + c] for i in smoke)):.3f}"
    for c in range(3)))
say(f"coverage: IoU of alpha > {SMOKE_ALPHA} masks {iou:.3f} ({both} both / {either} either); "
    f"mean |alpha_plume - alpha_cycles| there {alpha_diff:.3f}")
say(f"alpha centroid (pixels from the bottom left): plume ({cpx:.2f}, {cpy:.2f}), Cycles ({ccx:.2f}, {ccy:.2f}); "
    f"plume - Cycles ({cpx - ccx:+.2f}, {cpy - ccy:+.2f}) px, a voxel is about "
    f"{dx * height / (2 * (look_at - position).length * math.tan(0.5 * math.radians(cam_cfg['fov']))):.2f} px")


# --- Pictures ------------------------------------------------------------------
err = [0.0] * (4 * n_px)
in_smoke = set(smoke)
for i in range(n_px):
    if i in in_smoke:
        r = max(-1.0, min(1.0, 2.0 * (lp[i] - lc[i]) / lc[i]))  # full colour at +-50%
        err[4 * i:4 * i + 4] = [srgb(max(r, 0.0)), 0.0, srgb(max(-r, 0.0)), 1.0]
    elif in_p[i] or in_c[i]:
        err[4 * i:4 * i + 4] = [0.25, 0.25, 0.25, 1.0]
    else:
        err[4 * i + 3] = 1.0
side_by_side(os.path.join(out_dir, "side_by_side.png"), width, height, plume_px, cycles_px)
save_png(os.path.join(out_dir, "error.png"), width, height, err)

# --- Regression guard ----------------------------------------------------------
failures = 0
for title, t, max_all, max_region in (("per pixel", table, MAX_MEAN_ABS_REL, MAX_REGION_MEAN_ABS_REL),
                                      ("3x3", table3, MAX_MEAN_ABS_REL_3X3, MAX_REGION_MEAN_ABS_REL_3X3)):
    mean_abs = t[0][1][0]
    if mean_abs > max_all:
        say(f"FAIL {title}: mean |L_plume - L_cycles| / L_cycles {100 * mean_abs:.1f}% exceeds {100 * max_all:.1f}%")
        failures += 1
    for name, (region_abs, _, _, _) in t[1:]:
        if region_abs > max_region[name]:
            say(f"FAIL {title} {name}: mean |rel| {100 * region_abs:.1f}% exceeds {100 * max_region[name]:.1f}%")
            failures += 1
mean_abs = table[0][1][0]
if iou < MIN_ALPHA_IOU:
    say(f"FAIL coverage IoU {iou:.3f} below {MIN_ALPHA_IOU} (misplaced volume or camera?)")
    failures += 1
offset = math.hypot(cpx - ccx, cpy - ccy)
if offset > MAX_CENTROID_OFFSET_PX:
    say(f"FAIL alpha centroids {offset:.2f} px apart, more than {MAX_CENTROID_OFFSET_PX} px (misplaced volume?)")
    failures += 1
if failures:
    die(f"{failures} check(s) failed")
say(f"PASS plume within {100 * mean_abs:.1f}% per pixel (limit {100 * MAX_MEAN_ABS_REL:.1f}%), "
    f"{100 * table3[0][1][0]:.1f}% in 3x3 neighbourhoods (limit {100 * MAX_MEAN_ABS_REL_3X3:.1f}%) of Cycles; coverage IoU {iou:.3f}, "
    f"centroids {offset:.2f} px apart")
