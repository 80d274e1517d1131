"""Where the plume panel shows each scene key, and the key's label in words
with its unit: the one place the add-on names keys for people. The meaning of
each key (the tooltip) is the schema's doc; the schema has no short label.

The domain's sub-panels follow Blender's own Fluid panels (Settings, Gas,
Fire, Detail, Cache); plume's renderer, which a bake does not use, has its
own collapsed sub-panel with its debugging views inside it."""


class Sub:
    """One sub-panel of the domain: its title, its parent (None: the plume
    panel), open or closed by default, and the dotted keys it shows."""

    def __init__(self, ident, title, keys, parent=None, closed=False):
        self.ident, self.title, self.keys = ident, title, keys
        self.parent, self.closed = parent, closed


# As Blender's Fluid domain: Settings (Border Collisions inside), Gas (Fire and
# Noise inside, closed), Cache (Advanced inside, closed). The look keys the
# imported volume's material reads too (extinction, albedo, anisotropy;
# emission, fire temperature) close Gas and Fire.
DOMAIN_PANELS = (
    Sub("settings", "Settings",
        ["domain.resolution", "time.cfl", "time.max_substeps", "physics.time_scale",
         "physics.interpolation", "physics.gravity", "physics.wind", "domain.inflow_velocity"]),
    Sub("boundaries", "Boundaries",
        ["domain.boundary.x_min", "domain.boundary.x_max", "domain.boundary.y_min",
         "domain.boundary.y_max", "domain.boundary.z_min", "domain.boundary.z_max"],
        parent="settings", closed=True),
    Sub("solver", "Solver",
        ["solver.pressure", "solver.tolerance", "solver.max_iterations", "solver.advection",
         "solver.sparse"],
        parent="settings", closed=True),
    Sub("gas", "Gas",
        ["physics.buoyancy_density", "physics.buoyancy_heat", "physics.ambient_temperature",
         "physics.vorticity", "physics.viscosity", "physics.diffusion",
         "physics.density_dissipation", "physics.temperature_dissipation", "physics.turbulence",
         "physics.turbulence_scale", "render.extinction", "render.albedo", "render.phase"]),
    Sub("fire", "Fire",
        ["physics.ignition_temperature", "physics.burn_rate", "physics.flame_heat",
         "physics.flame_smoke", "physics.flame_smoke_color", "physics.flame_expansion",
         "physics.flame_cooling", "physics.flame_vorticity", "physics.flame_disturbance",
         "physics.flame_disturbance_scale", "physics.flame_shredding", "render.emission",
         "render.fire_temperature"],
        parent="gas", closed=True),
    Sub("sparks", "Sparks",
        ["sparks.rate", "sparks.flame_threshold", "sparks.lifetime", "sparks.size", "sparks.drag",
         "sparks.buoyancy", "sparks.cooling", "sparks.temperature", "sparks.bounce"],
        parent="fire", closed=True),
    Sub("detail", "Detail",
        ["upres.factor", "upres.strength", "upres.scale", "upres.speed"],
        parent="gas", closed=True),
    Sub("shaping", "Shaping",
        ["shaping.disturbance", "shaping.disturbance_block", "shaping.disturbance_octaves",
         "shaping.disturbance_cutoff", "shaping.disturbance_rotational", "shaping.shredding"],
        parent="gas", closed=True),
    Sub("cache", "Cache", []),
    Sub("cache_advanced", "Advanced",
        ["output.vdb_precision", "output.velocity_name", "output.nvdb_codec",
         "output.nvdb_tolerance"],
        parent="cache", closed=True),
    Sub("renderer", "plume Renderer",
        ["render.exposure", "render.fire_light", "render.heat_glow", "render.motion_blur",
         "render.transparent", "render.step", "render.filter", "render.adaptive", "output.crf",
         "output.preset", "output.codec", "output.color_space"],
        closed=True),
    Sub("light", "Light",
        ["render.integrator", "render.samples", "render.multiple_scattering",
         "render.light_cache_resolution"],
        parent="renderer", closed=True),
    Sub("views", "Debug Views",
        ["render.view", "render.slice", "render.view_range", "render.view_velocity", "render.grid"],
        parent="renderer", closed=True),
)

