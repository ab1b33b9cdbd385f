"""Make docs/screenshots/: one PNG of each screen of the companion, from a bot match.

Run: PYTHONPATH=. SDL_VIDEODRIVER=dummy python scripts/screenshots.py [--size 800x480]
[--names Alexandra,Benedikt,...] [DIR]

Bots play a match on the synthetic table with a fake clock; the first good
moment of each screen is saved under its name. The help overlay and the lost
camera are shown by pressing the help chord and by cutting the camera for a
moment, as a player and a loose cable would. The history screen is opened at the
final standings (+), over a history of a few earlier bot matches; the resume prompt
is drawn for the match as it stood in its third game.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import tempfile
from copy import deepcopy
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pygame

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.history_log import HistoryRecorder
from einhorn_table.adapters.synth_source import SynthSource
from einhorn_table.adapters.vision_tray import VisionTray, make_reader, make_watcher
from einhorn_table.cli.table_app import NoControls, direct_performer, throw_into
from einhorn_table.history import MatchStore, TableLog
from einhorn_table.history.view import history_line, history_summary
from einhorn_table.ports import Button, Gesture, GestureKind
from einhorn_table.rules import EINHORN, Match, Roll, Setup, StartRoll, TiebreakRoll
from einhorn_table.screen.renderer import Renderer
from einhorn_table.screen.resume_view import resume_view
from einhorn_table.screen.view_model import ScreenKind, ScreenView
from einhorn_table.simulation.simulate import play_recorded
from einhorn_table.simulation.strategies import make_strategy
from einhorn_table.table.bots import BotDriver
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import CameraBack, CameraLost, MotionStarted, Settled
from einhorn_table.table.loop import TableLoop
from einhorn_table.table.resume import Interrupted, ResumePrompt
from einhorn_table.vision.results import DieReading, FrameReading
from einhorn_table.vision.synth import DICE_PALETTE_NAMES

WANTED = ("start_rolls", "turn", "turn_called", "result", "doubt", "enter_dice",
          "counterparty", "auction", "auction_reveal", "topup", "game_end", "final",
          "help", "camera_lost", "resume", "history")


class SetClock:
    """The history's wall clock, set by hand (earlier matches were played on earlier days)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 22, 19, 40, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


#: The bots' strategies, seat by seat (round again from the fifth seat).
STYLES = ("odds", "bidder", "random", "odds")


def earlier_matches(store: MatchStore, names: list[str], wall: SetClock, count: int) -> None:
    """Bot matches kept as the table keeps them, a week apart, each throw with its dice."""
    dice = {name: DICE_PALETTE_NAMES[i] for i, name in enumerate(names)}
    today = wall.now
    for k in range(count):
        wall.now = today - timedelta(days=7 * (count - k), hours=k)
        rng = random.Random(100 + k)
        played = play_recorded(Setup.for_variant(EINHORN, names, games=6),
                               [make_strategy(STYLES[i % 4]) for i in range(len(names))],
                               rng)
        recorder = store.begin(played.setup)
        for item in played.inputs:
            if isinstance(item, StartRoll | Roll | TiebreakRoll):
                item = dataclasses.replace(item, extra={"dice_color": dice[item.player]})
            recorder.append(item)
    wall.now = today


