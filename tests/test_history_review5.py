"""The match history as a family keeps it for years: a history folder the person at the
terminal may not write or read (the table's service's own, a card mounted read-only), a
spreadsheet export saved again by German Excel, and a club's year in the stash chart."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from history_helpers import bot_match, open_store
from test_history_review3 import _as_a_user

import einhorn_table.cli.history as history_cli
from einhorn_table.cli import main
from einhorn_table.history import MatchStore
from einhorn_table.history.stats import gather
from einhorn_table.rules import Match


def history(state: Path, *args: str) -> int:
    return main(["history", "--state-dir", str(state), *args])


def _keep(store: MatchStore, match: Match) -> str:
    recorder = store.begin(match.setup)
    for item in match.record:
        recorder.append(item)
    return recorder.match_id


# --- a history folder that may not be written or read ------------------------------------


def _as_the_pi_user(args: list[str], **environ: str) -> subprocess.CompletedProcess[str]:
    """`einhorn-table ARGS` run by a user whom chmod stops, as `pi` is stopped at the
    service's folder."""
    folder = Path(args[args.index("--state-dir") + 1])
    probe = subprocess.run(_as_a_user(["test", "-w", str(folder)]), check=False)
    if probe.returncode != 1:
        pytest.skip("cannot run a command here that chmod stops")
    env = {key: value for key, value in os.environ.items() if key != "STATE_DIRECTORY"}
    env.update(PYTHONPATH=str(REPO), EINHORN_COMMAND="einhorn-table", **environ)
    return subprocess.run(_as_a_user([sys.executable, "-m", "einhorn_table", *args]),
                          capture_output=True, text=True, env=env, timeout=120, check=False)


@pytest.fixture
def kept(tmp_path: Path) -> Iterator[Path]:
    """A history of two matches, whose folder the test locks; unlocked afterwards."""
    folder = tmp_path / "einhorn-table"
    with open_store(folder) as store:
        _keep(store, bot_match(1))
        _keep(store, bot_match(2))
    yield folder
    folder.chmod(0o700)  # (first: a folder of mode 000 may not be listed but by root)
    for path in folder.iterdir():
        path.chmod(0o700)


def _lock(folder: Path, mode: int = 0o555) -> None:
    for path in folder.iterdir():
        path.chmod(0o444)
    folder.chmod(mode)


def test_practice_on_a_history_that_may_not_be_written_says_who_may(kept: Path) -> None:
    _lock(kept)
    marked = _as_the_pi_user(["history", "--state-dir", str(kept), "practice", "2"])
    assert marked.returncode == 1
    said = marked.stderr
    # It said "Everything saved before this is safe ... then restart the table": the
    # table's words for a full card in the middle of a match, no help here.
    assert "restart the table" not in said
    # Then "It belongs to another user, or lies on a card mounted read-only": neither
    # is so (the folder is this user's, on a disk that may be written): its mode is.
    assert f"match 2 was not marked practice: you may not write in the history's folder {kept}"\
        f": its permissions forbid even you, its owner, to write in it (`ls -ld {kept}` shows " \
        f"them). `chmod u+rwx {kept}` gives them back." in said
    assert "Traceback" not in said


def test_the_service_s_folder_gives_the_command_as_the_service_s_user(kept: Path) -> None:
    """The Pi's service keeps the history in its own folder (STATE_DIRECTORY), which
    only its user may change: the command to run is that one, with sudo -u einhorn."""
    _lock(kept)
    state = ["history", "--state-dir", str(kept)]
    undone = _as_the_pi_user([*state, "practice", "2", "--undo"], STATE_DIRECTORY=str(kept))
    assert undone.returncode == 1 and "restart the table" not in undone.stderr
    assert "match 2 was not counted again" in undone.stderr
    assert (f"`sudo -u einhorn einhorn-table history --state-dir {kept} practice 2 --undo`"
            in undone.stderr)
    brought = _as_the_pi_user([*state, "import", "match.jsonl"], STATE_DIRECTORY=str(kept))
    assert brought.returncode == 1 and "nothing was imported" in brought.stderr
    # (copied to /tmp first: the service's user may not read the person's home)
    assert (f"`cp -- {Path.cwd() / 'match.jsonl'} /tmp/ && sudo -u einhorn einhorn-table "
            f"history --state-dir {kept} import /tmp/match.jsonl`" in brought.stderr)


def test_a_folder_the_user_may_not_read_is_said_so_not_a_traceback(kept: Path) -> None:
    """`pi` reading /var/lib/einhorn-table (0750, the service's user's) got a Python
    traceback (PermissionError) from every history command."""
    _lock(kept, 0o000)
    state = ["history", "--state-dir", str(kept)]
    listed = _as_the_pi_user([*state, "list", "--all"], STATE_DIRECTORY=str(kept))
    assert listed.returncode == 1 and "Traceback" not in listed.stderr
    assert listed.stderr.startswith(
        f"einhorn-table: you may not read the history's folder {kept}. It is the table's "
        "service's folder")
    assert (f"`sudo -u einhorn einhorn-table history --state-dir {kept} list --all`"
            in listed.stderr)
    # An export as that user goes to the file through the shell, which `pi` writes.
    exported = _as_the_pi_user([*state, "export", "1", "-o", "my match.jsonl"],
                               STATE_DIRECTORY=str(kept))
    assert "export 1 > 'my match.jsonl'`" in exported.stderr
    elsewhere = _as_the_pi_user([*state, "stats"])
    assert elsewhere.returncode == 1 and "Traceback" not in elsewhere.stderr
    # (It said "It belongs to another user": the folder is this user's, mode 000.)
    assert f"`chmod u+rwx {kept}` gives them back" in elsewhere.stderr
    assert "sudo" not in elsewhere.stderr and "another user" not in elsewhere.stderr


