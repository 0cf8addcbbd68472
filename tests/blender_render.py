"""Renders a scene of tests/blender_scene.py with Blender's Cycles path tracer: run by
.venv-blender's Python only (`bpy` is never a runtime or test dependency).

    .venv-blender/bin/python tests/blender_render.py SCENE_DIR OUT.hdr

The output is linear light (Radiance HDR), before any camera: exposure, tone curve, noise and JPEG
are the camera's, applied by tests/make_blender_tables.py.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import bpy  # type: ignore[import-not-found]
from mathutils import Vector  # type: ignore[import-not-found]

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repo's modules too
from vision.training.blender_dice import cycles_scene, room_and_camera  # noqa: E402 (needs the path above)
from vision.training.blender_dice import die as cycles_die  # noqa: E402

MM = 0.001
KELVIN_RGB = {
    2700: (1.0, 0.66, 0.34),
    3000: (1.0, 0.71, 0.42),
    4000: (1.0, 0.82, 0.64),
    5000: (1.0, 0.89, 0.81),
    6500: (1.0, 0.98, 0.99),
}


def linear(srgb: list[float]) -> tuple[float, float, float, float]:
    """An sRGB colour (0-1) as Blender's linear base colour."""
    out = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb]
    return (out[0], out[1], out[2], 1.0)


def board_xy(x: float, y: float) -> tuple[float, float]:
    """Board mm (x east, y south) -> Blender metres (x east, y north)."""
    return x * MM, -y * MM


def material(
    name: str,
    colour: list[float] | None,
    roughness: float,
    image: Path | None = None,
    grain: bool = False,
    clear: float = 0.0,
) -> Any:
    """A surface: a colour, a picture or wood grain; `clear` lets that much light through (a
    translucent gem), tinted by the colour."""
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf = nodes["Principled BSDF"]
    bsdf.inputs["Roughness"].default_value = roughness
    if clear:
        bsdf.inputs["Transmission Weight"].default_value = clear
        bsdf.inputs["IOR"].default_value = 1.5
    if image is not None:
        tex = nodes.new("ShaderNodeTexImage")
        tex.image = bpy.data.images.load(str(image))
        tex.interpolation = "Cubic"
        links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    elif grain:
        wave = nodes.new("ShaderNodeTexWave")
        wave.inputs["Scale"].default_value = 3.0
        wave.inputs["Distortion"].default_value = 6.0
        ramp = nodes.new("ShaderNodeMix")
        ramp.data_type = "RGBA"
        dark = [0.7 * c for c in colour or [0.5, 0.5, 0.5]]
        ramp.inputs[6].default_value = linear(dark)
        ramp.inputs[7].default_value = linear(colour or [0.5, 0.5, 0.5])
        links.new(wave.outputs["Fac"], ramp.inputs[0])
        links.new(ramp.outputs[2], bsdf.inputs["Base Color"])
    else:
        bsdf.inputs["Base Color"].default_value = linear(colour or [0.5, 0.5, 0.5])
    return mat


def place(obj: Any, mat: Any) -> Any:
    obj.data.materials.append(mat)
    return obj


def bevelled(obj: Any, width_mm: float) -> None:
    obj.data.shade_smooth()
    mod = obj.modifiers.new("bevel", "BEVEL")
    mod.width = width_mm * MM
    mod.segments = 3
    mod.limit_method = "ANGLE"
    mod.harden_normals = True


def textured_plane(
    name: str,
    centre: tuple[float, float],
    size: tuple[float, float],
    z: float,
    image: Path,
    roughness: float,
    turn_deg: float = 0.0,
) -> Any:
    bpy.ops.mesh.primitive_plane_add(size=1.0, location=(*centre, z))
    plane = bpy.context.object
    plane.name = name
    plane.scale = (size[0], size[1], 1.0)
    plane.rotation_euler = (0.0, 0.0, math.radians(turn_deg))
    return place(plane, material(name, None, roughness, image))


