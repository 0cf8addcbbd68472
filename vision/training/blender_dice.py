"""Renders d6 training frames with Blender's Cycles path tracer: run by .venv-blender's Python
only (`bpy` is never a runtime dependency; vision/training/path_traced_dice.py lays the scenes
out and writes the recording).

    .venv-blender/bin/python vision/training/blender_dice.py SCENES.json OUT_DIR

SCENES.json is a list of scenes; each is rendered into OUT_DIR/NNNN.hdr (linear light: the
camera's exposure, white balance, noise and JPEG are applied by the caller). Lengths in mm.

Why path tracing: the photos of an unseen dice set are missed where light does what a drawing
does not: a translucent body shows the pips of its far faces and glows, a marbled or glittering
body scatters highlights, a tray's felt and wooden walls throw soft shadows and coloured bounce
light, dice touch in heaps.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import bpy  # type: ignore[import-not-found]
from mathutils import Matrix, Vector  # type: ignore[import-not-found]

MM = 0.001
FACES = {
    1: ((0, 0, 1), (1, 0, 0)),
    6: ((0, 0, -1), (1, 0, 0)),
    2: ((1, 0, 0), (0, 1, 0)),
    5: ((-1, 0, 0), (0, 1, 0)),
    3: ((0, 1, 0), (1, 0, 0)),
    4: ((0, -1, 0), (1, 0, 0)),
}
"""A d6 unturned: each value's outward normal and the axis its pips run along (opposite faces
sum to 7), as tests/blender_render.py draws it."""
PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
"""Each face's pips in units of `pitch` of the die's side from its middle."""
UP = {
    (0, 0, 1): Matrix.Identity(3),
    (0, 0, -1): Matrix.Rotation(math.pi, 3, "X"),
    (1, 0, 0): Matrix.Rotation(-math.pi / 2, 3, "Y"),
    (-1, 0, 0): Matrix.Rotation(math.pi / 2, 3, "Y"),
    (0, 1, 0): Matrix.Rotation(math.pi / 2, 3, "X"),
    (0, -1, 0): Matrix.Rotation(-math.pi / 2, 3, "X"),
}
"""The turn that brings each face to the top."""


def linear(srgb: list[float]) -> tuple[float, float, float, float]:
    out = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb]
    return (out[0], out[1], out[2], 1.0)


def surface(name: str, spec: dict[str, Any]) -> Any:
    """A material from its spec: `style` solid, translucent, marbled, swirl, glitter, wood,
    speckle or felt; `colour` and `second` sRGB 0-1; `roughness`; `clear` (transmission);
    `metal`; `scale` of its pattern (1/m)."""
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf = nodes["Principled BSDF"]
    bsdf.inputs["Roughness"].default_value = spec.get("roughness", 0.4)
    bsdf.inputs["Metallic"].default_value = spec.get("metal", 0.0)
    style = spec.get("style", "solid")
    colour = linear(spec["colour"])
    second = linear(spec.get("second", spec["colour"]))
    if spec.get("clear", 0.0):
        bsdf.inputs["Transmission Weight"].default_value = spec["clear"]
        bsdf.inputs["IOR"].default_value = 1.5
    pattern = None
    if style in ("marbled", "wood", "speckle", "felt", "swirl"):
        if style == "wood" or style == "swirl":
            tex = nodes.new("ShaderNodeTexWave")
            tex.inputs["Distortion"].default_value = 8.0 if style == "swirl" else 5.0
        elif style == "speckle":
            tex = nodes.new("ShaderNodeTexVoronoi")
        else:
            tex = nodes.new("ShaderNodeTexNoise")
            tex.inputs["Detail"].default_value = 6.0
        tex.inputs["Scale"].default_value = spec.get("scale", 60.0)
        pattern = tex.outputs["Distance" if style == "speckle" else "Fac"]
        if style == "speckle":
            ramp = nodes.new("ShaderNodeValToRGB")
            ramp.color_ramp.interpolation = "CONSTANT"
            ramp.color_ramp.elements[0].color = colour
            ramp.color_ramp.elements[1].position = 0.5
            ramp.color_ramp.elements[1].color = second
            third = ramp.color_ramp.elements.new(0.8)
            third.color = linear(spec.get("third", spec["colour"]))
            links.new(pattern, ramp.inputs["Fac"])
            links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
        else:
            mix = nodes.new("ShaderNodeMix")
            mix.data_type = "RGBA"
            mix.inputs[6].default_value = colour
            mix.inputs[7].default_value = second
            if style == "marbled":  # veins: a sharp band of the noise
                ramp = nodes.new("ShaderNodeMapRange")
                ramp.inputs["From Min"].default_value = 0.45
                ramp.inputs["From Max"].default_value = 0.55
                links.new(pattern, ramp.inputs["Value"])
                links.new(ramp.outputs["Result"], mix.inputs[0])
            else:
                links.new(pattern, mix.inputs[0])
            links.new(mix.outputs[2], bsdf.inputs["Base Color"])
    else:
        bsdf.inputs["Base Color"].default_value = colour
    if style == "glitter":  # flakes: small cells that mirror
        cells = nodes.new("ShaderNodeTexVoronoi")
        cells.inputs["Scale"].default_value = spec.get("scale", 900.0)
        flake = nodes.new("ShaderNodeMath")
        flake.operation = "LESS_THAN"
        flake.inputs[1].default_value = 0.25
        links.new(cells.outputs["Distance"], flake.inputs[0])
        links.new(flake.outputs[0], bsdf.inputs["Metallic"])
    return mat


def bevelled(obj: Any, width_mm: float, segments: int = 3) -> None:
    obj.data.shade_smooth()
    mod = obj.modifiers.new("bevel", "BEVEL")
    mod.width = width_mm * MM
    mod.segments = segments
    mod.limit_method = "ANGLE"
    mod.harden_normals = True


def block(centre: list[float], size: list[float], turn_deg: float, spec: dict[str, Any], name: str) -> None:
    """A box standing on the table: a tray's wall, a wooden cube, a card."""
    bpy.ops.mesh.primitive_cube_add(
        size=1.0,
        location=(centre[0] * MM, centre[1] * MM, size[2] * MM / 2 + centre[2] * MM),
        rotation=(0, 0, math.radians(turn_deg)),
    )
    obj = bpy.context.object
    obj.scale = tuple(v * MM for v in size)
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    bevelled(obj, min(1.0, min(size) / 4))
    obj.data.materials.append(surface(name, spec))