def test_practice_refused_by_the_store_is_explained_without_capsh(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The same words where SQLite itself refuses to write (a card mounted read-only:
    root may not write there either)."""
    import sqlite3

    with open_store(tmp_path) as store:
        _keep(store, bot_match(1))
    real = history_cli.MatchStore

    def mounted_read_only(folder: Path, **kwargs: Any) -> MatchStore:
        def connect(path: str) -> sqlite3.Connection:
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return real(folder, **{**kwargs, "connect": connect})

    monkeypatch.setattr(history_cli, "MatchStore", mounted_read_only)
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    assert history(tmp_path, "practice", "1") == 1
    said = capsys.readouterr().err
    assert "restart the table" not in said and "match 1 was not marked practice" in said
    assert f"`sudo -u einhorn einhorn-table history --state-dir {tmp_path} practice 1`" in said


# --- a spreadsheet export saved again by a spreadsheet ------------------------------------


def _resaved(csv_text: str, separator: str, encoding: str, bom: bytes = b"") -> bytes:
    rows = list(csv.reader(io.StringIO(csv_text)))
    out = io.StringIO()
    csv.writer(out, delimiter=separator, lineterminator="\r\n",
               quoting=csv.QUOTE_MINIMAL).writerows(rows)
    return bom + out.getvalue().encode(encoding, errors="replace")


@pytest.mark.parametrize(("how", "separator", "encoding", "bom"), [
    ("German Excel, CSV UTF-8", ";", "utf-8", b"\xef\xbb\xbf"),
    ("LibreOffice, German", ";", "utf-8", b""),
    ("German Excel, plain CSV (Windows letters)", ";", "cp1252", b""),
    ("Excel, CSV in Windows letters", ",", "cp1252", b""),
    ("Excel, Unicode text", "\t", "utf-16", b""),
])
def test_a_spreadsheet_export_saved_again_is_known_as_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        how: str, separator: str, encoding: str, bom: bytes) -> None:
    state = tmp_path / "state"
    with open_store(state) as store:
        # "Zoë": her letter is another byte in Windows' letters, which is no UTF-8.
        match_id = _keep(store, bot_match(1, ("Zoë", "Ana", "Ben")))
    sheet = tmp_path / "match.csv"
    assert history(state, "export", match_id, "--format", "csv", "-o", str(sheet)) == 0
    resaved = tmp_path / "resaved.csv"
    resaved.write_bytes(_resaved(sheet.read_text(encoding="utf-8"), separator, encoding, bom))
    capsys.readouterr()
    assert history(tmp_path / "other", "import", str(resaved)) == 1, how
    said = capsys.readouterr().err
    assert said.startswith(f"{resaved}: this is a match exported for a spreadsheet"), said
    assert "export ID -o FILE" in said
    assert "JSON" not in said and "not a text file" not in said


# --- a club's year in the stash chart -------------------------------------------------------


def test_the_stash_chart_of_a_club_s_year_stays_readable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty players' lines, with their legend over them, cut off at the bottom, were
    no chart at all: the eight who played most are drawn, the legend beside them."""
    pytest.importorskip("matplotlib")
    from einhorn_table.history import charts

    club = [f"Player {n}" for n in range(1, 13)]
    with open_store(tmp_path / "state") as store:
        for seed, seats in enumerate((club[:6], club[6:], club[:3], club[3:6])):
            _keep(store, bot_match(seed, tuple(seats)))
        stats = gather(store)
    assert len(stats.players) == 12
    figures: list[Any] = []
    real_save = charts._save

    def keeping(plt: Any, fig: Any, path: Path) -> Path:
        written = real_save(plt, fig, path)
        figures.append(fig)
        return written

    monkeypatch.setattr(charts, "_save", keeping)
    charts.write_charts(stats, tmp_path / "charts")
    stash = figures[0]
    ax = stash.axes[0]
    drawn = [line.get_label() for line in ax.get_lines()]
    assert len(drawn) == 8
    assert set(club[:6]) <= {name.split(" (")[0] for name in drawn}  # (they played twice)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(stash).get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    plot = ax.get_window_extent(renderer)
    page = stash.bbox
    assert legend.x0 >= plot.x1  # beside the lines, not over them
    assert legend.y0 >= page.y0 and legend.x1 <= page.x1  # and on the page, all of it
    notes = " ".join(text.get_text() for text in stash.texts)
    assert "The 8 players with the most matches" in notes

