# What the Cycles reference scripts share (cycles_reference.py for smoke,
# cycles_fire.py for fire): plume's resolved scene read back, its camera, suns
# and sky built in Cycles, Cycles set up to converge alike, and the frames
# read and written. Imported by those scripts from their own folder.
import math
import os
import sys
import time
import tomllib  # Python 3.11, as Debian's Blender 3.4 has

import bpy
from mathutils import Matrix, Vector


def say(msg):
    print(f"plume-test: {msg}", flush=True)


def die(msg):
    say(f"FAIL {msg}")
    sys.stderr.write(f"plume-test: FAIL {msg}\n")
    sys.exit(1)


def read_resolved(path):
    """`plume check` output: the scene as a dict, and its dx (from the '# grid' comment)."""
    with open(path, "rb") as f:
        resolved = tomllib.load(f)
    with open(path) as f:
        dx = next(float(line.split("dx = ")[1].split()[0]) for line in f if line.startswith("# grid "))
    return resolved, dx


def load_volume(scene, vdb_file, dx, shift_voxels):
    """The VDB as a Volume object, shifted onto plume's voxel centres: Blender
    places voxel (i,j,k) half a voxel further along +x,+y,+z than OpenVDB's
    cell-centre convention that plume writes (README.md). The shift is in the
    density grid's own voxels: an upres'd cache holds its scalars at a finer
    voxel than the scene's dx."""
    vol = bpy.data.volumes.new("Smoke")
    vol.filepath = vdb_file
    obj = bpy.data.objects.new("Smoke", vol)
    scene.collection.objects.link(obj)
    vol.grids.load()
    if not vol.grids.is_loaded or "density" not in [g.name for g in vol.grids]:
        die(f"{vdb_file}: no density grid ({vol.grids.error_message})")
    voxel = vol.grids["density"].matrix_object.col[0].length
    if abs(voxel - dx) > 1e-6:
        say(f"density voxel {voxel:.6g} m (the scene's dx is {dx} m)")
    obj.location = Vector((shift_voxels * voxel,) * 3)
    return vol


def add_lights_and_sky(scene, resolved):
    """A sun per directional light (irradiance, as plume's intensity), the sky
    (render.ambient) as a constant world of strength 1, or plume's
    [environment] as an Environment Texture world."""
    for n, light in enumerate(resolved.get("light", [])):
        if light["type"] != "directional":
            die(f"light {n + 1} is {light['type']}; only directional lights are mapped")
        data = bpy.data.lights.new(f"Light{n + 1}", "SUN")
        data.energy = light["intensity"]
        data.color = light["color"]
        data.angle = math.radians(0.5)
        sun = bpy.data.objects.new(f"Light{n + 1}", data)
        scene.collection.objects.link(sun)
        sun.rotation_euler = Vector(light["direction"]).to_track_quat("-Z", "Y").to_euler()  # a sun shines along -Z
    world = bpy.data.worlds.new("Sky")
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    env = resolved.get("environment", {})
    if env.get("file"):
        # plume's [environment]: an Environment Texture turned by a Mapping
        # node about Z, at the Background's strength.
        nodes, links = world.node_tree.nodes, world.node_tree.links
        texture = nodes.new("ShaderNodeTexEnvironment")
        texture.image = bpy.data.images.load(env["file"])
        texture.interpolation = "Linear"
        mapping = nodes.new("ShaderNodeMapping")
        mapping.inputs["Rotation"].default_value = (0.0, 0.0, math.radians(env.get("rotation", 0.0)))
        coords = nodes.new("ShaderNodeTexCoord")
        links.new(coords.outputs["Generated"], mapping.inputs["Vector"])
        links.new(mapping.outputs["Vector"], texture.inputs["Vector"])
        links.new(texture.outputs["Color"], bg.inputs["Color"])
        bg.inputs["Strength"].default_value = env.get("intensity", 1.0)
        say(f"world: {env['file']} rotated {env.get('rotation', 0.0)} degrees, "
            f"strength {env.get('intensity', 1.0)}")
    else:
        bg.inputs["Color"].default_value = (*resolved["render"]["ambient"], 1.0)
        bg.inputs["Strength"].default_value = 1.0
    scene.world = world


def add_camera(scene, cam_cfg, fov_scale=1.0):
    """plume's pinhole: vertical fov, looking from position to look_at."""
    position, look_at, up = (Vector(cam_cfg[k]) for k in ("position", "look_at", "up"))
    forward = (look_at - position).normalized()
    right = forward.cross(up).normalized()
    cam_up = right.cross(forward)
    cam_data = bpy.data.cameras.new("Camera")
    cam_data.sensor_fit = "VERTICAL"
    cam_data.lens = 0.5 * cam_data.sensor_height / math.tan(0.5 * math.radians(cam_cfg["fov"] * fov_scale))
    cam = bpy.data.objects.new("Camera", cam_data)
    scene.collection.objects.link(cam)
    cam.matrix_world = Matrix((
        (right.x, cam_up.x, -forward.x, position.x),
        (right.y, cam_up.y, -forward.y, position.y),
        (right.z, cam_up.z, -forward.z, position.z),
        (0.0, 0.0, 0.0, 1.0)))
    scene.camera = cam
    return position, look_at


