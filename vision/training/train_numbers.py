"""Train the numbered-die reader: d4 and d12 values from a crop, or "not a numbered die".

    python -m vision.training.train_numbers --detector vision/models/dice_d6.onnx \
        --out vision/models/dice_numbers.onnx

No photos of d4 or d12 dice exist here, so the numbered dice are renders
(vision/render_dice.py) laid on real tables cut from the development photos and on drawn
ones, with numerals in OpenCV's Hershey fonts and, when Pillow is installed (the training
venv has it), in the machine's TrueType fonts except the Liberation family, which is kept
back to measure how the reader does on a font it never saw. The "not numbered" crops are
real: the d6 dice of the development photos (every 5th frame held out, as for the other
networks), their bare tables, and the detector's false finds there. The crops are cut as
the runtime cuts them (vision/dice.py, `crop_die` at NUMBER_CROP_PX / NUMBER_CROP_SPAN)
around the centre and at a size as far off as the detector's own measure of such dice.
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

from ..dice import NUMBER_CLASSES, NUMBER_CROP_PX, NUMBER_CROP_SPAN, crop_die
from ..render_dice import GLYPH_PX, NumberedDie, hershey_glyph, random_dice, render_dice
from .dice_data import _jitter_colour, load_recording
from .train_dice import FIXTURES, RECORDINGS
from .train_faces import background_centre, detector_finds

SIZE_ERROR = (0.6, 1.5)
"""The detector measures numbered dice this far off their true width (5th-95th percentile on
renders), so the reader learns to read them at any size in this range."""
TRUETYPE = Path("/usr/share/fonts/truetype")
HELD_BACK_FONTS = "liberation"


def truetype_glyphs(held_back: bool) -> list:
    """Glyph makers for the machine's TrueType fonts (training: all but the held-back family;
    checking: only that family). Empty without Pillow."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        return []
    paths = sorted(p for p in TRUETYPE.rglob("*.ttf") if (HELD_BACK_FONTS in str(p).lower()) == held_back)
    fonts = [ImageFont.truetype(str(p), 40) for p in paths if "math" not in p.name.lower()]

    def make(font):  # noqa: ANN001, ANN202
        def glyph(text: str, rng: np.random.Generator) -> np.ndarray:
            image = Image.new("L", (GLYPH_PX, GLYPH_PX), 0)
            draw = ImageDraw.Draw(image)
            x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font)
            draw.text(
                ((GLYPH_PX - (x1 - x0)) / 2 - x0, (GLYPH_PX - (y1 - y0)) / 2 - y0), text, 255, font=font
            )
            if text in ("6", "9"):
                y = (GLYPH_PX + (y1 - y0)) // 2 + 4
                draw.line(((GLYPH_PX - (x1 - x0)) // 2, y, (GLYPH_PX + (x1 - x0)) // 2, y), 255, 4)
            mask = np.asarray(image)
            if rng.random() < 0.3:
                mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
            return mask

        return glyph

    return [make(f) for f in fonts]


def label_of(die: NumberedDie) -> int:
    """Class index: 0 not a numbered die, 1-4 a d4's value, 5-16 a d12's value 1-12."""
    return die.value if die.kind == "d4" else 4 + die.value


def numbered_crops(
    rng: np.random.Generator, glyphs: list, tables: list[np.ndarray]
) -> list[tuple[np.ndarray, int]]:
    """A table of rendered numbered dice of about one size, each cut as the runtime cuts it
    (a little off centre, at a size as far off as the detector measures)."""
    size = float(rng.uniform(26, 80))
    side = int(size * 7)
    table = None
    if tables and rng.random() < 0.7:
        source = tables[int(rng.integers(len(tables)))]
        h, w = source.shape[:2]
        want = min(h, w, int(side / rng.uniform(0.6, 2.0)))
        y, x = int(rng.integers(h - want + 1)), int(rng.integers(w - want + 1))
        table = cv2.resize(source[y : y + want, x : x + want], (side, side), interpolation=cv2.INTER_AREA)
    dice = random_dice(rng, (side, side), 10, (0.85 * size, 1.15 * size))
    glyph = glyphs[int(rng.integers(len(glyphs)))]
    image = render_dice(dice, (side, side), rng, table, glyph)
    crops = []
    for die in dice:
        shift = rng.normal(0, 0.08 * die.size, 2)
        seen = die.size * float(np.exp(rng.uniform(*np.log(SIZE_ERROR))))
        at = (die.centre[0] + shift[0], die.centre[1] + shift[1])
        crops.append((crop_die(image, at, seen, NUMBER_CROP_PX, NUMBER_CROP_SPAN), label_of(die)))
    return crops


def real_crop(image: np.ndarray, centre: np.ndarray, size: float, rng: np.random.Generator) -> np.ndarray:
    angle = rng.uniform(0, 360)
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, 1.0)
    turned = cv2.warpAffine(image, m, image.shape[1::-1], borderMode=cv2.BORDER_REFLECT101)
    shift = rng.normal(0, 0.08 * size, 2)
    seen = size * float(np.exp(rng.uniform(*np.log(SIZE_ERROR))))
    return crop_die(
        turned, (centre[0] + shift[0], centre[1] + shift[1]), seen, NUMBER_CROP_PX, NUMBER_CROP_SPAN
    )


def finish(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    crop = _jitter_colour(crop, rng)
    if rng.random() < 0.25:
        crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.3, 1.0))
    crop = np.clip(crop + rng.normal(0, rng.uniform(0, 5), crop.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        _, buf = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])
        crop = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return crop


