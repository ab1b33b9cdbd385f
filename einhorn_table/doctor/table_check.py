"""The doctor's check of the table's file (``table.toml``): who plays at which station,
and the calibration it names."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from einhorn_table.calibration.paths import PROFILE_NAME
from einhorn_table.doctor.report import CheckResult, Status
from einhorn_table.rules import MatchState, RulesError, Setup, find_variant
from einhorn_table.stations.pin_map import PinMap
from einhorn_table.table.config import ConfigError, TableConfig, load_config
from einhorn_table.words import command_name

STEP = "docs/install.md step 6"


def check_table_file(path: Path, pin_map: PinMap | None, default_profile: Path | None = None,
                     *, home: Path | None = None, service: bool = True,
                     ) -> tuple[CheckResult, TableConfig | None]:
    """``path`` loads as the table's configuration, every player's station is in
    ``pin_map``, and the calibration it names exists (``play`` reads the one at
    ``default_profile``, the state directory's, where it names none; one in ``home``,
    the installer's home folder, the ``service`` of a Pi never sees)."""
    if not path.is_file():
        where = "" if path.is_absolute() else f" in {Path.cwd()}"
        needs = ("the table's service needs one" if service else
                 "play needs one (the demo does not)")
        return CheckResult(
            "table file", Status.SKIP,
            f"no {path}{where} yet: {needs}; copy {project_file('docs/table.example.toml')} "
            f"to it and edit it ({project_file('docs/install.md')} step 6)",
            essential=False,
        ), None
    try:
        config = load_config(path)
    except ConfigError as error:
        return CheckResult("table file", Status.FAIL, str(error), f"Fix it ({STEP})."), None
    names = ", ".join(f"{p.name} (station {p.station})" for p in config.players)
    try:  # the rules it plays by (a shipped variant or a house variant's file), as play starts
        MatchState(Setup.for_variant(find_variant(config.variant),
                                     [p.name for p in config.players], games=config.games))
    except RulesError as error:
        return CheckResult("table file", Status.FAIL, f"{path}: {error}",
                           f"Fix the variant or the players in it ({STEP})."), config
    # By number, not by count: a map may leave a station out (1, 2 and 4 wired).
    lacking = None if pin_map is None else pin_map.lacking(config.stations)
    if lacking is not None:
        words, count = lacking
        return CheckResult(
            "table file", Status.FAIL,
            f"{path}: {words}; play refuses to start, as {'its' if count == 1 else 'their'} "
            "buttons cannot be set up",
            "Give each player a station the pin map has, or wire and map one more.",
        ), config
    if config.calibration is None and default_profile is not None and default_profile.is_file():
        found = f"{path}: {names}; calibration {default_profile} (the state directory's)"
        if service and _in_home(default_profile, home):
            return CheckResult(
                "table file", Status.WARN,
                found + ", which only play started by you reads: the table's service keeps "
                "its own state directory and may not look into home folders",
                f"Calibrate again from the folder of {path}: {command_name()} calibrate "
                f"--fullscreen --out calibration.toml, then write calibration = "
                f'"calibration.toml" in {path} ({STEP}).',
                essential=False,
            ), config
        return CheckResult("table file", Status.OK, found), config
    if config.calibration is None:
        beside = path.parent / PROFILE_NAME  # (where calibrate saved it, told to name it)
        todo = (f"Name the calibration made beside it: add the line "
                f'calibration = "{PROFILE_NAME}" to {path} ({STEP}).' if beside.is_file()
                else f"Calibrate the table and name the profile in {path} ({STEP}).")
        return CheckResult(
            "table file", Status.WARN, f"{path}: {names}; no calibration named", todo,
            essential=False,
        ), config
    if not config.calibration.is_file():
        from einhorn_table.cli.calibrate import calibrate_command

        return CheckResult(
            "table file", Status.FAIL,
            f"{path}: its calibration {config.calibration} does not exist",
            f"Run {calibrate_command(path, config.calibration)}, or fix the path ({STEP}).",
        ), config
    return CheckResult(
        "table file", Status.OK, f"{path}: {names}; calibration {config.calibration}"
    ), config


def check_calibrated_players(result: CheckResult, profile: Path | None,
                             config: TableConfig | None, path: Path, again: str) -> CheckResult:
    """The profile line (``result``, of the calibration at ``profile``), a warning where
    that calibration measured no dice colour for a player the table's file (``config``,
    read from ``path``) seats: one added to it since, or skipped at the calibration. Play
    then tells that player's dice only by the colour the file names; ``again`` is the
    command that calibrates again."""
    from einhorn_table.calibration.profile import ProfileError, load_profile
    from einhorn_table.words import joined

    if result.status is not Status.OK or profile is None or config is None:
        return result
    try:
        measured = {p.name for p in load_profile(profile).players}
    except ProfileError:  # (the profile line says what is wrong with it)
        return result
    lacking = [p.name for p in config.players if p.name not in measured]
    if not lacking:
        return result
    whose = f"{lacking[0]}'s dice" if len(lacking) == 1 else "their dice"
    colour = "the colour" if len(lacking) == 1 else "the colours"
    return CheckResult(
        "profile", Status.WARN,
        f"{result.detail}; it measured no dice colour for {joined(lacking)}, who "
        f"{'sits' if len(lacking) == 1 else 'sit'} at the table in {path} (added since it "
        f"was made, or skipped then): the table tells {whose} only by {colour} {path} names",
        f"Calibrate again with everyone at the table ({joined([p.name for p in config.players])}"
        f"), each rolling their own dice when the screen names them: {again}.",
        essential=False,
    )


def project_file(name: str, here: Path | None = None) -> str:
    """The project's file ``name`` (``docs/table.example.toml``) as a path that works
    from the folder the doctor is run in (``here``): as it is from the project's own
    folder, the way there from one inside it, else the whole path; ``name`` as it is
    where the companion was installed without its docs."""
    found = Path(__file__).resolve().parents[2] / name
    if not found.is_file():
        return name
    here = (here or Path.cwd()).resolve()
    return str(found.relative_to(here)) if found.is_relative_to(here) else str(found)


def _in_home(profile: Path, home: Path | None) -> bool:
    """Whether ``profile`` lies in the home folder of the user running the doctor by hand
    (under systemd, ``$STATE_DIRECTORY`` is set and the service's own folder is read)."""
    if os.environ.get("STATE_DIRECTORY"):
        return False
    folder = (home or Path.home()).resolve()
    return folder != Path("/") and profile.resolve().is_relative_to(folder)


def check_names_shown(names: Sequence[str],
                      shows: Callable[[str], bool] | None = None) -> CheckResult | None:
    """Whether the screen has letters for every player's name (a font installed here
    with them, see einhorn_table/screen/fonts.py); None when there are no names."""
    if not names:
        return None
    if shows is None:
        import pygame

        from einhorn_table.screen.fonts import FontChooser

        pygame.font.init()
        shows = FontChooser.for_machine(pygame).shows
    boxes = [name for name in names if not shows(name)]
    if not boxes:
        return CheckResult("names", Status.OK, "the screen has the letters of every name")
    return CheckResult(
        "names", Status.WARN,
        f"no font here has every letter of {' and '.join(boxes)}: the screen would show "
        "boxes for the letters it lacks",
        "Install fonts with them (sudo apt install fonts-droid-fallback, or fonts-noto-cjk, "
        "for Chinese, Japanese and Korean), or write the name otherwise in table.toml.",
        essential=False,
    )
