"""Review of the third change (52ad46c..): the help opened while the camera is lost is
read whole, not under the camera-lost banner; a missing table's file gives a cp
command that works where it is run (another folder, a name with a space)."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from table_helpers import BLUE, RED, chord, controller, reading

from einhorn_table.ports import Button
from einhorn_table.screen.view_model import build_view
from einhorn_table.table.config import EXAMPLE, ConfigError, load_config
from einhorn_table.table.events import CameraLost, MotionStarted, Settled

W, E = Button.WUNSCH, Button.EINHORN
#: The camera-lost banner's colour (renderer._banner).
BANNER_RED = (150, 30, 30)


# ---------------------------------------------------------------- the help, camera lost


def _help_while_the_camera_is_lost() -> Any:
    c, _ = controller()
    for t, values, colour in ((0.0, [6, 6, 5], RED), (2.0, [1, 1, 2], BLUE)):
        c.on_tray(MotionStarted(t))
        c.on_tray(Settled(t + 1, reading(values, colour)))
    c.on_tray(CameraLost(5.0, "Failed to start camera: Device or resource busy"))
    c.on_gesture(chord(0, W, E, 9.0))  # Ana's turn: the help
    view = build_view(c, 9.5)
    assert view.banner.startswith("Camera lost") and view.help
    return view


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_help_opened_while_the_camera_is_lost_is_not_hidden_under_its_banner(
        monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """The hold of OK shows in the help only while the camera is lost, which is when
    the banner is up: the help's title and first lines were drawn under it."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    from einhorn_table.screen.renderer import Renderer

    pygame.display.init()
    pygame.font.init()
    view = _help_while_the_camera_is_lost()
    renderer = Renderer(pygame.Surface(size))
    drawn: list[tuple[str, Any]] = []
    original = renderer.text

    def text(words: str, *args: Any, **kwargs: Any) -> Any:
        rect = original(words, *args, **kwargs)
        drawn.append((words, rect))
        return rect

    renderer.text = text  # type: ignore[method-assign]
    renderer.draw(view)
    wanted = [view.help_title, *(line.gesture.split(" ")[0] for line in view.help)]
    helped = [(words, rect) for words, rect in drawn
              if any(words.startswith(w) for w in wanted)]
    assert any(words == "hold Einhorn (OK)" for words, _ in helped)
    assert [w for w, _ in helped if w == view.help_title] == [view.help_title]
    for words, rect in helped:  # no part of the banner lies over any of the help's words
        covered = [(x, y) for x in range(rect.left, rect.right, 2)
                   for y in range(rect.top, rect.bottom, 2)
                   if tuple(renderer.surface.get_at((x, y)))[:3] == BANNER_RED]
        assert not covered, (size, words)


# ---------------------------------------------------------------- a missing table's file


def _cp_command(message: str) -> list[str]:
    found = re.search(r"\(cp (.+?)\) and write", message)
    assert found is not None, message
    return ["cp", *shlex.split(found.group(1))]


def test_a_missing_table_file_gives_a_cp_that_works_from_another_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`/opt/einhorn-table/.venv/bin/einhorn-table play "our table.toml"` run from the
    home folder: the example is not in ./docs there, and the name has a space."""
    folder = tmp_path / "home folder"
    folder.mkdir()
    monkeypatch.chdir(folder)
    with pytest.raises(ConfigError) as raised:
        load_config(Path("our table.toml"))
    command = _cp_command(str(raised.value))
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, (command, done.stderr)
    assert (folder / "our table.toml").read_text(encoding="utf-8") == \
        (REPO / EXAMPLE).read_text(encoding="utf-8")


def test_in_the_project_s_folder_the_cp_is_the_install_guide_s(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    with pytest.raises(ConfigError) as raised:
        load_config(Path("no such table.toml"))
    assert _cp_command(str(raised.value)) == ["cp", EXAMPLE, "no such table.toml"]
