"""The demo's dice: a person at the keyboard gets new dice each run, and the terminal
says the seed that throws them again; bots alone, and ``--seed``, keep their seed
(SDL's dummy video driver, key events posted as a keyboard would)."""

from __future__ import annotations

import os
import random
import re
import shlex
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")

from test_demo_review import at_the_keyboard, quit_demo, steps_until, tap  # noqa: E402

from einhorn_table.adapters.synth_source import SynthSource  # noqa: E402
from einhorn_table.cli import build_parser, main  # noqa: E402
from einhorn_table.cli.demo import (  # noqa: E402
    BOTS_SEED,
    FRESH_SEEDS,
    demo_seed,
    new_match_command,
)
from einhorn_table.table.loop import TableLoop  # noqa: E402

DEMO = ["demo", "--fast", "--size", "400x240", "--players", "2"]
SAME_DICE = re.compile(r"^This run's dice come from seed (\d+) \(a new one each run\); to "
                       r"throw the same dice again: (.*)$", re.MULTILINE)


@pytest.fixture(autouse=True)
def dummy_display(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("EINHORN_COMMAND", raising=False)
    yield


def thrown_dice(monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[int, ...]], list[int]]:
    """The faces each throw of the synthetic tray shows, and each camera's seed."""
    thrown: list[tuple[int, ...]] = []
    seeds: list[int] = []
    roll, open_ = SynthSource.roll, SynthSource._open

    def rolled(self: SynthSource, *args: object, **kwargs: object) -> tuple[int, ...]:
        faces = roll(self, *args, **kwargs)  # type: ignore[arg-type]
        thrown.append(faces)
        return faces

    def opened(self: SynthSource) -> None:
        seeds.append(self.seed)
        open_(self)

    monkeypatch.setattr(SynthSource, "roll", rolled)
    monkeypatch.setattr(SynthSource, "_open", opened)
    return thrown, seeds


def first_throws(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                 words: Sequence[str]) -> tuple[list[tuple[int, ...]], str, str]:
    """Ana throws for who starts, Ben (a bot) throws too, and she leaves with ESC: the
    two throws' faces, and what the terminal said (out, err)."""
    thrown, _ = thrown_dice(monkeypatch)

    def person(loop: TableLoop, done: Callable[[], bool]) -> None:
        tap(loop, " ")
        steps_until(loop, lambda: len(thrown) >= 2)
        quit_demo(loop)

    at_the_keyboard(monkeypatch, person)
    capsys.readouterr()
    assert main(list(words)) == 0
    out, err = capsys.readouterr()
    return thrown[:2], out, err


def test_a_person_at_the_keyboard_gets_new_dice_and_the_seed_that_throws_them_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Before, every demo without --seed played seed 1: the same first roll each time."""
    said = []
    for run in ("first", "second"):
        throws, _, err = first_throws(monkeypatch, capsys, [
            *DEMO, "--bots", "1", "--state-dir", str(tmp_path / run)])
        found = SAME_DICE.search(err)
        assert found, f"the terminal does not say the seed:\n{err}"
        assert int(found.group(1)) in FRESH_SEEDS and int(found.group(1)) != BOTS_SEED
        said.append((int(found.group(1)), found.group(2), throws))
    (seed, again, throws), (other_seed, _, _) = said
    # (Drawn from a million: the two alike once in a million runs.)
    assert seed != other_seed
    words = shlex.split(again)
    while "=" in words[0]:  # (SDL_VIDEODRIVER=dummy, headless as this run)
        words.pop(0)
    assert words[0] == "einhorn-table"
    assert words[1:].count("--seed") == 1 and words[words.index("--seed") + 1] == str(seed)
    assert "--bots" in words and words[words.index("--bots") + 1] == "1"
    # Run as printed (in a new state directory: the first one's match is unfinished and
    # a second run would ask about it first), the same dice fall again.
    words[words.index("--state-dir") + 1] = str(tmp_path / "again")
    repeated, _, err = first_throws(monkeypatch, capsys, words[1:])
    assert repeated == throws
    assert not SAME_DICE.search(err)  # (--seed given: nothing to say)


@pytest.mark.parametrize(("words", "seed"), [
    (["--bots", "all"], BOTS_SEED),
    (["--bots", "all", "--seed", "5"], 5),
    (["--bots", "1", "--seed", "5"], 5),
])
def test_bots_alone_and_a_seed_given_keep_their_seed(
        words: list[str], seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _, seeds = thrown_dice(monkeypatch)
    at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    assert main([*DEMO, *words, "--state-dir", str(tmp_path / "state")]) == 0
    assert seeds == [seed]
    assert not SAME_DICE.search(capsys.readouterr().err)


def test_going_on_with_a_match_draws_new_dice_and_names_no_seed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The "Go on with it" line names no seed (the match goes on, not from its start);
    run as printed, it goes on, and says no "same dice again" line (a new match of that
    seed would not be the match gone on with)."""
    state = tmp_path / "state"
    _, out, _ = first_throws(monkeypatch, capsys, [*DEMO, "--bots", "1", "--state-dir",
                                                  str(state)])
    line = next(line for line in out.splitlines() if line.startswith("Go on with it: "))
    assert line.startswith(f"Go on with it: einhorn-table demo --continue --state-dir {state} "
                           "--bots Ben")
    assert "--seed" not in line
    _, seeds = thrown_dice(monkeypatch)
    runs = at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    assert main([*DEMO, "--continue", "--bots", "1", "--state-dir", str(state)]) == 0
    err = capsys.readouterr().err
    inputs = runs[0].controller.match.inputs  # (gone on with: Ana's throw is in it)
    assert len(runs) == 1 and inputs and inputs[0].player == "Ana"
    assert len(seeds) == 1 and seeds[0] in FRESH_SEEDS and seeds[0] != BOTS_SEED
    assert not SAME_DICE.search(err)


