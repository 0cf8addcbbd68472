"""Train the d6 face reader: a small CNN on die crops (faces 1-6, or "no die").

    python -m vision.training.train_faces --detector vision/models/dice_d6.onnx \
        --out vision/models/dice_faces.onnx [--hold-out 5]

The crops are cut exactly as the runtime cuts them (vision/dice.py, `crop_die`),
around the centres of the labelled dice, at the sizes the detector measures there,
so training sees what the reader will see. torch is needed for training only.
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from ..dice import CROP_PX, CROP_SPAN, DiceConfig, DiceReader
from .cube_dice import cubes
from .dice_data import _jitter_colour, load_recording, rendered
from .train_dice import FIXTURES, sources

NONE = 6  # class index for "no die here"
MINING_THRESHOLDS = (DiceConfig().threshold, 0.2)
"""False finds are looked for at these centre heats (the first is the runtime's)."""


def detector_finds(detector: Path, samples: list) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """What the detector makes of each training frame: its die size at each labelled centre
    (the recording's typical size where it misses), and its finds far from every labelled
    die (centre x, y and size: laptop keys, specks, tags, a grey button). Those false finds are
    the "no die" crops that teach the reader most, since they are what it is shown at run
    time; they are looked for at the runtime's heat threshold and at a lower one, so that near
    misses count too (the first look's scale depends on what it finds, so the two differ)."""
    readers = [DiceReader(detector, DiceConfig(threshold=t), faces=None) for t in MINING_THRESHOLDS]
    sizes, false = [], []
    for s in samples:
        looks = [reader.read(s.image) for reader in readers]
        per = np.full(len(s.centers), s.die_px, np.float32)
        for i, (x, y) in enumerate(s.centers):
            near = [
                d for d in looks[0] if (d.center[0] - x) ** 2 + (d.center[1] - y) ** 2 < (0.6 * d.size) ** 2
            ]
            if near:
                per[i] = near[0].size
        sizes.append(per)
        far: list[tuple[float, float, float]] = []
        for d in (d for look in looks for d in look):
            if len(s.centers) and (np.linalg.norm(s.centers - d.center, axis=1) <= d.size).any():
                continue
            if all((d.center[0] - x) ** 2 + (d.center[1] - y) ** 2 > (0.5 * d.size) ** 2 for x, y, _ in far):
                far.append((*d.center, d.size))
        false.append(np.array(far, np.float32).reshape(-1, 3))
    return sizes, false


def random_crop(image: np.ndarray, centre: np.ndarray, size: float, rng: np.random.Generator) -> np.ndarray:
    """A crop as the runtime cuts it, turned, shifted and rescaled a little."""
    angle = rng.uniform(0, 360)
    scale = CROP_PX / (CROP_SPAN * size * rng.uniform(0.85, 1.2))
    shift = rng.normal(0, 0.07 * size, 2)
    cx, cy = centre + shift
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), angle, scale)
    m[:, 2] += np.array([CROP_PX / 2 - cx, CROP_PX / 2 - cy])
    if rng.random() < 0.5:
        m[0] = -m[0]
        m[0, 2] += CROP_PX
    if scale < 0.7:  # shrink smoothly, as the runtime's INTER_AREA resize does
        image = cv2.GaussianBlur(image, (0, 0), 0.4 / scale)
    crop = cv2.warpAffine(
        image, m, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT101
    )
    crop = _jitter_colour(crop, rng)
    if rng.random() < 0.25:
        crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.3, 1.0))
    crop = np.clip(crop + rng.normal(0, rng.uniform(0, 6), crop.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        _, buf = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.uniform(50, 95))])
        crop = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return crop


