"""What every state backend offers the features: reads, transactions that serialise the
writers of one thing (an agenda, a channel) in the database itself, server settings and the
roll log. Features write portable SQL with `?` placeholders; a backend translates.

A request (a Discord interaction) may reach the bot twice, or reach two processes: each of its
transactions claims a row keyed by the request id and the transaction's number within it, in the
same transaction, so a repeat changes nothing and says so.
"""

from __future__ import annotations

import contextvars
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from tabletop.core.errors import UserError
from tabletop.core.i18n import Sentence, t
from tabletop.core.limits import ANSWER_LIMIT, time_left

log = logging.getLogger(__name__)

# Discord answers an interaction within 15 minutes at most: after a day a repeat cannot come.
REQUEST_MEMORY = timedelta(days=1)
# A store that cannot do its part in this long (a lock held elsewhere, no free connection) says
# so instead of waiting on; each wait is also cut short by the request's deadline (limits).
STORE_WAIT = ANSWER_LIMIT / 3
# Of the front end's worker threads (cogs.workers.WORKERS, 8), at most this many are in the
# store at once: the rest keep answering rules and dice through any state stall.
STORE_SLOTS = 5
# A command that finds every place taken waits this long for one: a vote takes a millisecond or
# two, so a burst of votes queues, while a stalled store turns the next ones away at once
# instead of tying up more threads.
SLOT_WAIT = 0.1


class StateUnavailable(Exception):
    """The state store cannot be opened: the sentence says where and what to do, in the
    language of whoever reads `message`."""

    def __init__(self, why: Sentence):
        super().__init__(why.key)
        self.why = why

    @property
    def message(self) -> str:
        return str(self.why)

    def __str__(self) -> str:
        return self.message


class Cursor(Protocol):
    rowcount: int

    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """The part of a DB-API connection the features use: rows answer by index and by name."""

    def execute(self, sql: str, params: tuple | list = ()) -> Cursor: ...


@dataclass
class Request:
    """One interaction being answered: its id, and how many transactions it has begun."""

    id: str
    transactions: int = 0

    def next_key(self) -> str:
        self.transactions += 1
        return f"{self.id}:{self.transactions}"


_request: contextvars.ContextVar[Request | None] = contextvars.ContextVar("state_request", default=None)


def begin_request(request_id: str | None) -> None:
    """Set by a front end for each interaction it answers (None: a console line, no repeats)."""
    _request.set(Request(str(request_id)) if request_id else None)


def now_text() -> str:
    """The time as the schema stores it: ISO, UTC, to the microsecond (sorts as it reads; finer
    than the schema's millisecond defaults, so that two writes in one millisecond keep order)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class StateStore:
    """The interface; `SqliteState` and `PostgresState` implement `_read` and `_write`."""

    dialect = ""
    target = ""  # the file path or URL (without its password), for messages
    refusal: Sentence | None = None  # why writes are refused (read-only), None when they are not
    stand_in = False  # no store behind it (it could not be opened): reads say so too

    def __init__(self) -> None:
        self._slots = threading.BoundedSemaphore(STORE_SLOTS)

    @property
    def read_only(self) -> bool:
        return bool(self.refusal)

    @contextmanager
    def _slot(self) -> Iterator[None]:
        """One of the store's few places: a command that finds them all taken for SLOT_WAIT is
        told the store is busy, rather than holding one more worker thread while it waits."""
        if not self._slots.acquire(timeout=time_left(SLOT_WAIT)):
            raise UserError(t("state.busy"))
        try:
            yield
        finally:
            self._slots.release()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection for reading; one consistent snapshot for its whole block."""
        with self._slot(), self._read() as conn:
            yield conn

    @contextmanager
    def transaction(self, lock: str | tuple[str, ...] | None = None) -> Iterator[Connection]:
        """One committed transaction. `lock` names what it changes ("agenda:7", or several):
        writers of the same thing wait for each other, in every process. Refused before anything
        happens when the store is read-only; a repeated request is refused with a sentence."""
        if self.refusal:
            raise UserError(str(self.refusal))
        request = _request.get()
        # several names are always taken in one order: two writers can never each hold a name the
        # other waits for
        locks = tuple(sorted({lock} if isinstance(lock, str) else set(lock or ())))
        with self._slot(), self._write(locks) as conn:
            if request is not None:
                self._claim(conn, request.next_key())
            yield conn

    def _claim(self, conn: Connection, key: str) -> None:
        claimed = conn.execute(
            "insert into handled_requests (id, at) values (?, ?) on conflict (id) do nothing returning id", (key, now_text())
        ).fetchone()
        if claimed is None:
            raise UserError(t("state.repeated_request"))
        forget = (datetime.now(UTC) - REQUEST_MEMORY).strftime("%Y-%m-%dT%H:%M:%S")
        conn.execute("delete from handled_requests where at < ?", (forget,))

    def _read(self):
        raise NotImplementedError

    def _write(self, locks: tuple[str, ...]):
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # --- settings and the roll log ----------------------------------------------------------

    def get_setting(self, guild_id: str, key: str, default: str | None = None, fallback: bool = False) -> str | None:
        """A server's setting, or the default when none is stored. A store that cannot answer
        raises (a vote or /settings must not act on a guess), unless `fallback`: a rules answer
        then takes the default and goes on."""
        try:
            with self.read() as c:
                row = c.execute("select value from settings where guild_id = ? and key = ?", (str(guild_id), key)).fetchone()
        except UserError as exc:
            if not fallback:
                raise
            log.debug("setting %s read as its default: %s", key, exc.message)
            return default
        return row[0] if row else default

    def set_setting(self, guild_id: str, key: str, value: str) -> None:
        self.set_settings(guild_id, {key: value})

    def set_settings(self, guild_id: str, values: dict[str, str]) -> None:
        """Several of a server's settings in one transaction: all of them are written, or none."""
        with self.transaction() as c:
            for key, value in values.items():
                c.execute(
                    "insert into settings (guild_id, key, value) values (?, ?, ?) "
                    "on conflict (guild_id, key) do update set value = excluded.value",
                    (str(guild_id), key, value),
                )

    def log_roll(self, guild_id: str, channel_id: str, user_id: str, command: str, seed: str, summary: str) -> int:
        with self.transaction() as c:
            row = c.execute(
                "insert into rolls (guild_id, channel_id, user_id, command, seed, summary) values (?, ?, ?, ?, ?, ?) returning id",
                (str(guild_id), str(channel_id), str(user_id), command, seed, summary[:2000]),
            ).fetchone()
            return int(row[0])

    def logged_roll(self, roll_id: int) -> str | None:
        """The command a logged roll ran (JSON), or None when there is no such roll."""
        with self.read() as c:
            row = c.execute("select command from rolls where id = ?", (roll_id,)).fetchone()
        return row[0] if row else None
