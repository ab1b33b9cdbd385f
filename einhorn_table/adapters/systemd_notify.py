"""Tell systemd how the companion is doing (the sd_notify protocol), with the standard library.

Under a ``Type=notify`` unit systemd sets ``NOTIFY_SOCKET``; each message is one
datagram of ``KEY=VALUE`` lines sent there (``READY=1``, ``STATUS=...``,
``WATCHDOG=1``, ``STOPPING=1``). A socket name starting with ``@`` is in the
abstract namespace (a NUL byte replaces the ``@``). Without ``NOTIFY_SOCKET``
(a desktop, a test) every call does nothing.

With ``WatchdogSec=`` systemd also sets ``WATCHDOG_USEC`` (and ``WATCHDOG_PID``)
and restarts the service if no ``WATCHDOG=1`` comes in that time.
:class:`FrameWatchdog` sends it only while camera frames keep arriving, so a
camera that hangs gets the companion restarted.

How the ``play`` command is meant to use it::

    notifier = SystemdNotifier()
    watchdog = FrameWatchdog(notifier, clock)
    with create_source(source_text, clock=clock) as source:
        screen.open()
        notifier.ready("camera and screen are up")
        while running:
            frame = source.read()
            ...
            watchdog.tick(source.frames_read)
        notifier.stopping()
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping

from einhorn_table.ports import Clock


class SystemdNotifier:
    """Sends sd_notify messages; a no-op when ``NOTIFY_SOCKET`` is not set."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self._address = _address(env.get("NOTIFY_SOCKET", ""))
        self._watchdog_usec = _watchdog_usec(env)

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a notify socket."""
        return self._address is not None

    @property
    def watchdog_interval(self) -> float | None:
        """How often to pet the watchdog: half of ``WATCHDOG_USEC``, in seconds; else None."""
        if self._watchdog_usec is None or not self.enabled:
            return None
        return self._watchdog_usec / 2 / 1_000_000

    def notify(self, *assignments: str) -> bool:
        """Send ``KEY=VALUE`` lines as one message; True if it was sent."""
        if self._address is None:
            return False
        message = "\n".join(assignments).encode("utf-8")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            try:
                sock.sendto(message, self._address)
            except OSError:
                return False  # systemd went away (shutting down): nothing to tell
        return True

    def ready(self, status: str | None = None) -> bool:
        """Start-up is done (camera and screen are up)."""
        return self.notify("READY=1", *([_status(status)] if status else []))

    def status(self, text: str) -> bool:
        """A one-line status that ``systemctl status einhorn-table`` shows."""
        return self.notify(_status(text))

    def watchdog(self) -> bool:
        """Pet the watchdog: the companion is alive."""
        return self.notify("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        """The companion is shutting down on purpose."""
        return self.notify("STOPPING=1", *([_status(status)] if status else []))


class FrameWatchdog:
    """Pets systemd's watchdog at half ``WATCHDOG_USEC``, but only if frames arrived since
    (or the camera is known lost: see :meth:`tick`).

    Call :meth:`tick` from the main loop with the count of frames read so far.
    """

    def __init__(
        self, notifier: SystemdNotifier, clock: Clock, interval: float | None = None
    ) -> None:
        self._notifier = notifier
        self._clock = clock
        self.interval = notifier.watchdog_interval if interval is None else interval
        self._last_pet: float | None = None
        self._frames_at_last_pet: int | None = None
        self.pets = 0

    def tick(self, frames_read: int, *, camera_lost: bool = False) -> bool:
        """Pet the watchdog if it is due and the frame count moved; True if it petted.

        The count may also start again from 0: play feeds the watchdog with the resume
        prompt's frames first, then with the camera's, which then lag far behind the
        prompt's count after a long wait for an answer (a count that only stands still
        is a camera that hangs).

        With ``camera_lost`` (the tray told the camera lost and is reopening it, while
        the players may enter their dice by hand) the main loop running is the sign of
        life: a restart would not bring the camera back and would stop their match."""
        if self.interval is None:
            return False
        now = self._clock.monotonic()
        if self._last_pet is not None and now - self._last_pet < self.interval:
            return False
        if not camera_lost and frames_read == self._frames_at_last_pet:
            return False
        if not self._notifier.watchdog():
            return False
        self._last_pet = now
        self._frames_at_last_pet = frames_read
        self.pets += 1
        return True


def _address(value: str) -> str | None:
    if not value or value[0] not in "@/":
        return None  # unset, or a form (vsock:...) this companion does not speak
    if value[0] == "@":
        return "\0" + value[1:]
    return value


def _watchdog_usec(env: Mapping[str, str]) -> int | None:
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = env.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None  # the watchdog is meant for another process
    return usec if usec > 0 else None


def _status(text: str) -> str:
    return "STATUS=" + " ".join(text.split())