def set_up_cycles(scene, samples, width, height, filepath, seed=1, bounces=32):
    """Converged enough, point-sampled pixels (plume: one ray at each pixel's
    centre), transparent film, linear float EXR."""
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_adaptive_sampling = False
    scene.cycles.use_denoising = False
    scene.cycles.seed = seed
    scene.cycles.max_bounces = bounces
    scene.cycles.volume_bounces = bounces
    scene.cycles.diffuse_bounces = scene.cycles.glossy_bounces = scene.cycles.transmission_bounces = 0
    scene.cycles.sample_clamp_direct = scene.cycles.sample_clamp_indirect = 0.0
    scene.cycles.pixel_filter_type = "BOX"
    scene.cycles.filter_width = 0.01
    scene.render.film_transparent = True
    scene.render.threads_mode = "FIXED"
    scene.render.threads = 2
    scene.render.resolution_x, scene.render.resolution_y = width, height
    scene.render.resolution_percentage = 100
    scene.view_settings.view_transform = "Standard"
    scene.view_settings.look = "None"
    scene.view_settings.exposure = 0.0
    scene.view_settings.gamma = 1.0
    scene.render.image_settings.file_format = "OPEN_EXR"
    scene.render.image_settings.color_mode = "RGBA"
    scene.render.image_settings.color_depth = "32"
    scene.render.filepath = filepath


def render_or_reference(scene, samples, width, height, out_dir, reference=None, seed=1, bounces=32):
    """Cycles set up (set_up_cycles) and rendered to OUT_DIR/cycles.exr, or
    the EXR `reference` rendered before; the path of the frame to compare."""
    cycles_exr = os.path.join(out_dir, "cycles.exr")
    set_up_cycles(scene, samples, width, height, cycles_exr, seed, bounces)
    if reference:
        say(f"comparing with {os.path.abspath(reference)}, rendered before")
        return os.path.abspath(reference)
    t = time.monotonic()
    bpy.ops.render.render(write_still=True)
    say(f"Cycles rendered {cycles_exr} ({samples} samples, {width}x{height}, 2 threads) "
        f"in {time.monotonic() - t:.1f} s")
    return cycles_exr


def load_rgba(path, width, height):
    """An EXR's premultiplied linear RGBA as stored, bottom row first."""
    img = bpy.data.images.load(path)
    img.colorspace_settings.name = "Non-Color"
    img.alpha_mode = "PREMUL"
    w, h = img.size
    px = list(img.pixels)
    bpy.data.images.remove(img)
    if (w, h) != (width, height):
        die(f"{path} is {w}x{h}, expected {width}x{height}")
    return px


def box3(v, width, height):
    """Mean over each pixel's 3x3 neighbourhood (clipped at the frame's border)."""
    rows = []
    for y in range(height):
        r = v[y * width:(y + 1) * width]
        rows.append([sum(r[max(0, x - 1):x + 2]) / len(r[max(0, x - 1):x + 2]) for x in range(width)])
    out = [0.0] * (width * height)
    for y in range(height):
        near = rows[max(0, y - 1):y + 2]
        for x in range(width):
            out[y * width + x] = sum(r[x] for r in near) / len(near)
    return out


def srgb(v):
    v = min(max(v, 0.0), 1.0)
    return 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def save_png(path, w, h, pixels):
    img = bpy.data.images.new(os.path.basename(path), w, h, alpha=False)
    img.pixels = pixels
    img.filepath_raw = path
    img.file_format = "PNG"
    img.save()
    bpy.data.images.remove(img)
    say(f"wrote {path}")


def side_by_side(path, width, height, left, right, backdrop=0.02, exposure=1.0):
    """left | right, sRGB over a dark grey backdrop, a white gap between."""
    gap = 4
    sbs_w = 2 * width + gap
    sbs = [1.0] * (4 * sbs_w * height)
    for y in range(height):
        for x in range(width):
            i = y * width + x
            for px, x_off in ((left, 0), (right, width + gap)):
                o = 4 * (y * sbs_w + x + x_off)
                a = px[4 * i + 3]
                for c in range(3):
                    sbs[o + c] = srgb(exposure * px[4 * i + c] + backdrop * (1.0 - a))
    save_png(path, sbs_w, height, sbs)
