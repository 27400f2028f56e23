"""The bot's life: interactions in flight, a graceful stop, and a heartbeat for health checks.

On SIGTERM or SIGINT (docker stop, Ctrl-C) the bot stops taking interactions (a new one gets a
short "restarting" note), lets those in flight finish for at most DRAIN_SECONDS, closes the
gateway and the databases, and exits 0. While connected it writes the time of the last gateway
heartbeat to a file beside the state database, which `python bot.py health` reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path

from tabletop.paths import state_db_path

log = logging.getLogger(__name__)

DRAIN_SECONDS = 5.0  # long enough for a reply to go out; short of docker stop's 10 s grace
HEARTBEAT_EVERY = 30.0  # seconds between heartbeat writes
HEARTBEAT_STALE = 120.0  # a heartbeat older than this means the gateway is not alive


def heartbeat_path() -> Path:
    return state_db_path().with_name("heartbeat")


class Lifecycle:
    """Interactions in flight and whether the bot is stopping."""

    def __init__(self) -> None:
        self.stopping = False
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def begin(self) -> None:
        self.in_flight += 1
        self._idle.clear()

    def end(self) -> None:
        self.in_flight = max(0, self.in_flight - 1)
        if self.in_flight == 0:
            self._idle.set()

    @contextlib.asynccontextmanager
    async def track(self):
        self.begin()
        try:
            yield
        finally:
            self.end()

    async def drain(self, timeout: float = DRAIN_SECONDS) -> bool:
        """Wait until nothing is in flight (True), or until the timeout (False)."""
        self.stopping = True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
            return True
        except TimeoutError:
            log.warning("stopping with %d interaction(s) still in flight", self.in_flight)
            return False


def write_heartbeat(path: Path | None = None) -> None:
    target = path or heartbeat_path()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"{time.time():.0f}\n", encoding="utf-8")
    except OSError:  # a read-only state directory: health will report the gateway as unknown
        log.debug("could not write the heartbeat to %s", target, exc_info=True)


def heartbeat_age(path: Path | None = None) -> float | None:
    """Seconds since the last heartbeat, or None when there is none."""
    try:
        return time.time() - float((path or heartbeat_path()).read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return None
