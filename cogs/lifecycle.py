"""The bot's life: interactions in flight, a graceful stop, and a heartbeat for health checks.

On SIGTERM or SIGINT (docker stop, Ctrl-C) the bot stops taking interactions (a new one gets a
short "restarting" note), lets those in flight finish for at most DRAIN_SECONDS, closes the
gateway and the databases, and exits 0. While connected it writes the time of each shard's last
gateway heartbeat to a file (`heartbeat_path`), which `python bot.py health` reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from pathlib import Path

from tabletop.core import config
from tabletop.core.config import state_db_path
from tabletop.core.paths import DATA_DIR
from tabletop.store import is_postgresql

log = logging.getLogger(__name__)

DRAIN_SECONDS = 5.0  # long enough for a reply to go out; short of docker stop's 10 s grace
HEARTBEAT_EVERY = 30.0  # seconds between heartbeat writes
HEARTBEAT_STALE = 120.0  # a heartbeat older than this means the gateway is not alive


def heartbeat_path() -> Path:
    """This process's heartbeat file: HEARTBEAT_FILE, else beside a state file, else in data/
    (a PostgreSQL store is shared; the heartbeat is the process's own)."""
    if config.setting("heartbeat_file"):
        return Path(str(config.setting("heartbeat_file")))
    if is_postgresql(config.state_db()):
        return DATA_DIR / "heartbeat"
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


def write_heartbeat(beats: dict[int, float], path: Path | None = None) -> None:
    """The time of each shard's last gateway heartbeat, as JSON {shard: time}."""
    target = path or heartbeat_path()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({str(k): round(v) for k, v in sorted(beats.items())}) + "\n", encoding="utf-8")
    except OSError:  # a read-only state directory: health will report the gateway as unknown
        log.debug("could not write the heartbeat to %s", target, exc_info=True)


def heartbeat_ages(path: Path | None = None) -> dict[int, float]:
    """Seconds since each shard's last heartbeat; empty when there is none."""
    try:
        beats = json.loads((path or heartbeat_path()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(beats, dict):
        return {}
    now = time.time()
    return {int(k): now - float(v) for k, v in beats.items() if str(k).isdigit() and isinstance(v, int | float)}