def die(item: dict[str, Any], index: int) -> None:
    """A d6 lying on `z` with `value` on top, turned `turn_deg`: a cube with rounded edges, its
    pips discs sunk a little into each face (the 1 an emblem disc when `emblem` is set)."""
    side, half = item["size"] * MM, item["size"] * MM / 2
    x, y, z = (v * MM for v in item["at"])
    normal, _ = FACES[item["value"]]
    world = (
        Matrix.Translation((x, y, z + half))
        @ Matrix.Rotation(math.radians(item["turn_deg"]), 4, "Z")
        @ Matrix.Rotation(math.radians(item.get("lean_deg", 0.0)), 4, "X")
        @ UP[normal].to_4x4()
    )
    bpy.ops.mesh.primitive_cube_add(size=1.0)
    body = bpy.context.object
    body.scale = (side, side, side)
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    body.matrix_world = world
    bevelled(body, item["bevel"], 4)
    body.data.materials.append(surface(f"die{index}", item["body"]))

    import bmesh  # type: ignore[import-not-found]  # bpy's own: importable only once bpy is

    mesh = bpy.data.meshes.new(f"pips{index}")
    bm = bmesh.new()
    sunk = item["sunk"] * MM
    for value, (n, u) in FACES.items():
        nv, uv = Vector(n), Vector(u)
        vv = nv.cross(uv)
        lie = Vector((0, 0, 1)).rotation_difference(nv).to_matrix().to_4x4()
        radius = item["pip"] * side
        spots = PIPS[value]
        if value == 1 and item.get("emblem"):
            radius = item["emblem"] * side
        for du, dv in spots:
            centre = nv * (half + 0.05 * MM - sunk / 2) + (uv * du + vv * dv) * (item["pitch"] * side)
            bmesh.ops.create_cone(
                bm,
                cap_ends=True,
                segments=24,
                radius1=radius,
                radius2=radius,
                depth=sunk,
                matrix=Matrix.Translation(centre) @ lie,
            )
    bm.to_mesh(mesh)
    bm.free()
    pips = bpy.data.objects.new(f"pips{index}", mesh)
    bpy.context.scene.collection.objects.link(pips)
    pips.matrix_world = world
    mesh.shade_smooth()
    pips.data.materials.append(surface(f"ink{index}", item["ink"]))


