"""sd_notify messages arrive on a socket the test opens; the watchdog pets only with frames."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.systemd_notify import FrameWatchdog, SystemdNotifier


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    try:
        yield sock, str(path)
    finally:
        sock.close()


def received(sock: socket.socket) -> list[str]:
    sock.setblocking(False)
    messages = []
    try:
        while True:
            messages.append(sock.recv(4096).decode())
    except BlockingIOError:
        pass
    finally:
        sock.settimeout(2)
    return messages


def test_ready_status_and_stopping_reach_the_socket(
    listener: tuple[socket.socket, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sock, path = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    notifier = SystemdNotifier()
    assert notifier.enabled
    assert notifier.ready("camera and screen are up")
    assert notifier.status("waiting for\nAna's roll")
    assert notifier.stopping()
    assert received(sock) == [
        "READY=1\nSTATUS=camera and screen are up",
        "STATUS=waiting for Ana's roll",
        "STOPPING=1",
    ]


def test_abstract_socket_names_start_with_at() -> None:
    name = f"einhorn-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        notifier = SystemdNotifier({"NOTIFY_SOCKET": "@" + name})
        assert notifier.watchdog()
        assert sock.recv(100) == b"WATCHDOG=1"


def test_without_notify_socket_nothing_is_sent() -> None:
    notifier = SystemdNotifier({})
    assert not notifier.enabled
    assert notifier.ready() is False
    assert notifier.watchdog_interval is None
    assert FrameWatchdog(notifier, FakeClock()).tick(100) is False


def test_a_vanished_socket_is_not_an_error(tmp_path: Path) -> None:
    notifier = SystemdNotifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.ready() is False


def test_watchdog_interval_is_half_of_watchdog_usec_for_this_process() -> None:
    env = {"NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "20000000"}
    assert SystemdNotifier(env).watchdog_interval == 10.0
    assert SystemdNotifier({**env, "WATCHDOG_PID": str(os.getpid())}).watchdog_interval == 10.0
    assert SystemdNotifier({**env, "WATCHDOG_PID": "1"}).watchdog_interval is None
    assert SystemdNotifier({**env, "WATCHDOG_USEC": "soon"}).watchdog_interval is None


def test_the_watchdog_is_fed_only_while_frames_arrive(
    listener: tuple[socket.socket, str],
) -> None:
    sock, path = listener
    clock = FakeClock(1000.0)
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"})
    dog = FrameWatchdog(notifier, clock)
    assert dog.interval == 2.0
    frames = 0
    log = []
    for _ in range(40):  # 4 seconds of frames at 10 a second: pets at 0 s and 2 s
        frames += 1
        log.append(dog.tick(frames))
        clock.advance(0.1)
    assert log.count(True) == 2 and log[0] and log[20]
    # The camera hangs at 4 s: the frames of 2-4 s still earn one pet, then the
    # count stands still and so do the pets, however long we wait.
    assert dog.tick(frames) is True
    for _ in range(50):
        assert dog.tick(frames) is False
        clock.advance(0.1)
    # Frames again: the next tick pets at once (it is long overdue).
    assert dog.tick(frames + 1)
    assert received(sock) == ["WATCHDOG=1"] * 4


def test_the_watchdog_is_fed_while_the_camera_is_told_lost(
    listener: tuple[socket.socket, str],
) -> None:
    """The tray told the camera lost (the players enter dice by hand): the loop running
    is the sign of life; once the camera is back, frames are again."""
    sock, path = listener
    clock = FakeClock(1000.0)
    dog = FrameWatchdog(SystemdNotifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"}),
                        clock)
    assert dog.tick(5)
    pets = []
    for _ in range(100):  # 10 s without a frame, the camera told lost: a pet each 2 s
        clock.advance(0.1)
        pets.append(dog.tick(5, camera_lost=True))
    assert pets.count(True) == 5
    clock.advance(2.0)
    assert dog.tick(5) is False  # not lost, and no new frame: no pet
    assert received(sock) == ["WATCHDOG=1"] * 6
