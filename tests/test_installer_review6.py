"""What a parent installing the table meets (sixth review): ``./start`` on a machine
that is not online, or whose Python lacks its venv module, says what to do instead of
ending on pip's or apt's own words; and the service's unit is kept up to date."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_hardware_systemd_unit import UNIT, directives

ROOT = Path(__file__).resolve().parents[1]

needs_sh = pytest.mark.skipif(shutil.which("sh") is None, reason="no POSIX sh here")

# A stand-in for the system's python3: the version check runs the real one; "-m venv"
# makes a stand-in environment (FAKE_VENV=ok) or, as Debian's python3 without
# python3-venv does, a half-made folder and a failure (FAKE_VENV=debian).
FAKE_PYTHON = f"""#!/bin/sh
if [ "$1" = -m ] && [ "$2" = venv ]; then
    for dir; do :; done
    mkdir -p "$dir/bin"
    cp "$FAKE_BIN/venv-python" "$dir/bin/python"
    cp "$FAKE_BIN/einhorn-table" "$dir/bin/einhorn-table"
    if [ "$FAKE_VENV" = debian ]; then
        echo "The virtual environment was not created successfully because ensurepip is not"
        echo "available.  On Debian/Ubuntu systems, you need to install the python3-venv"
        echo "package using the following command."
        exit 1
    fi
    exit 0
fi
exec {sys.executable} "$@"
"""

# The environment's python: pip "installs" (logged), or fails as it does offline.
VENV_PYTHON = """#!/bin/sh
if [ "$1" = -c ]; then exit 0; fi
echo "$*" >> "$FAKE_BIN/pip.log"
if [ "$FAKE_PIP" = offline ] && [ "$3" = install ] && [ "$5" != --upgrade ]; then
    echo "ERROR: Could not find a version that satisfies the requirement setuptools>=77"
    echo "note: This error originates from a subprocess, and is likely not a problem with pip."
    exit 1
fi
exit 0
"""

EINHORN_TABLE = """#!/bin/sh
echo "ran einhorn-table $*"
"""

# A Raspberry Pi's package tools, with nothing installed yet and no internet.
DPKG = "#!/bin/sh\nexit 1\n"
SUDO = '#!/bin/sh\nexec "$@"\n'
APT_GET = """#!/bin/sh
if [ "$1" = update ]; then
    echo "Err:1 http://archive.raspberrypi.com/debian bookworm InRelease"
    echo "  Temporary failure resolving 'archive.raspberrypi.com'"
    exit 0
