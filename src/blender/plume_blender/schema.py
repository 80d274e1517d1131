"""plume's scene schema, as the built plume printed it (`plume check --reference
--reference-format json`, run by CMake into the zip): every key's type, default,
range, choices and meaning. The add-on's properties are made from it, so their
defaults and ranges are plume's own and never copied by hand."""
import json
import os

SCHEMA_FILE = os.path.join(os.path.dirname(__file__), "plume_schema.json")

# Keys the add-on takes from Blender rather than showing as properties: the
# domain's box, the scene's frames and fps, shapes and their placement, the
# frame size, the background and sky light (the World, export.world_look).
# (section, key)
FROM_BLENDER = {
    ("domain", "origin"), ("domain", "size"), ("domain", "boundary"), ("domain", "boundary.all"),
    ("time", "fps"), ("time", "frames"), ("time", "start_frame"),
    ("render", "width"), ("render", "height"), ("render", "background"),
    ("render", "background_top"), ("render", "background_bottom"), ("render", "ambient"),
    ("output", "fps"),
}
SHAPE_KEYS = {"shape", "center", "radius", "size", "file", "rotation", "scale", "interpolation"}

# The sections each role shows, in order.
DOMAIN_SECTIONS = ("domain", "time", "physics", "solver", "upres", "shaping", "sparks", "render",
                   "output")
ROLE_SECTIONS = {"DOMAIN": DOMAIN_SECTIONS, "EMITTER": ("emitter",), "COLLIDER": ("obstacle",)}


class Key:
    """One scene key as the schema gives it."""

    def __init__(self, d):
        self.section = d["section"]
        self.key = d["key"]
        self.type = d["type"]
        self.default = d["default"]
        self.min, self.max = d["min"], d["max"]
        self.min_open, self.max_open = d["min_open"], d["max_open"]
        self.choices = d["choices"]
        self.animatable = d["animatable"]
        self.alias = d["alias"]
        self.doc = d["doc"]

    @property
    def dotted(self):
        return f"{self.section}.{self.key}"

    @property
    def prop(self):
        """The Blender property's name: the dotted key with '_' for '.', the
        domain's keys without their section (obj.plume.resolution)."""
        name = self.key if self.section == "domain" else f"{self.section}_{self.key}"
        return name.replace(".", "_")


class Schema:
    def __init__(self, data):
        self.sections = {s["name"]: s for s in data["sections"]}
        self.keys = [Key(k) for k in data["keys"]]
        self.by_dotted = {k.dotted: k for k in self.keys}
        # The numbers behind the fire keys (the fire material's), plume's own.
        self.constants = {n: c["value"] for n, c in data.get("constants", {}).items()}

    def shown(self, section):
        """The keys of a section the panel shows (and export writes)."""
        for k in self.keys:
            if k.section != section or k.alias or (k.section, k.key) in FROM_BLENDER:
                continue
            if k.section in ("emitter", "obstacle") and k.key in SHAPE_KEYS:
                continue
            # Scale is the shapes' (taken from Blender); a choice list
            # (render.passes) is for EXR frames, which the add-on does not write.
            if k.type in ("scale", "choice_list"):
                continue
            yield k

    def default(self, dotted):
        return self.by_dotted[dotted].default

    def constant(self, name):
        if name not in self.constants:
            raise RuntimeError(f"plume add-on: {SCHEMA_FILE} has no constant '{name}': "
                               "rebuild the zip with this plume (target blender_addon)")
        return self.constants[name]


_schema = None


def load():
    global _schema
    if _schema is None:
        try:
            with open(SCHEMA_FILE, encoding="utf-8") as f:
                _schema = Schema(json.load(f))
        except OSError as e:
            raise RuntimeError(f"plume add-on: cannot read {SCHEMA_FILE} ({e.strerror}): "
                               "install the zip CMake builds (target blender_addon)") from e
    return _schema
