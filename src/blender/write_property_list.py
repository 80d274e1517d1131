#!/usr/bin/env python3
"""The add-on's bpy properties (obj.plume.*) as a Markdown list: each property,
its panel label, type and default, and the plume scene key it exports to.

Made from the add-on's own definitions, as Blender makes them at register time:
properties.make_settings_class() run on plume's schema (`plume check --reference
--reference-format json`), with a stand-in for bpy that records each property
instead of making it. So the list cannot drift from the add-on; scenes/README.md
holds it between its property-list markers, and tests/system/readme_test.cpp fails when
the two differ.

    python3 src/blender/write_property_list.py --plume build/plume            # print it
    python3 src/blender/write_property_list.py --plume build/plume --update scenes/README.md
"""
import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import types

sys.dont_write_bytecode = True  # no __pycache__ in the add-on's source folder

HERE = os.path.dirname(os.path.abspath(__file__))
BEGIN = "<!-- blender-properties:begin -->"
END = "<!-- blender-properties:end -->"

# The properties properties.py writes by hand (not from a scene key): the role
# whose panel shows each, and what it becomes in the exported scene. A new one
# must be added here (the script stops on it), so the list never leaves one out.
HAND_WRITTEN = {
    "role": ("ALL", "which table the object is written as: `[domain]`, `[[emitter]]` or "
                    "`[[obstacle]]` (`\"NONE\"`: not exported)"),
    "cache_dir": ("DOMAIN", "none: the folder the scene file, its meshes and the cache go in"),
    "emitter_kind": ("EMITTER", "`emitter.shape`: `\"mesh\"` (the evaluated mesh, as `file`) or "
                                "`\"sphere\"` (`center`, `radius`)"),
    "preview_resolution": ("DOMAIN", "none: caps `domain.resolution` in a preview"),
    "live": ("DOMAIN", "none: bakes a preview on every change"),
    "preview_status": ("DOMAIN", "none: what the last preview did (set by the add-on)"),
}
ROLE_TITLES = (("ALL", "Every object"), ("DOMAIN", "Domain"), ("EMITTER", "Emitter"),
               ("COLLIDER", "Collider"))


class Recorded:
    """A bpy property as the add-on asked for it: its kind and its keywords."""

    def __init__(self, kind, kwargs):
        self.kind, self.kwargs = kind, kwargs


def _stand_in_bpy():
    bpy = types.ModuleType("bpy")
    props = types.ModuleType("bpy.props")
    for kind in ("BoolProperty", "EnumProperty", "FloatProperty", "FloatVectorProperty",
                 "IntProperty", "IntVectorProperty", "StringProperty", "PointerProperty"):
        setattr(props, kind, lambda _kind=kind, **kwargs: Recorded(_kind, kwargs))
    bpy.props = props
    bpy.types = types.SimpleNamespace(PropertyGroup=type("PropertyGroup", (), {}))
    return bpy, props


def load_addon(schema_file):
    """properties, schema and panel_keys of the add-on in this folder, bpy stood in."""
    bpy, props = _stand_in_bpy()
    sys.modules["bpy"], sys.modules["bpy.props"] = bpy, props
    package = types.ModuleType("plume_blender")  # not its __init__, which registers with Blender
    package.__path__ = [os.path.join(HERE, "plume_blender")]
    sys.modules["plume_blender"] = package
    # The Live toggle's update calls into preview.py (Blender's timers, plume's runs); only
    # the callback's existence matters here.
    sys.modules["plume_blender.preview"] = types.ModuleType("plume_blender.preview")
    package.preview = sys.modules["plume_blender.preview"]
    schema = importlib.import_module("plume_blender.schema")
    schema.SCHEMA_FILE = schema_file
    return importlib.import_module("plume_blender.properties"), schema


def _code(text):
    return "`" + text.replace("|", "\\|") + "`"


def _value(v):
    if isinstance(v, str):
        return _code(json.dumps(v))
    if isinstance(v, (tuple, list)):
        return _code("(" + ", ".join(repr(x) for x in v) + ")")
    return _code(repr(v))


def _type(p):
    kind = p.kind.replace("Property", "")
    if p.kind == "EnumProperty":
        return "enum: " + ", ".join(_code(json.dumps(item[0])) for item in p.kwargs["items"])
    if p.kind in ("FloatVectorProperty", "IntVectorProperty"):
        kind += f"[{p.kwargs['size']}]"
    return kind


def property_list(schema_file):
    properties, _schema = load_addon(schema_file)
    annotations = properties.make_settings_class().__annotations__
    where = {}  # property name -> (role, scene key)
    for role in ("DOMAIN", "EMITTER", "COLLIDER"):
        for k in properties.shown_keys(role):
            where[k.prop] = (role, f"`{k.dotted}`")
    for name in annotations:
        if name in where:
            continue
        if name not in HAND_WRITTEN:
            sys.exit(f"write_property_list.py: obj.plume.{name} is not a scene key: say in "
                     "HAND_WRITTEN which role shows it and what it exports to")
        where[name] = HAND_WRITTEN[name]
    lines = [
        "Every property the add-on gives an object, as `obj.plume.NAME` in Blender's Python "
        f"({len(annotations)} in all). The label is the one in the plume panel; a property made "
        "from a scene key takes that key's default, range and meaning (the tooltip) from the "
        "schema above, and the export writes it under that key.",
    ]
    for role, title in ROLE_TITLES:
        names = [n for n in annotations if where[n][0] == role]
        if not names:
            continue
        lines += ["", f"#### {title}", "",
                  "| property | label | type | default | exported as |", "|---|---|---|---|---|"]
        for n in names:
            p = annotations[n]
            lines.append(f"| `obj.plume.{n}` | {p.kwargs.get('name', n)} | {_type(p)} | "
                         f"{_value(p.kwargs.get('default'))} | {where[n][1]} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--plume", help="a plume binary, to print its schema as JSON")
    src.add_argument("--schema", help="plume's schema as JSON (plume_schema.json)")
    ap.add_argument("--update", metavar="FILE",
                    help=f"write the list between {BEGIN} and {END} in FILE instead of printing it")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        schema_file = args.schema
        if args.plume:
            schema_file = os.path.join(tmp, "plume_schema.json")
            with open(schema_file, "w", encoding="utf-8") as f:
                subprocess.run([args.plume, "check", "--reference", "--reference-format", "json"],
                               stdout=f, check=True)
        text = property_list(schema_file)
    if not args.update:
        sys.stdout.write(text)
        return
    with open(args.update, encoding="utf-8") as f:
        doc = f.read()
    begin, end = doc.find(BEGIN + "\n"), doc.find(END)
    if begin < 0 or end < begin:
        sys.exit(f"write_property_list.py: {args.update} has no {BEGIN} ... {END}")
    # A blank line on each side keeps the markers apart from the tables in markdown.
    doc = doc[:begin + len(BEGIN) + 1] + "\n" + text + "\n" + doc[end:]
    with open(args.update, "w", encoding="utf-8") as f:
        f.write(doc)


if __name__ == "__main__":
    main()