fi
echo "E: Unable to locate package python3-picamera2"
exit 100
"""


def _script(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)


def _checkout(tmp_path: Path) -> Path:
    """The files ./start needs, as a fresh clone has them (no .venv yet)."""
    repo = tmp_path / "einhorn-table"
    (repo / "scripts").mkdir(parents=True)
    for name in ("start", "check", "pyproject.toml", "scripts/bootstrap.sh"):
        shutil.copy2(ROOT / name, repo / name)
    return repo


def _start(tmp_path: Path, *, venv: str = "ok", pip: str = "ok", pi: bool = False,
           args: tuple[str, ...] = ("--version",), service: str | None = None,
           table: bool = False) -> tuple[subprocess.CompletedProcess[str], Path, Path]:
    """``start --version`` (or ``args``) from a fresh checkout (with a ``table``.toml)
    with the stand-ins above; on a Pi whose packages are all installed where
    ``service`` is what systemctl says of the table's service."""
    repo = _checkout(tmp_path)
    if table:
        (repo / "table.toml").write_text("", encoding="utf-8")
    fake = tmp_path / "bin"
    fake.mkdir()
    _script(fake / "python3", FAKE_PYTHON)
    _script(fake / "venv-python", VENV_PYTHON)
    _script(fake / "einhorn-table", EINHORN_TABLE)
    env = {"PATH": f"{fake}:/usr/bin:/bin", "HOME": str(tmp_path), "FAKE_BIN": str(fake),
           "FAKE_VENV": venv, "FAKE_PIP": pip, "PYTHON": str(fake / "python3"),
           "EINHORN_DEVICE_MODEL": str(tmp_path / "model")}
    if pi or service:
        (tmp_path / "model").write_text("Raspberry Pi 5 Model B Rev 1.0\0")
        _script(fake / "dpkg", "#!/bin/sh\nexit 0\n" if service else DPKG)
        _script(fake / "sudo", SUDO)
        _script(fake / "apt-get", APT_GET)
    if service:
        _script(fake / "systemctl", f"#!/bin/sh\n[ \"$*\" = 'is-active --quiet "
                f"einhorn-table' ] && [ {service} = active ]\n")
    done = subprocess.run(["sh", str(repo / "start"), *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    return done, repo, fake


@needs_sh
def test_start_installs_and_runs_where_all_is_well(tmp_path: Path) -> None:
    """(The stand-ins work: a fresh checkout is installed once and the command runs.)"""
    done, repo, fake = _start(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ran einhorn-table --version" in done.stdout
    assert (repo / ".venv" / ".installed[charts]").is_file()
    assert f"-m pip install --quiet -e {repo}[charts]" in (fake / "pip.log").read_text()


@needs_sh
def test_start_offline_says_to_go_online_and_run_it_again(tmp_path: Path) -> None:
    """Offline, pip's last words were "note: This error originates from a subprocess,
    and is likely not a problem with pip.", and nothing said what to do."""
    done, repo, _ = _start(tmp_path, pip="offline")
    assert done.returncode == 1
    said = " ".join(done.stderr.split())
    assert "Could not install Einhorn Table's Python packages" in said
    assert f"check that this computer is online (Wi-Fi or cable), then run {repo}/start " \
        "again" in said
    assert "not a problem with pip" in done.stdout  # (pip's own lines are kept)
    assert not (repo / ".venv" / ".installed[charts]").exists()  # the next run tries again


@needs_sh
def test_a_pi_offline_says_so_instead_of_ending_on_apt_s_words(tmp_path: Path) -> None:
    """On a Pi the first run installs the camera and GPIO libraries with apt: offline,
    apt's "Unable to locate package" ended it, and nothing said why."""
    done, repo, _ = _start(tmp_path, pi=True)
    assert done.returncode == 1
    said = " ".join(done.stderr.split())
    assert "Could not install the Raspberry Pi OS packages python3-picamera2" in said
    assert "check that this computer is online" in said and f"run {repo}/start again" in said
    assert not (repo / ".venv").exists()  # stopped before the Python environment


@needs_sh
def test_a_python_without_its_venv_module_says_what_to_install_and_to_run_it_again(
    tmp_path: Path,
) -> None:
    done, repo, _ = _start(tmp_path, venv="debian")
    assert done.returncode == 1
    said = " ".join(done.stderr.split())
    assert "install it with: sudo apt install python3-venv" in said
    assert f"Then run {repo}/start again." in said
    assert not (repo / ".venv").exists()  # a half-made one would be taken as made


@needs_sh
def test_a_python_older_than_3_11_is_named_with_what_to_do(tmp_path: Path) -> None:
    repo = _checkout(tmp_path)
    old = tmp_path / "python3.9"
    _script(old, '#!/bin/sh\nif [ "$1" = -V ]; then echo "Python 3.9.2"; fi\nexit 1\n')
    env = {**os.environ, "PYTHON": str(old), "EINHORN_DEVICE_MODEL": str(tmp_path / "none")}
    done = subprocess.run(["sh", str(repo / "start")], env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert "needs Python 3.11 or newer, but" in done.stderr and "Python 3.9.2" in done.stderr
    assert not (repo / ".venv").exists()


@needs_sh
@pytest.mark.parametrize("state", ["active", "inactive"])
def test_start_on_the_pi_says_the_service_runs_the_table_instead_of_fighting_it(
    tmp_path: Path, state: str,
) -> None:
    """Plain ./start on the Pi runs the table of table.toml: while the service ran it
    (step 7), a second table started beside it, found the camera busy and the screen
    taken, and waited there saying "camera lost"."""
    done, repo, _ = _start(tmp_path, args=(), service=state, table=True)
    said = " ".join(done.stderr.split())
    if state == "active":
        assert done.returncode == 1 and "ran einhorn-table" not in done.stdout
        assert "The table's service is running the table already" in said
        assert f"sudo systemctl stop einhorn-table, then {repo}/start again" in said
        assert "journalctl -u einhorn-table -b" in said
    else:
        assert done.returncode == 0, said
        assert f"ran einhorn-table play {repo}/table.toml" in done.stdout


def _as_another_user(repo: Path, command: list[str], env: dict[str, str]
                     ) -> subprocess.CompletedProcess[str]:
    """``command`` run by a user who does not own ``repo`` (as root: as nobody)."""
    if os.geteuid() == 0:
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    else:
        repo.chmod(0o555)
    try:
        return subprocess.run(command, cwd="/", env=env, capture_output=True, text=True,
                              timeout=60, check=False)
    finally:
        repo.chmod(0o755)


needs_another_user = pytest.mark.skipif(
    os.name != "posix" or (os.geteuid() == 0 and shutil.which("setpriv") is None),
    reason="needs setpriv to run as another user")


@needs_sh
@needs_another_user
@pytest.mark.parametrize("made_by_sudo", ["the clone", "the .venv"])
def test_a_folder_made_with_sudo_says_how_to_make_it_yours(made_by_sudo: str) -> None:
    """install.md clones with sudo, then hands the folder over (chown). Without that
    step, or after a "sudo ./start", the next ./start failed in the middle of making
    or installing the environment with "Permission denied"."""
    import tempfile

    top = Path(tempfile.mkdtemp(prefix="einhorn-h7-"))
    try:
        top.chmod(0o755)
        repo = _checkout(top)
        python = top / "python3"
        _script(python, "#!/bin/sh\nexit 0\n")  # (3.11 or newer, and a working venv)
        if made_by_sudo == "the .venv":
            (repo / ".venv" / "bin").mkdir(parents=True)
            _script(repo / ".venv" / "bin" / "python", "#!/bin/sh\nexit 0\n")
            (repo / ".venv").chmod(0o755)
            if os.geteuid() == 0:
                shutil.chown(repo, "nobody")  # the clone is theirs, the .venv root's
        env = {"PATH": "/usr/bin:/bin", "PYTHON": str(python), "USER": "parent",
               "EINHORN_DEVICE_MODEL": str(top / "none")}
        done = _as_another_user(repo, ["sh", str(repo / "start"), "--version"], env)
        said = " ".join(done.stderr.split())
        assert done.returncode == 1, done.stdout + done.stderr
        folder = repo / ".venv" if made_by_sudo == "the .venv" else repo
        assert f"{folder} belongs to" in said and "so " in said
        assert f'sudo chown -R "$USER": {repo} then run {repo}/start again' in said
        assert "Making a Python environment" not in done.stdout
    finally:
        shutil.rmtree(top)


# ------------------------------------------------------------------ the install guide

INSTALL = ROOT / "docs" / "install.md"


def _row(text: str, starting: str) -> str:
    rows = [line for line in text.splitlines() if line.startswith(f"| {starting}")]
    assert len(rows) == 1, starting
    return rows[0]


def test_an_update_installs_the_service_s_file_again() -> None:
    """The update row pulled and restarted, but the service's file in /etc/systemd/system
    stayed the first one copied: an update that changed the unit never reached it."""
    row = _row(INSTALL.read_text(encoding="utf-8"), "update the companion")
    steps = ["git pull", "./start --version",
             "sudo cp systemd/einhorn-table.service /etc/systemd/system/",
             "sudo systemctl daemon-reload", "sudo systemctl restart einhorn-table"]
    places = [row.find(step) for step in steps]
    assert -1 not in places, row
    assert places == sorted(places), row  # in this order
    assert "cd /opt/einhorn-table" in row  # (the relative path is the clone's)


def test_the_guide_puts_the_installer_and_the_service_in_the_unit_s_groups() -> None:
    """The doctor, the smoke test and calibrate run as the parent before the service
    does: the guide says which groups that user needs, the ones the service's user has."""
    groups = directives(UNIT.read_text())["Service.SupplementaryGroups"][0].split()
    text = " ".join(INSTALL.read_text(encoding="utf-8").split())
    listed = ",".join(groups)
    assert f'sudo usermod -aG {listed} "$USER"' in text  # the parent, where needed
    assert f"sudo usermod -aG {listed} einhorn" in text  # the service's user


# ------------------------------------------------------------------ the service's watchdog


def test_the_watchdog_is_fed_by_the_match_after_a_long_wait_at_the_resume_prompt(
    tmp_path: Path,
) -> None:
    """At power-up after a long break the service asks whether to go on, and the table
    waits, maybe for hours, counting the prompt's frames for the watchdog (30 a second);
    then the match's camera counts its own frames from 0. The watchdog petted only once
    the camera's count passed the prompt's: systemd killed the table 20 s into the match
    ("Watchdog timeout"), and it started again asking the same question."""
    import socket

    from einhorn_table.adapters.clock import FakeClock
    from einhorn_table.adapters.systemd_notify import FrameWatchdog, SystemdNotifier

    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        seconds = int(directives(UNIT.read_text())["Service.WatchdogSec"][0])
        notifier = SystemdNotifier({"NOTIFY_SOCKET": str(path),
                                    "WATCHDOG_USEC": str(seconds * 1_000_000)})
        clock = FakeClock(100.0)
        dog = FrameWatchdog(notifier, clock)
        pets: list[float] = []

        def run(frames: int) -> None:
            for count in range(1, frames + 1):
                if dog.tick(count):
                    pets.append(clock.monotonic())
                clock.advance(1 / 30)
                while True:  # (drained, so that the socket's buffer never fills)
                    try:
                        sock.recv(64, socket.MSG_DONTWAIT)
                    except BlockingIOError:
                        break

        run(30 * 600)  # ten minutes at the prompt
        at_answer = clock.monotonic()
        run(30 * 60)  # the first minute of the match, the camera at 30 frames a second
    times = [*pets, clock.monotonic()]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert max(gaps) <= seconds / 2 + 0.1, gaps  # never near WatchdogSec
    assert len([t for t in pets if t > at_answer]) >= 5  # the match's frames feed it