class NumberNet(nn.Module):
    def __init__(self, width: int = 16) -> None:
        super().__init__()
        w = width

        def conv(cin: int, cout: int) -> list[nn.Module]:
            return [nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

        self.body = nn.Sequential(
            *conv(3, w),
            nn.MaxPool2d(2),
            *conv(w, 2 * w),
            *conv(2 * w, 2 * w),
            nn.MaxPool2d(2),
            *conv(2 * w, 4 * w),
            *conv(4 * w, 4 * w),
            nn.MaxPool2d(2),
            *conv(4 * w, 6 * w),
        )
        self.fc = nn.Linear(6 * w, NUMBER_CLASSES)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.body(x / 255.0 - 0.5)
        return self.fc(x.mean(dim=(2, 3)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--detector", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--renders", type=int, default=12000, help="numbered dice rendered before training")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    samples = []
    for name, die_px in RECORDINGS.items():
        samples += load_recording(FIXTURES / name, die_px, drop_every=5)
    sizes, false = detector_finds(args.detector, samples)
    tables = [s.image for s in samples]
    glyphs = [hershey_glyph, *truetype_glyphs(held_back=False)]
    print(f"{len(samples)} frames, {len(glyphs)} fonts; rendering {args.renders} numbered dice", flush=True)
    start = time.time()
    rendered: list[tuple[np.ndarray, int]] = []
    while len(rendered) < args.renders:
        rendered += numbered_crops(rng, glyphs, tables)
    print(f"rendered in {time.time() - start:.0f}s", flush=True)
    dice = [(k, i) for k, s in enumerate(samples) for i in range(len(s.values))]
    false_finds = [(k, i) for k, f in enumerate(false) for i in range(len(f))]
    model = NumberNet()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.steps, pct_start=0.1)
    for step in range(args.steps):
        crops, labels = [], []
        while len(crops) < args.batch:
            r = rng.random()
            if r < 0.5:
                crop, label = rendered[int(rng.integers(len(rendered)))]
            elif r < 0.85:
                k, i = dice[int(rng.integers(len(dice)))]
                crop, label = real_crop(samples[k].image, samples[k].centers[i], float(sizes[k][i]), rng), 0
            elif r < 0.93 and false_finds:
                k, i = false_finds[int(rng.integers(len(false_finds)))]
                crop, label = real_crop(samples[k].image, false[k][i, :2], float(false[k][i, 2]), rng), 0
            else:
                k = int(rng.integers(len(samples)))
                centre = background_centre(samples[k], sizes[k], rng)
                if centre is None:
                    continue
                crop, label = real_crop(samples[k].image, centre, samples[k].die_px, rng), 0
            crops.append(finish(crop, rng).transpose(2, 0, 1))
            labels.append(label)
        loss = F.cross_entropy(
            model(torch.from_numpy(np.stack(crops)).float()), torch.tensor(labels), label_smoothing=0.05
        )
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0 or step == args.steps - 1:
            print(f"step {step} loss {loss.item():.3f} {time.time() - start:.0f}s", flush=True)
    model.eval()
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    torch.onnx.export(
        model,
        torch.zeros(1, 3, NUMBER_CROP_PX, NUMBER_CROP_PX),
        str(args.out),
        input_names=["crops"],
        output_names=["logits"],
        opset_version=13,
        dynamo=False,
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
    )
    settings = {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}
    args.out.with_suffix(".json").write_text(
        json.dumps(
            {
                "settings": settings,
                "fonts": len(glyphs),
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