def solid(item: dict[str, Any], index: int, roughness: float, folder: Path) -> None:
    x, y = board_xy(*item["centre"])
    z, width, height = item["z"] * MM, item.get("width", 0.0) * MM, item.get("height", 0.0) * MM
    turn = -math.radians(item.get("turn_deg", 0.0))
    if item["kind"] in ("disc", "cylinder"):
        bpy.ops.mesh.primitive_cylinder_add(
            vertices=96,
            radius=width / 2,
            depth=height,
            location=(x, y, z + height / 2),
            rotation=(0, 0, turn),
        )
        obj = bpy.context.object
        bevelled(obj, item["bevel"])
        place(obj, material(f"solid{index}", item["colour"], roughness))
    elif item["kind"] == "pawn":
        head = 0.3 * width
        bpy.ops.mesh.primitive_cone_add(
            vertices=96,
            radius1=width / 2,
            radius2=0.28 * width,
            depth=height - head,
            location=(x, y, z + (height - head) / 2),
        )
        body = bpy.context.object
        bevelled(body, item["bevel"])
        bpy.ops.mesh.primitive_uv_sphere_add(
            segments=48, ring_count=24, radius=head, location=(x, y, z + height - head)
        )
        top = bpy.context.object
        top.data.shade_smooth()
        mat = material(f"solid{index}", item["colour"], roughness)
        place(body, mat)
        place(top, mat)
    elif item["kind"] == "tile":
        bpy.ops.mesh.primitive_cube_add(size=1.0, location=(x, y, z + height / 2), rotation=(0, 0, turn))
        body = bpy.context.object
        body.scale = (width, width, height)
        bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)  # a true-size bevel
        bevelled(body, 0.3)
        place(body, material(f"solid{index}", item["colour"], 0.8))
        textured_plane(
            f"emblem{index}",
            (x, y),
            (width - 0.6 * MM, width - 0.6 * MM),
            z + height + 0.02 * MM,
            folder / f"emblem{item['emblem']}.png",
            0.8,
            math.degrees(turn),
        )
    elif item["kind"] == "cone":  # a figure's body, a staff, a horn: from its foot, leaning
        lean, towards = math.radians(item["lean_deg"]), math.radians(item["lean_towards_deg"])
        axis = Vector(
            (math.sin(lean) * math.cos(towards), -math.sin(lean) * math.sin(towards), math.cos(lean))
        )
        middle = Vector((x, y, z)) + axis * (height / 2)
        bpy.ops.mesh.primitive_cone_add(
            vertices=48, radius1=width / 2, radius2=item["top_width"] * MM / 2, depth=height, location=middle
        )
        obj = bpy.context.object
        obj.rotation_euler = Vector((0.0, 0.0, 1.0)).rotation_difference(axis).to_euler()
        obj.data.shade_smooth()
        place(obj, material(f"solid{index}", item["colour"], roughness))
    elif item["kind"] == "box":  # a card token, a wooden block: `size` across, deep, tall
        bpy.ops.mesh.primitive_cube_add(
            size=1.0, location=(x, y, z + item["size"][2] * MM / 2), rotation=(0, 0, turn)
        )
        obj = bpy.context.object
        obj.scale = tuple(v * MM for v in item["size"])
        bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
        bevelled(obj, item["bevel"])
        place(obj, material(f"solid{index}", item["colour"], item.get("roughness", roughness)))
    elif item["kind"] == "meeple":  # a wooden meeple standing: its outline (mm, across and up) extruded
        import bmesh  # type: ignore[import-not-found]  # bpy's own: importable only once bpy is

        mesh = bpy.data.meshes.new(f"solid{index}")
        bm = bmesh.new()
        depth = item["depth"] * MM
        face = bm.faces.new([bm.verts.new((u * MM, -depth / 2, v * MM)) for u, v in item["outline"]])
        grown = bmesh.ops.extrude_face_region(bm, geom=[face])["geom"]
        bmesh.ops.translate(
            bm, verts=[g for g in grown if isinstance(g, bmesh.types.BMVert)], vec=(0, depth, 0)
        )
        bmesh.ops.recalc_face_normals(bm, faces=bm.faces)
        bm.to_mesh(mesh)
        bm.free()
        obj = bpy.data.objects.new(f"solid{index}", mesh)
        bpy.context.scene.collection.objects.link(obj)
        obj.location = (x, y, z)
        obj.rotation_euler = (0.0, 0.0, turn)
        bpy.context.view_layer.objects.active = obj
        bevelled(obj, item["bevel"])
        place(obj, material(f"solid{index}", item["colour"], 0.75, grain=True))
    elif item["kind"] == "gem":  # a cut gem: flat facets, glassy or opaque
        bpy.ops.mesh.primitive_ico_sphere_add(
            subdivisions=1, radius=0.5, location=(x, y, z + item["size"][2] * MM / 2)
        )
        obj = bpy.context.object
        obj.scale = tuple(v * MM for v in item["size"])
        obj.rotation_euler = (0.0, 0.0, turn)
        place(obj, material(f"solid{index}", item["colour"], 0.08, clear=item["clear"]))
    elif item["kind"] == "die":  # drawn as the networks' path-traced training dice are
        cycles_die(
            {
                "at": [x / MM, y / MM, z / MM],
                "size": item["size"],
                "value": item["value"],
                "turn_deg": math.degrees(turn),
                "bevel": item["bevel"],
                "body": {
                    "style": "solid",
                    "colour": item["colour"],
                    "roughness": item.get("roughness", 0.35),
                },
                "ink": {"style": "solid", "colour": item["pips"], "roughness": 0.5},
                "pip": item.get("pip", 0.09),
                "pitch": 0.25,
                "sunk": 0.6,
            },
            index,
        )
    elif item["kind"] == "ellipsoid":  # a head, a hunched body: `z` is its middle
        bpy.ops.mesh.primitive_uv_sphere_add(segments=48, ring_count=24, radius=0.5, location=(x, y, z))
        obj = bpy.context.object
        obj.scale = tuple(v * MM for v in item["size"])
        obj.rotation_euler = (0.0, 0.0, turn)
        obj.data.shade_smooth()
        place(obj, material(f"solid{index}", item["colour"], roughness))
    else:
        raise ValueError(f"unknown solid {item['kind']}")