def test_the_seed_is_drawn_only_where_none_is_given_and_a_person_plays() -> None:
    fresh = random.Random(3)
    assert demo_seed(7, True, fresh) == 7
    assert demo_seed(None, False, fresh) == BOTS_SEED
    drawn = [demo_seed(None, True, fresh) for _ in range(50)]
    assert all(seed in FRESH_SEEDS for seed in drawn) and len(set(drawn)) > 40


def test_a_new_match_command_names_a_seed_only_where_given(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    drawn = new_match_command(build_parser().parse_args(["demo", "--continue"]))
    assert "--seed" not in drawn and "None" not in drawn
    given = new_match_command(build_parser().parse_args(["demo", "--continue", "--seed", "1"]))
    assert given.endswith("demo --seed 1")


def test_the_same_seed_throws_the_same_dice_however_long_the_person_waits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A person takes their own time before SPACE: the camera shows the tray meanwhile.
    Before, each frame shown drew from the dice's own stream, so the seed the terminal
    said threw other dice unless SPACE came at the very same frame."""
    thrown, _ = thrown_dice(monkeypatch)
    firsts = []
    for run, waited in (("prompt", 0), ("slow", 37)):

        def person(loop: TableLoop, done: Callable[[], bool], waited: int = waited) -> None:
            for _ in range(waited):
                loop.step()
            tap(loop, " ")
            steps_until(loop, lambda: len(thrown) >= 1)
            quit_demo(loop)

        thrown.clear()
        at_the_keyboard(monkeypatch, person)
        assert main([*DEMO, "--bots", "1", "--seed", "4321",
                     "--state-dir", str(tmp_path / run)]) == 0
        firsts.append(thrown[0])
    capsys.readouterr()
    assert firsts[0] == firsts[1]


@pytest.mark.parametrize("answer", ["go on", "new"])
def test_the_seed_is_said_only_once_a_new_match_is_chosen_at_the_question(
        answer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Asked on the screen whether to go on with a match left unfinished: the "same dice
    again" line comes only where the person starts a new match (going on, a new match
    of that seed would not be the match they played)."""
    from einhorn_table.cli import table_app
    from einhorn_table.table.resume import Choice

    state = tmp_path / "state"
    first_throws(monkeypatch, capsys, [*DEMO, "--bots", "1", "--state-dir", str(state)])
    chosen = Choice.CONTINUE if answer == "go on" else Choice.NEW
    monkeypatch.setattr(table_app, "ask_to_go_on", lambda *_: chosen)
    at_the_keyboard(monkeypatch, lambda loop, done: quit_demo(loop))
    assert main([*DEMO, "--bots", "1", "--state-dir", str(state)]) == 0
    said = SAME_DICE.search(capsys.readouterr().err) is not None
    assert said is (answer == "new")
