"""Make the calibration screenshots of docs/screenshots/ (calibration-*.png) again.

Run: PYTHONPATH=. python scripts/calibration_screenshots.py [DIR] [--docs]

It runs the guided calibration (``einhorn-table calibrate``) headless on the synthetic
table (seed 3, four players), the autopilot pressing the buttons, with the dice of test
roll 3 entered with ✗ though read right (so that the entry screen shows), in a
temporary folder whose table.toml names the calibration (as a table set up with the
install guide does). ``--screenshots`` saves each screen as it was last shown; of
those, the ones the docs show are kept under the docs' names (``calibration-NAME.png``),
reduced to a palette as the repository keeps them. A screen shown twice (the sizes,
again after the autopilot closed its help) is kept as first shown, as the docs have it.
Without DIR they go to a new temporary folder (printed); ``--docs`` writes them into
docs/screenshots/.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

#: The screens docs/screenshots/ keeps, each as ``calibration-NAME.png`` (calibration/
#: README.md shows eight of them).
DOCS_SCREENS = (
    "tray", "corners-1", "light-settling", "light", "reference", "colours-1-roll",
    "colours-4", "sizes", "sizes-help", "check-3", "check-3-enter", "result", "saved",
)
DOCS_FOLDER = Path(__file__).resolve().parent.parent / "docs" / "screenshots"

#: The table calibrated: the synthetic one of calibration/synth.toml, its players named
#: as the screens show them, its calibration named by the table's file.
TABLE_TOML = """\
camera = "synth:seed=3,players=4"
calibration = "calibration.toml"
""" + "".join(
    f'\n[[player]]\nname = "Player {k}"\nstation = {k}\ndice = "{colour}"\n'
    for k, colour in enumerate(("white", "red", "blue", "green"), start=1))

#: The test roll whose dice are entered by hand (✗), as the docs show the entry screen.
ENTERED_ROLL = 3

_SHOT = re.compile(r"calibration-(\d+)-(.+)\.png")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("folder", type=Path, nargs="?", default=None,
                        help="where to save them (default: a new temporary folder)")
    parser.add_argument("--docs", action="store_true",
                        help="save them into docs/screenshots/, over the ones there")
    args = parser.parse_args(argv)
    if args.docs and args.folder is not None:
        parser.error("give either a folder or --docs, not both")
    folder = DOCS_FOLDER if args.docs else (
        args.folder or Path(tempfile.mkdtemp(prefix="einhorn-calibration-shots-")))
    with tempfile.TemporaryDirectory(prefix="einhorn-calibrating-") as work:
        shots = calibrate_with_screenshots(Path(work))
        saved = keep_docs_screens(shots, folder.resolve())
    print(f"saved {len(saved)} screenshots in {folder}:")
    for path in saved:
        print(f"  {path.name}")
    return 0


def calibrate_with_screenshots(work: Path) -> list[Path]:
    """Calibrate the synthetic table in ``work`` (its table.toml, its calibration) with
    the autopilot, headless; the screenshots ``--screenshots`` saved, in order."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"  # (no window, whatever the desktop)
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    from einhorn_table.cli import main as einhorn_table

    (work / "table.toml").write_text(TABLE_TOML, encoding="utf-8")
    shots = work / "shots"
    here = Path.cwd()
    os.chdir(work)  # table.toml as the screen names it ("table.toml names it: ...")
    try:
        status = einhorn_table(["calibrate", "--size", "800x480", "--autopilot",
                                "--autopilot-enter", str(ENTERED_ROLL),
                                "--screenshots", str(shots)])
    finally:
        os.chdir(here)
    if status != 0:
        raise SystemExit(f"calibrating stopped ({status}): no screenshots made")
    return sorted(shots.glob("calibration-*.png"), key=_number)


def keep_docs_screens(shots: Iterable[Path], folder: Path) -> list[Path]:
    """Each screen the docs show, its first screenshot (``shots`` in order), saved in
    ``folder`` under the docs' name as a palette PNG; a screen missing is an error that
    names it."""
    first: dict[str, Path] = {}
    for path in shots:
        match = _SHOT.fullmatch(path.name)
        if match is not None:
            first.setdefault(match.group(2), path)
    missing = [name for name in DOCS_SCREENS if name not in first]
    if missing:
        raise SystemExit(f"the calibration showed no {', '.join(missing)} screen: "
                         f"it showed {', '.join(first)}")
    folder.mkdir(parents=True, exist_ok=True)
    return [save_small(first[name], folder / f"calibration-{name}.png")
            for name in DOCS_SCREENS]


def save_small(source: Path, target: Path) -> Path:
    """``source`` as the repository keeps screenshots: 256 colours, no dithering."""
    try:
        from PIL import Image  # (Pillow: installed with the dev tools, by matplotlib)
    except ImportError:
        raise SystemExit("this script needs Pillow: .venv/bin/pip install pillow") from None

    with Image.open(source) as picture:
        small = picture.convert("RGB").quantize(method=Image.Quantize.FASTOCTREE,
                                                dither=Image.Dither.NONE)
    small.save(target, optimize=True)
    return target


def _number(path: Path) -> int:
    match = _SHOT.fullmatch(path.name)
    return int(match.group(1)) if match is not None else 0


if __name__ == "__main__":
    sys.exit(main())