def lamp(item: dict[str, Any], index: int) -> None:
    colour = KELVIN_RGB[int(item["kelvin"])]
    if item["kind"] == "sun":
        light = bpy.data.lights.new(f"lamp{index}", "SUN")
        light.energy = item["strength"]
        light.angle = math.radians(item["angle_deg"])
        obj = bpy.data.objects.new(f"lamp{index}", light)
        obj.rotation_euler = (
            math.radians(90 - item["elevation_deg"]),
            0.0,
            math.radians(item["azimuth_deg"]),
        )
    else:
        light = bpy.data.lights.new(f"lamp{index}", "AREA" if item["kind"] == "area" else "POINT")
        light.energy = item["watts"]
        if item["kind"] == "area":
            light.size = item["size_mm"] * MM
        else:
            light.shadow_soft_size = item["size_mm"] * MM
        obj = bpy.data.objects.new(f"lamp{index}", light)
        obj.location = tuple(v * MM for v in item["at"])
    light.color = colour
    bpy.context.scene.collection.objects.link(obj)


def build(folder: Path) -> None:
    spec = json.loads((folder / "scene.json").read_text())
    scene = cycles_scene(spec["samples"], spec["size"])

    room_and_camera(scene, spec, [0.8, 0.8, 0.8], (0.05, 20.0))

    bpy.ops.mesh.primitive_plane_add(size=4.0, location=(0.2, -0.2, 0.0))
    place(bpy.context.object, material("table", spec["table"]["colour"], 0.6, grain=spec["table"]["grain"]))
    x0, y0, x1, y1 = spec["board"]["extent"]
    thick = spec["board"]["thick"] * MM
    middle = board_xy((x0 + x1) / 2, (y0 + y1) / 2)
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(*middle, thick / 2 - 0.05 * MM))
    card = bpy.context.object
    card.scale = ((x1 - x0) * MM, (y1 - y0) * MM, thick - 0.1 * MM)
    place(card, material("card", [0.15, 0.13, 0.12], 0.7))
    textured_plane(
        "board",
        middle,
        ((x1 - x0) * MM, (y1 - y0) * MM),
        thick,
        folder / "art.png",
        spec["board"]["roughness"],
    )
    for marker in spec["markers"]:
        side = marker["side"] * MM
        textured_plane(
            f"marker{marker['id']}",
            board_xy(*marker["centre"]),
            (side, side),
            0.1 * MM,
            folder / f"marker{marker['id']}.png",
            0.6,
        )
    for index, item in enumerate(spec["solids"]):
        solid(item, index, spec["roughness"], folder)
    for index, item in enumerate(spec["lamps"]):
        lamp(item, index)


def main() -> None:
    folder, out = Path(sys.argv[1]), Path(sys.argv[2])
    build(folder)
    bpy.context.scene.render.filepath = str(out.resolve())
    bpy.ops.render.render(write_still=True)


if __name__ == "__main__":
    main()