def moment(view: ScreenView) -> str | None:
    """Which screenshot ``view`` makes, if it is a good moment for one."""
    kind = view.kind
    if view.help or view.banner or view.notice:
        return None
    if kind is ScreenKind.TURN:
        if view.call_locked:
            return None  # (the dice already moving: the turn as it asks for the call)
        if any(f.progress < 1 for f in view.flows):
            return None  # (the last roll's stones still flying over the screen)
        return "turn_called" if view.call is not None else "turn"
    if kind is ScreenKind.RESULT:
        good = view.photo is not None and any(f.progress > 0.45 for f in view.flows)
        return "result" if good and len(view.lines) >= 2 else None
    if kind is ScreenKind.DOUBT:
        return "enter_dice" if view.entry else "doubt"
    if kind is ScreenKind.AUCTION:
        return "auction_reveal" if view.lines else (
            "auction" if any(p.status == "done" for p in view.players) else None)
    if kind is ScreenKind.COUNTERPARTY:
        return "counterparty" if view.chosen > 0 else None
    if kind is ScreenKind.TOPUP:
        return None  # (staged: see owner_calling)
    return kind.value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path, nargs="?", default=Path("docs/screenshots"))
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--names", default="Ana,Ben,Cem,Dora",
                        help="the players, comma separated (six long names check the layouts)")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode((width, height))
    renderer = Renderer(surface)
    clock = FakeClock(0.0)
    names = [name.strip() for name in args.names.split(",")]
    camera = SynthSource(clock, seed=args.seed, players=len(names), size=(480, 360))
    camera.open()
    colours = camera.table.player_colors
    tray = VisionTray(camera, make_watcher(), make_reader(), clock)
    setup = Setup.for_variant(EINHORN, names, games=4)
    work = Path(tempfile.mkdtemp(prefix="einhorn-shots-"))
    wall = SetClock()
    store = MatchStore(work, now=wall)
    earlier_matches(store, names, wall, 5)
    recorder, match_id = HistoryRecorder.begin(TableLog(store), setup)
    seats = [Seat(n, colours[i], DICE_PALETTE_NAMES[i]) for i, n in enumerate(names)]
    controller = TableController(Match(setup), recorder, seats, recorder,
                                 archive=lambda: history_summary(store))
    strategies = [make_strategy(STYLES[i % 4]) for i in range(len(names))]
    bots = BotDriver(frozenset(range(len(names))), strategies, random.Random(args.seed), pace=0.35,
                     linger=8.5)
    loop = TableLoop(controller, tray, NoControls(), clock, None, bots,
                     direct_performer(controller, throw_into(camera), clock),
                     tray_idle=lambda: not camera.frames_queued)
    args.folder.mkdir(parents=True, exist_ok=True)
    saved: set[str] = set()
    helped = lost = wrong = topped = False
    while not controller.match.over or "final" not in saved:
        view = loop.step()
        name = moment(view)
        if name is not None and name not in saved and name in WANTED:
            renderer.draw(view)
            pygame.image.save(surface, str(args.folder / f"{name}.png"))
            saved.add(name)
        if not helped and name == "turn" and controller.match.state.game >= 2:
            helped = True
            player = controller.match.state.to_act or 0
            controller.on_gesture(Gesture(player, GestureKind.CHORD,
                                          (Button.WUNSCH, Button.EINHORN), clock.now))
            renderer.draw(_view(controller, clock.now))
            pygame.image.save(surface, str(args.folder / "help.png"))
            saved.add("help")
            controller.on_gesture(Gesture(player, GestureKind.CHORD,
                                          (Button.WUNSCH, Button.EINHORN), clock.now))
        if not lost and "help" in saved and name == "turn":
            lost = True
            controller.on_tray(CameraLost(clock.now, "no frames for 2 s"))
            renderer.draw(_view(controller, clock.now))
            pygame.image.save(surface, str(args.folder / "camera_lost.png"))
            saved.add("camera_lost")
            controller.on_tray(CameraBack(clock.now))
        state = controller.match.state
        if not wrong and name == "turn_called" and "result" in saved and not camera.frames_queued:
            wrong = True  # the roller grabs the neighbour's dice
            roller = state.to_act or 0
            other = colours[(roller + 1) % len(names)]
            # The reader's reading is stood in for by the synthetic table's truth here,
            # so that this screen shows a clean reading of the wrong dice.
            frame = camera.table.still((2, 4, 6), colors=[other] * 3)
            truth = FrameReading(tuple(
                DieReading(tuple(float(v) for v in d.box), d.value, 0.93, d.color)  # type: ignore[arg-type]
                for d in frame.dice))
            controller.on_tray(MotionStarted(clock.now))
            controller.on_tray(Settled(clock.now, truth, frame.image))
            renderer.draw(_view(controller, clock.now))
            pygame.image.save(surface, str(args.folder / "doubt.png"))
            saved.add("doubt")
        if "resume" not in saved and name == "turn" and state.game >= 3:
            # The plug is pulled here; at the next start the table asks.
            row = store.get(match_id)
            prompt = ResumePrompt(Interrupted(match_id, history_line(row).date,
                                              controller.match, tuple(seats)), names)
            renderer.draw(resume_view(prompt, clock.now))
            pygame.image.save(surface, str(args.folder / "resume.png"))
            saved.add("resume")
        if not topped and view.kind is ScreenKind.TOPUP:
            topped = True  # a player moves two stones from the stash
            rich = max(state.owing(), key=lambda i: state.stash[i])
            for _ in range(2):
                controller.on_gesture(Gesture(rich, GestureKind.TAP, (Button.WUNSCH,),
                                              clock.now))
            renderer.draw(_view(owner_calling(controller, clock.now), clock.now))
            pygame.image.save(surface, str(args.folder / "topup.png"))
            saved.add("topup")
        if loop.steps > 60000:
            break
    if controller.match.over:  # + at the final standings: the match history
        controller.on_gesture(Gesture(0, GestureKind.TAP, (Button.WUNSCH,), clock.now))
        renderer.draw(_view(controller, clock.now))
        pygame.image.save(surface, str(args.folder / "history.png"))
        saved.add("history")
    print("saved:", ", ".join(sorted(saved)))
    print("missing:", ", ".join(sorted(set(WANTED) - saved)) or "none")


class _Unkept:
    """A recorder that keeps nothing (for a moment staged beside the match)."""

    def append(self, item: object) -> None:
        pass

    def close(self) -> None:
        pass


def owner_calling(controller: TableController, now: float) -> TableController:
    """The top-ups as docs/screens.md shows them: the unicorn owner done with their own
    top-up (OK) and calling Wunsch while the others still count. Staged on a copy of the
    controller, so that the bots' match, and every later screenshot, stays as it was."""
    copy = dataclasses.replace(controller, match=deepcopy(controller.match),
                               recorder=_Unkept(), drafts=dict(controller.drafts),
                               history=list(controller.history))
    owner = copy.match.state.unicorn
    assert owner is not None
    for button in (Button.EINHORN, Button.WUNSCH):  # done (+0), then the call
        copy.on_gesture(Gesture(owner, GestureKind.TAP, (button,), now))
    return copy


def _view(controller: TableController, now: float) -> ScreenView:
    from einhorn_table.screen.view_model import build_view

    return build_view(controller, now)


if __name__ == "__main__":
    main()
