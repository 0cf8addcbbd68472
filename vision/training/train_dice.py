"""Train the d6 detector-reader and export it as ONNX for OpenCV's dnn module.

    python -m vision.training.train_dice --out vision/models/dice_d6.onnx [--validate]

Needs torch (training only; `make train-dice` installs it in its own venv). The
data are the labelled real photos in ../shared/fixtures/real-dice/ (their
licences stay with them there); the model file is small enough to commit.
Reproducible: fixed seeds, single thread order, recorded settings.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from .cube_dice import cubes
from .dice_data import augment, load_recording, rendered, targets

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "real-dice"
# Typical die side (pixels) in each development recording: byler median 40 px (SOURCE.md),
# webcam dice about 78 px across (measured by eye on several frames), pxl-trays 54 px (the median
# of the sizes the previous detector measured on its dice, frames ranging 49-71; SOURCE.md's 60 px
# is the long side of a box round a turned die).
# casino-crops-dev (single-die crops) is never trained on: it is the set of dice the networks
# have not seen, for the face reader (tests/test_dice_unseen.py).
RECORDINGS = {"byler-dev": 40.0, "webcam-dev": 78.0, "pxl-trays-dev": 54.0}


def sources(leave_out: list[str]) -> dict[str, float]:
    """The recordings to train on, without those left out whole (to measure how the networks
    do on a set of dice they never saw: leave one source out, train, score it)."""
    unknown = set(leave_out) - set(RECORDINGS)
    if unknown:
        raise SystemExit(f"no such training source: {', '.join(sorted(unknown))}")
    return {name: px for name, px in RECORDINGS.items() if name not in leave_out}


CROP = 192


def block(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DiceNet(nn.Module):
    """A small U-Net to stride 4: die-centre heat, face value (6 classes), log die size."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        w = width
        self.e1 = block(3, w, 2)
        self.e2 = block(w, 2 * w, 2)
        self.e3 = block(2 * w, 4 * w, 2)
        self.e4 = block(4 * w, 6 * w, 2)
        self.d3 = block(6 * w + 4 * w, 4 * w, 1)
        self.d2 = block(4 * w + 2 * w, 3 * w, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.head = nn.Conv2d(3 * w, 1 + 6 + 1, 1)
        with torch.no_grad():
            self.head.bias[0] = -2.19  # CenterNet's prior: few pixels are die centres

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x / 255.0 - 0.5
        e1 = self.e1(x)
        e2 = self.e2(e1)
        e3 = self.e3(e2)
        e4 = self.e4(e3)
        d3 = self.d3(torch.cat([self.up(e4), e3], 1))
        d2 = self.d2(torch.cat([self.up(d3), e2], 1))
        return self.head(d2)


def focal(pred: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the centre heat map."""
    p = torch.sigmoid(pred).clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p**2 * (1 - gt) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def batch(
    samples: list,
    rng: np.random.Generator,
    size: int,
    die_range: tuple[float, float],
    weights: np.ndarray | None = None,
) -> tuple[torch.Tensor, ...]:
    imgs, heats, clss, sizes, masks = [], [], [], [], []
    for _ in range(size):
        s = samples[rng.integers(len(samples)) if weights is None else rng.choice(len(samples), p=weights)]
        img, c, v, sz = augment(s, CROP, rng, die_range)
        h, k, ls, m = targets(CROP, c, v, sz)
        imgs.append(img.transpose(2, 0, 1))
        heats.append(h)
        clss.append(k)
        sizes.append(ls)
        masks.append(m)
    return (
        torch.from_numpy(np.stack(imgs)).float(),
        torch.from_numpy(np.stack(heats)),
        torch.from_numpy(np.stack(clss)),
        torch.from_numpy(np.stack(sizes)),
        torch.from_numpy(np.stack(masks)),
    )


def shares(others: int, traced: int, share: float | None) -> np.ndarray | None:
    """Each frame's chance of being drawn when the path-traced frames (last in the list) are to
    be `share` of what the network sees: many of them would crowd out the real photos."""
    if share is None or not traced:
        return None
    if not 0.0 < share < 1.0:
        raise SystemExit("--path-traced-share is a fraction between 0 and 1")
    return np.concatenate([np.full(others, (1 - share) / others), np.full(traced, share / traced)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--width", type=int, default=12)
    parser.add_argument("--die-min", type=float, default=14.0, help="smallest die side (px) the net sees")
    parser.add_argument("--die-max", type=float, default=36.0, help="largest die side (px) the net sees")
    parser.add_argument(
        "--hold-out",
        type=int,
        default=0,
        help="leave every k-th frame of each recording out (k>0) to validate on",
    )
    parser.add_argument("--leave-out", action="append", default=[], help="a source not to train on")
    parser.add_argument(
        "--rendered", type=int, default=0, help="add this many frames of dice drawn by vision/render.py"
    )
    parser.add_argument(
        "--cubes", type=int, default=0, help="add this many frames of dice drawn as cubes (cube_dice.py)"
    )
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
        help="draw this share of each batch from the path-traced frames (default: as any frame)",
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    recordings = sources(args.leave_out)
    rng = np.random.default_rng(args.seed)
    samples = []
    for name, die_px in recordings.items():
        samples += load_recording(FIXTURES / name, die_px, drop_every=args.hold_out)
    samples += rendered(args.rendered, args.seed + 1)
    samples += cubes(args.cubes, args.seed + 2)
    traced = [s for folder in args.path_traced for s in load_recording(folder, 0.0)]
    weights = shares(len(samples), len(traced), args.path_traced_share)
    samples += traced
    print(f"{len(samples)} training frames, {sum(len(s.values) for s in samples)} dice", flush=True)
    model = DiceNet(args.width)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.steps, pct_start=0.1)
    start = time.time()
    model.train()
    for step in range(args.steps):
        x, heat, cls, logsize, mask = batch(samples, rng, args.batch, (args.die_min, args.die_max), weights)
        out = model(x)
        l_heat = focal(out[:, 0], heat)
        l_cls = F.cross_entropy(out[:, 1:7], cls, ignore_index=-1)
        l_size = (F.l1_loss(out[:, 7], logsize, reduction="none") * mask).sum() / mask.sum().clamp(min=1)
        loss = l_heat + l_cls + 0.5 * l_size
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == args.steps - 1:
            print(
                f"step {step} loss {loss.item():.3f} (heat {l_heat.item():.3f} cls {l_cls.item():.3f} "
                f"size {l_size.item():.3f}) {time.time() - start:.0f}s",
                flush=True,
            )
    model.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, 256, 256)
    import warnings

    warnings.filterwarnings("ignore", category=DeprecationWarning)  # the TorchScript exporter suits cv2.dnn
    torch.onnx.export(
        model,
        dummy,
        str(args.out),
        input_names=["image"],
        output_names=["maps"],
        opset_version=13,
        dynamo=False,
        dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "h4", 3: "w4"}},
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
                "crop": CROP,
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