LABELS = {
    # Settings
    "domain.resolution": "Resolution Divisions",
    "time.cfl": "CFL Number",
    "time.max_substeps": "Max Substeps",
    "physics.time_scale": "Time Scale",
    "physics.interpolation": "Time Scale Keys",
    "physics.gravity": "Gravity (m/s²)",
    "physics.wind": "Wind (m/s)",
    "domain.inflow_velocity": "Inflow Velocity (m/s)",
    "domain.boundary.x_min": "X Min Side",
    "domain.boundary.x_max": "X Max Side",
    "domain.boundary.y_min": "Y Min Side",
    "domain.boundary.y_max": "Y Max Side",
    "domain.boundary.z_min": "Floor (Z Min)",
    "domain.boundary.z_max": "Ceiling (Z Max)",
    "solver.pressure": "Pressure Solver",
    "solver.tolerance": "Pressure Tolerance",
    "solver.max_iterations": "Max Pressure Iterations",
    "solver.advection": "Advection",
    "solver.sparse": "Sparse Grid",
    # Gas
    "physics.buoyancy_density": "Buoyancy Density (× g)",
    "physics.buoyancy_heat": "Buoyancy Heat (× g)",
    "physics.ambient_temperature": "Ambient Temperature",
    "physics.vorticity": "Vorticity",
    "physics.viscosity": "Viscosity (m²/s)",
    "physics.diffusion": "Diffusion (m²/s)",
    "physics.density_dissipation": "Density Dissipation (1/s)",
    "physics.temperature_dissipation": "Heat Dissipation (1/s)",
    "physics.turbulence": "Turbulence (m/s²)",
    "physics.turbulence_scale": "Turbulence Scale (m)",
    "render.extinction": "Extinction (1/m)",
    "render.albedo": "Albedo",
    "render.phase": "Anisotropy",
    # Fire
    "physics.ignition_temperature": "Ignition Temperature",
    "physics.burn_rate": "Burn Rate (1/s)",
    "physics.flame_heat": "Heat per Fuel Burnt",
    "physics.flame_smoke": "Smoke per Fuel Burnt",
    "physics.flame_smoke_color": "Flame Smoke Color",
    "physics.flame_expansion": "Expansion (1/s per fuel)",
    "physics.flame_cooling": "Flame Cooling (1/s)",
    "physics.flame_vorticity": "Flame Vorticity",
    "physics.flame_disturbance": "Disturbance (m/s²)",
    "physics.flame_disturbance_scale": "Disturbance Scale (m)",
    "physics.flame_shredding": "Shredding (1/s)",
    "render.emission": "Emission Strength",
    "render.fire_temperature": "Fire Temperature (K per unit)",
    # Sparks
    "sparks.rate": "Rate (per m³ of flame per s)",
    "sparks.flame_threshold": "Flame Threshold",
    "sparks.lifetime": "Lifetime (s)",
    "sparks.size": "Size (m)",
    "sparks.drag": "Drag (1/s)",
    "sparks.buoyancy": "Buoyancy (g per 1000 K)",
    "sparks.cooling": "Cooling (1/s)",
    "sparks.temperature": "Temperature (K)",
    "sparks.bounce": "Bounce",
    # Detail
    "upres.factor": "Upres Factor",
    "upres.strength": "Strength",
    "upres.scale": "Swirl Size (m)",
    "upres.speed": "Renewal Rate (1/s)",
    # Shaping
    "shaping.disturbance": "Disturbance (m/s²)",
    "shaping.disturbance_block": "Block Size (m)",
    "shaping.disturbance_octaves": "Octaves",
    "shaping.disturbance_cutoff": "Density Cutoff",
    "shaping.disturbance_rotational": "Rotational",
    "shaping.shredding": "Shredding (1/s)",
    # Cache
    "output.vdb_precision": "VDB Precision",
    "output.velocity_name": "Velocity Grid Name",
    "output.nvdb_codec": "NanoVDB Codec",
    "output.nvdb_tolerance": "NanoVDB Tolerance",
    # plume's renderer
    "render.exposure": "Exposure",
    "output.color_space": "EXR Colour Space",
    "render.fire_light": "Flame Light",
    "render.heat_glow": "Hot Smoke Glow",
    "render.motion_blur": "Motion Blur Shutter (frames)",
    "render.transparent": "Transparent Background",
    "render.step": "March Step (voxels)",
    "render.filter": "Density Filter",
    "render.adaptive": "Adaptive Sampling",
    "render.integrator": "Integrator",
    "render.samples": "Path Samples",
    "render.multiple_scattering": "Multiple Scattering",
    "render.light_cache_resolution": "Light Cache Resolution",
    "output.crf": "Video Quality (CRF)",
    "output.preset": "Encoder Preset",
    "output.codec": "Video Codec",
    "render.view": "View",
    "render.slice": "Slice Plane",
    "render.view_range": "Colour Bar Top",
    "render.view_velocity": "Streamlines",
    "render.grid": "Grid (render-vdb)",
    # Emitter
    "emitter.mode": "Emit From",
    "emitter.thickness": "Shell Thickness (m)",
    "emitter.density": "Smoke Density",
    "emitter.temperature": "Temperature",
    "emitter.fuel": "Fuel",
    "emitter.velocity": "Velocity (m/s)",
    "emitter.frames": "Frames",
    "emitter.noise": "Noise",
    "emitter.noise_scale": "Noise Scale (m)",
    "emitter.noise_speed": "Noise Drift (1/s)",
    "emitter.inherit_velocity": "Inherit Velocity",
    "emitter.color": "Smoke Color",
    "emitter.sparks": "Sparks (per s)",
    # Collider
    "obstacle.color": "Color",
    "obstacle.visible": "Visible in plume's Render",
}


# Choice values whose capitalized spelling would misname them.
CHOICE_LABELS = {"mgpcg": "Multigrid CG", "pcg": "CG", "sor": "SOR", "maccormack": "MacCormack",
                 "semi-lagrangian": "Semi-Lagrangian", "h264": "H.264", "mpeg4": "MPEG-4",
                 "vel": "vel (Houdini)"}


def choice_label(value):
    return CHOICE_LABELS.get(value, value.replace("-", " ").capitalize())


def label(k):
    """A key's label; a key the map lacks (a new one in the schema) falls back
    to its name, and the add-on test fails on it."""
    if k.dotted in LABELS:
        return LABELS[k.dotted]
    return k.key.split(".")[-1].replace("_", " ").capitalize()


def panel_of(dotted):
    for p in DOMAIN_PANELS:
        if dotted in p.keys:
            return p
    return None