def decoy(item: dict[str, Any], index: int) -> None:
    """A thing beside dice that is no d6: a coin, another die's solid (d8, d20), a card."""
    x, y, z = (v * MM for v in item["at"])
    size = item["size"] * MM
    if item["kind"] == "coin":
        bpy.ops.mesh.primitive_cylinder_add(
            vertices=64, radius=size / 2, depth=2 * MM, location=(x, y, z + MM)
        )
        obj = bpy.context.object
        bevelled(obj, 0.4)
    elif item["kind"] in ("d20", "d8"):
        if item["kind"] == "d20":
            bpy.ops.mesh.primitive_ico_sphere_add(
                subdivisions=1, radius=size / 2, location=(x, y, z + size * 0.42)
            )
        else:
            bpy.ops.mesh.primitive_cone_add(
                vertices=4, radius1=size / 2, depth=size * 0.7, location=(x, y, z)
            )
        obj = bpy.context.object
        obj.rotation_euler = tuple(math.radians(a) for a in item["turn"])
    else:
        block(
            [item["at"][0], item["at"][1], item["at"][2]],
            [item["size"], item["size"] * 0.7, 1.0],
            item["turn"][2],
            item["surface"],
            f"decoy{index}",
        )
        return
    obj.data.materials.append(surface(f"decoy{index}", item["surface"]))


def lamp(item: dict[str, Any], index: int) -> None:
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
        light = bpy.data.lights.new(f"lamp{index}", "AREA")
        light.energy = item["watts"]
        light.size = item["size_mm"] * MM
        obj = bpy.data.objects.new(f"lamp{index}", light)
        obj.location = tuple(v * MM for v in item["at"])
        obj.rotation_euler = Vector(item["at"]).to_track_quat("Z", "Y").to_euler()
    light.color = item["rgb"]
    bpy.context.scene.collection.objects.link(obj)


def room_and_camera(
    scene: Any, spec: dict[str, Any], ambient_rgb: list[float], clip: tuple[float, float]
) -> None:
    """The room's even light (`ambient`, of this colour) and the camera: `hfov_deg` wide, its
    4 x 4 camera-to-world matrix `camera` in mm (it looks down its -Z)."""
    world = bpy.data.worlds.new("room")
    world.use_nodes = True
    world.node_tree.nodes["Background"].inputs["Strength"].default_value = spec["ambient"]
    world.node_tree.nodes["Background"].inputs["Color"].default_value = (*ambient_rgb, 1.0)
    scene.world = world
    camera = bpy.data.cameras.new("camera")
    camera.sensor_fit = "HORIZONTAL"
    camera.lens_unit = "FOV"
    camera.angle = math.radians(spec["hfov_deg"])
    camera.clip_start, camera.clip_end = clip
    cam = bpy.data.objects.new("camera", camera)
    m = [row[:] for row in spec["camera"]]
    for r in range(3):
        m[r][3] *= MM
    cam.matrix_world = Matrix(m)
    scene.collection.objects.link(cam)
    scene.camera = cam


def cycles_scene(samples: int, size: tuple[int, int]) -> Any:
    """An empty Cycles scene on the CPU, denoised, writing linear light that OpenCV reads
    (Radiance HDR): shared by the training dice and the test tables (tests/blender_render.py)."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_denoising = True
    scene.cycles.max_bounces = 4
    scene.render.resolution_x, scene.render.resolution_y = size
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "HDR"
    return scene


def build(spec: dict[str, Any]) -> None:
    scene = cycles_scene(spec["samples"], spec["size"])
    scene.cycles.transmission_bounces = 6
    room_and_camera(scene, spec, spec["ambient_rgb"], (0.01, 10.0))
    bpy.ops.mesh.primitive_plane_add(size=3.0, location=(0.0, 0.0, 0.0))
    bpy.context.object.data.materials.append(surface("ground", spec["ground"]))
    if spec.get("floor"):  # a tray's floor, a felt mat or a board under the dice
        f = spec["floor"]
        block(
            [f["centre"][0], f["centre"][1], 0.0],
            [f["size"][0], f["size"][1], f["thick"]],
            f["turn_deg"],
            f["surface"],
            "floor",
        )
    for n, wall in enumerate(spec.get("walls", [])):
        block(wall["centre"], wall["size"], wall["turn_deg"], wall["surface"], f"wall{n}")
    for n, item in enumerate(spec["dice"]):
        die(item, n)
    for n, item in enumerate(spec.get("decoys", [])):
        decoy(item, n)
    for n, item in enumerate(spec["lamps"]):
        lamp(item, n)


def main() -> None:
    scenes, out = json.loads(Path(sys.argv[1]).read_text()), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for n, spec in enumerate(scenes):
        build(spec)
        bpy.context.scene.render.filepath = str((out / f"{spec['name']}.hdr").resolve())
        bpy.ops.render.render(write_still=True)
        print(f"rendered {n + 1}/{len(scenes)}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