def background_centre(s, sizes: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    h, w = s.image.shape[:2]
    for _ in range(20):
        p = rng.uniform([0, 0], [w, h])
        if not len(s.centers) or (np.linalg.norm(s.centers - p, axis=1) > 0.9 * sizes).all():
            return p
    return None


class FaceNet(nn.Module):
    def __init__(self, width: int = 32) -> None:
        super().__init__()
        w = width

        def conv(cin: int, cout: int) -> list[nn.Module]:
            return [nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

        self.body = nn.Sequential(
            *conv(3, w),
            *conv(w, w),
            nn.MaxPool2d(2),
            *conv(w, 2 * w),
            *conv(2 * w, 2 * w),
            nn.MaxPool2d(2),
            *conv(2 * w, 3 * w),
            *conv(3 * w, 3 * w),
            nn.MaxPool2d(2),
            *conv(3 * w, 4 * w),
        )
        self.fc = nn.Linear(4 * w, 7)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.embed(x))

    def embed(self, x: torch.Tensor) -> torch.Tensor:
        """What the reader makes of a crop before naming its face: the players' own dice are
        taught as examples in this space (vision/teach.py)."""
        return self.body(x / 255.0 - 0.5).mean(dim=(2, 3))


class Exported(nn.Module):
    """The face reader as it ships: its face logits and the embedding they are read from."""

    def __init__(self, reader: FaceNet) -> None:
        super().__init__()
        self.reader = reader

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        embedding = self.reader.embed(x)
        return self.reader.fc(embedding), embedding


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--detector", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--batch", type=int, default=96)
    parser.add_argument("--width", type=int, default=32)
    parser.add_argument("--hold-out", type=int, default=0)
    parser.add_argument(
        "--path-traced",
        type=Path,
        action="append",
        default=[],
        help="a recording of path-traced dice to train on too (vision/training/path_traced_dice.py)",
    )
    parser.add_argument(
        "--path-traced-share",
        type=float,
        default=None,
        help="draw this share of the dice from the path-traced frames (default: as any die)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--leave-out", action="append", default=[], help="a source not to train on")
    parser.add_argument(
        "--rendered", type=int, default=0, help="add this many frames of dice drawn by vision/render.py"
    )
    parser.add_argument(
        "--cubes", type=int, default=0, help="add this many frames of dice drawn as cubes (cube_dice.py)"
    )
    parser.add_argument(
        "--false-share",
        type=float,
        default=0.0,
        help='share of the "no die" crops cut at the detector\'s false finds (the shipped model: 0.3)',
    )
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    recordings = sources(args.leave_out)
    samples = []
    for name, die_px in recordings.items():
        samples += load_recording(FIXTURES / name, die_px, drop_every=args.hold_out)
    samples += rendered(args.rendered, args.seed + 1)
    samples += cubes(args.cubes, args.seed + 2)
    traced_from = len(samples)
    for folder in args.path_traced:
        samples += load_recording(folder, 0.0)
    sizes, false = detector_finds(args.detector, samples)
    dice = [(k, i) for k, s in enumerate(samples) for i in range(len(s.values))]
    # Drawn as any die, or (`--path-traced-share`) that share of the dice from the path-traced
    # frames: thousands of them would crowd out the real photos' dice.
    real = [d for d in dice if d[0] < traced_from]
    traced = [d for d in dice if d[0] >= traced_from]
    share = args.path_traced_share
    if share is not None and not 0.0 < share < 1.0:
        raise SystemExit("--path-traced-share is a fraction between 0 and 1")
    false_finds = [(k, i) for k, f in enumerate(false) for i in range(len(f))]
    print(f"{len(samples)} frames, {len(dice)} dice, {len(false_finds)} false finds", flush=True)
    model = FaceNet(args.width)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.steps, pct_start=0.1)
    start = time.time()
    for step in range(args.steps):
        crops, labels = [], []
        while len(crops) < args.batch:
            no_die = rng.random() < 0.15
            if no_die and false_finds and args.false_share and rng.random() < args.false_share:
                k, i = false_finds[int(rng.integers(len(false_finds)))]
                centre, size, label = false[k][i, :2], float(false[k][i, 2]), NONE
            elif no_die:
                k = int(rng.integers(len(samples)))
                size = float(np.median(sizes[k])) if len(sizes[k]) else samples[k].die_px
                centre = background_centre(samples[k], sizes[k], rng)
                if centre is None:
                    continue
                label = NONE
            else:
                pool = dice if share is None or not traced else traced if rng.random() < share else real
                k, i = pool[int(rng.integers(len(pool)))]
                centre, size, label = samples[k].centers[i], float(sizes[k][i]), int(samples[k].values[i]) - 1
            crops.append(
                random_crop(samples[k].image, np.asarray(centre, np.float32), size, rng).transpose(2, 0, 1)
            )
            labels.append(label)
        x = torch.from_numpy(np.stack(crops)).float()
        y = torch.tensor(labels)
        loss = F.cross_entropy(model(x), y, label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0 or step == args.steps - 1:
            print(f"step {step} loss {loss.item():.3f} {time.time() - start:.0f}s", flush=True)
    model.eval()
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    torch.onnx.export(
        Exported(model),
        torch.zeros(1, 3, CROP_PX, CROP_PX),
        str(args.out),
        input_names=["crops"],
        output_names=["logits", "embedding"],
        opset_version=13,
        dynamo=False,
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}, "embedding": {0: "n"}},
    )
    settings = {
        k: ([str(p) for p in v] if isinstance(v, list) else str(v) if isinstance(v, Path) else v)
        for k, v in vars(args).items()
    }
    args.out.with_suffix(".json").write_text(
        json.dumps(
            {
                "settings": settings,
                "recordings": recordings,
                "seconds": round(time.time() - start),
                "torch": torch.__version__,
            },
            indent=1,
        )
        + "\n"
    )
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
