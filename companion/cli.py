"""`companion`: JSON in and out for scripts and for checking the rules by hand, and `serve`.

Every error is one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

from .games.base import BadMoveText, BadSetup, BadState, Game, IllegalMove, Setup
from .games.registry import games, get_game
from .present import moves_json, score_json


class CliError(Exception):
    """A user error: printed as one line, exit status 1."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {message} (see --help)\n")
        raise SystemExit(2)


def _read_state(game: Game[Any, Any], source: str) -> Any:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise CliError(f"cannot read state {source}: {error.strerror}") from error
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise CliError(f"state {source} is not JSON: {error}") from error
    return game.state_from_json(data)


def _options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CliError(f"--option takes key=value, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def _game(name: str) -> Game[Any, Any]:
    try:
        return get_game(name)
    except KeyError as error:
        raise CliError(error.args[0]) from error


def _print(data: Any) -> None:
    print(json.dumps(data, indent=2))


def cmd_games(args: argparse.Namespace) -> None:
    _print(
        [
            {
                "name": g.name,
                "title": g.title,
                "players": [g.min_players, g.max_players],
                "options": g.options,
            }
            for g in games().values()
        ]
    )


def cmd_new(args: argparse.Namespace) -> None:
    game = _game(args.game)
    state = game.initial_state(Setup(args.players, _options(args.option)))
    _print(game.state_to_json(state))


def cmd_moves(args: argparse.Namespace) -> None:
    game = _game(args.game)
    _print(moves_json(game, _read_state(game, args.state)))


def cmd_apply(args: argparse.Namespace) -> None:
    game = _game(args.game)
    state = _read_state(game, args.state)
    _print(game.state_to_json(game.apply(state, game.parse_move(args.move))))


def cmd_score(args: argparse.Namespace) -> None:
    game = _game(args.game)
    _print(score_json(game, _read_state(game, args.state)))


def cmd_vision_eval(args: argparse.Namespace) -> None:
    from .vision_cli import vision_eval

    vision_eval(
        Path(args.path),
        as_json=args.json,
        show_misses=args.misses,
        every=args.every,
        palette=args.palette,
        data_dir=args.data_dir,
    )


def cmd_vision_read(args: argparse.Namespace) -> None:
    from .vision_cli import vision_read

    vision_read(
        Path(args.image),
        args.profile,
        as_json=args.json,
        debug_dir=args.debug_dir,
        palette=args.palette,
        data_dir=args.data_dir,
        full=Path(args.full) if args.full else None,
    )


def cmd_vision_teach(args: argparse.Namespace) -> None:
    from .vision_cli import vision_teach

    shown = []
    for item in args.pieces:
        colour, _, image = item.partition("=")
        if not colour or not image:
            raise CliError(f"give each colour's photo as COLOUR=IMAGE (e.g. red=red.jpg), not {item!r}")
        shown.append((colour, Path(image)))
    vision_teach(shown, args.profile, Path(args.data_dir))


def cmd_vision_teach_dice(args: argparse.Namespace) -> None:
    from .vision_cli import vision_teach_dice

    shown, table = [], None
    for item in args.faces:
        value, _, image = item.partition("=")
        if value == "table" and image:
            table = Path(image)
            continue
        if not value.isdigit() or not image:
            raise CliError(
                f"give each face's photo as VALUE=IMAGE (e.g. 1=ones.jpg) and the bare table's as "
                f"table=IMAGE, not {item!r}"
            )
        shown.append((int(value), Path(image)))
    vision_teach_dice(shown, Path(args.data_dir), table)


def cmd_vision_empty(args: argparse.Namespace) -> None:
    from .vision_cli import vision_empty

    vision_empty(Path(args.image), args.profile, Path(args.data_dir))


def _pixel(text: str) -> tuple[int, int]:
    try:
        x, y = (int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a pixel as X,Y (e.g. 412,300), got {text!r}") from None
    return (x, y)


def cmd_vision_calibrate(args: argparse.Namespace) -> None:
    from .vision_cli import vision_calibrate

    vision_calibrate(Path(args.image), args.colour, args.at, Path(args.palette), args.profile)


def cmd_markers(args: argparse.Namespace) -> None:
    from vision.markers import write_sheet

    write_sheet(Path(args.out), size_mm=args.size_mm)
    print(f"wrote {args.out}: print it at 100% scale (no 'fit to page') and measure one marker")


def cmd_serve(args: argparse.Namespace) -> None:
    from .server import serve

    serve(host=args.host, port=args.port, data_dir=Path(args.data_dir), settings=_settings(args))


def _settings_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", default="data")
    parser.add_argument("--settings", help="settings file (default: DATA_DIR/settings.toml, if there)")


def _settings(args: argparse.Namespace) -> Any:
    from .settings import load_settings

    if args.settings:
        return load_settings(Path(args.settings), required=True)
    return load_settings(Path(args.data_dir) / "settings.toml")


def cmd_record(args: argparse.Namespace) -> None:
    from hardware.camera import CameraError

    from .record import record
    from .service import camera_source

    camera = _settings(args).camera
    try:
        source = camera_source(camera)
    except CameraError as error:
        raise CliError(str(error)) from error
    if source is None:
        raise CliError("the settings say there is no camera ([camera] backend = none)")
    try:
        kept = record(source, Path(args.out_dir), args.seconds, fps=args.fps, timeout=camera.timeout_s)
    except CameraError as error:
        raise CliError(str(error)) from error
    if not kept:
        raise CliError(f"the camera ({source.name}) gave no frame in {args.seconds:g} s")
    print(f"wrote {kept} frames from {source.name} to {args.out_dir} (table-recording/1, no truth yet)")


def cmd_panel_test(args: argparse.Namespace) -> None:
    import queue
    import time

    from hardware.panel import Panel, load_pinmap, make_pin_factory

    settings = _settings(args)
    pinmap = load_pinmap(override=settings.panel.pinmap)
    with Panel(pinmap, make_pin_factory(settings.panel.pins)) as panel:
        lights = [(f"phase {i}", led) for i, led in enumerate(panel.phase_leds, start=1)]
        lights += [(name, led) for name, led in panel.beast_leds.items()]
        lights += [("status", panel.status_led)]
        for name, led in lights:
            print(f"lit: {name} LED ({led.pin})")
            led.on()
            time.sleep(0.5)
            led.off()
        panel.buzz(0.2)
        print(f"press the buttons (NEXT, UNDO, READ; hold UNDO or READ); {args.seconds:g} s")
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            try:
                event = panel.events.get(timeout=0.2)
            except queue.Empty:
                continue
            print(f"{event.button.upper()} {event.action}")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    sub.add_parser("games", help="the registered games").set_defaults(run=cmd_games)

    new = sub.add_parser("new", help="print the initial state of a new game")
    new.add_argument("--game", required=True)
    new.add_argument("--players", type=int, required=True)
    new.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    new.set_defaults(run=cmd_new)

    for name, run, text in (
        ("moves", cmd_moves, "the legal moves of a state"),
        ("apply", cmd_apply, "print the state after a move"),
        ("score", cmd_score, "the score sheet of a state"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("--game", required=True)
        p.add_argument("--state", required=True, metavar="FILE|-")
        if name == "apply":
            p.add_argument("--move", required=True, metavar="TEXT")
        p.set_defaults(run=run)

    vision = sub.add_parser("vision", help="read camera frames and score the reading")
    vsub = vision.add_subparsers(dest="vision_command", required=True, parser_class=Parser)
    ev = vsub.add_parser("eval", help="score vision against labelled recordings (table-recording/1)")
    ev.add_argument("path", help="a recording directory, or a directory of recordings")
    ev.add_argument("--json", action="store_true")
    ev.add_argument("--misses", action="store_true", help="list every miss")
    ev.add_argument(
        "--every",
        type=_positive,
        default=1,
        help="score only every k-th labelled frame (5: the real-dice frames the networks never saw)",
    )
    ev.add_argument("--palette", help="the players' palette file (see `vision calibrate`)")
    ev.add_argument("--data-dir", help="read with the empty boards kept there (see `vision empty`)")
    ev.set_defaults(run=cmd_vision_eval)
    rd = vsub.add_parser("read", help="read one image and print what is on the table")
    rd.add_argument("image")
    rd.add_argument("--profile", help="a board profile name (e.g. amharb-4p) or .toml file")
    rd.add_argument("--json", action="store_true")
    rd.add_argument("--debug-dir", help="write an annotated copy of the image here")
    rd.add_argument("--palette", help="the players' palette file (see `vision calibrate`)")
    rd.add_argument("--data-dir", help="read with the empty board kept there (see `vision empty`)")
    rd.add_argument("--full", help="the same view at full resolution: small dice are read from it")
    rd.set_defaults(run=cmd_vision_read)
    em = vsub.add_parser(
        "empty", help="keep a photo of the board with nothing on it, so its print is never a piece"
    )
    em.add_argument("image")
    em.add_argument("--profile", required=True, help="a board profile name (e.g. amharb-4p)")
    em.add_argument("--data-dir", default="data", help="the companion's data directory")
    em.set_defaults(run=cmd_vision_empty)
    te = vsub.add_parser(
        "teach", help="learn your pieces' colours and sizes from photos of each colour on the empty board"
    )
    te.add_argument(
        "pieces", nargs="+", help="COLOUR=IMAGE: a photo with every piece of that colour on the board"
    )
    te.add_argument("--profile", required=True, help="a board profile name (e.g. amharb-4p)")
    te.add_argument("--data-dir", default="data", help="the companion's data directory (its empty board)")
    te.set_defaults(run=cmd_vision_teach)
    td = vsub.add_parser("teach-dice", help="learn your dice's faces from photos of them showing each value")
    td.add_argument(
        "faces",
        nargs="+",
        help="VALUE=IMAGE: a photo of your dice all showing that value; table=IMAGE: the bare table "
        "or tray they are rolled on, no die in view (what the reader must not take for a die)",
    )
    td.add_argument("--data-dir", default="data", help="the companion's data directory")
    td.set_defaults(run=cmd_vision_teach_dice)
    cal = vsub.add_parser(
        "calibrate", help="measure a piece's colour in a photo and write it into the palette file"
    )
    cal.add_argument("image")
    cal.add_argument("--colour", required=True, help="the colour's name, e.g. red (new names are added)")
    cal.add_argument("--at", required=True, type=_pixel, help="a pixel on the piece, X,Y")
    cal.add_argument("--palette", default="data/palette.toml", help="the palette file to update")
    cal.add_argument("--profile", help="white-balance by this board's marker paper (a profile name or .toml)")
    cal.set_defaults(run=cmd_vision_calibrate)

    markers = sub.add_parser("markers", help="write the printable board-marker sheet (true scale)")
    markers.add_argument("--out", default="markers.pdf", help="FILE.pdf, FILE.png (300 dpi) or FILE.svg")
    markers.add_argument(
        "--size-mm", "--size", type=float, default=40.0, help="marker side in mm, as in the board profile"
    )
    markers.set_defaults(run=cmd_markers)

    serve = sub.add_parser("serve", help="run the companion: the page, the camera and the panel")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    _settings_args(serve)
    serve.set_defaults(run=cmd_serve)

    rec = sub.add_parser("record", help="save what the camera sees as a table-recording/1 recording")
    rec.add_argument("out_dir")
    rec.add_argument("--seconds", type=float, default=10.0)
    rec.add_argument("--fps", type=float, default=5.0, help="frames kept a second")
    _settings_args(rec)
    rec.set_defaults(run=cmd_record)

    pt = sub.add_parser("panel-test", help="light each LED in turn, then print the buttons pressed")
    pt.add_argument("--seconds", type=float, default=30.0)
    _settings_args(pt)
    pt.set_defaults(run=cmd_panel_test)

    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except (CliError, BadSetup, BadState, BadMoveText, IllegalMove, ValueError) as error:
        sys.stderr.write(f"companion {args.command}: {error}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
