"""The shared backend: PostgreSQL, for several bot processes (shards, a rolling deploy) serving
the same guilds. psycopg 3 with a connection pool; the SQL is the features' own, placeholders
translated. What changes one thing (an agenda, a channel) takes a transaction-scoped advisory
lock on its name, so two processes never interleave their read-then-write, and the schema's
unique constraints catch anything else. The schema version is a one-row table, upgraded under
an advisory lock so that processes starting together migrate once.

A server that cannot be reached, at start or later, is never fatal: the store says so in one
sentence (logged at start, answered to every state command), rules and dice keep working, and
the pool reconnects by itself when the server is back.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections.abc import Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import psycopg
import psycopg_pool

from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.store.base import StateStore, StateUnavailable
from tabletop.store.schema import migrations, render

log = logging.getLogger(__name__)

# Each process runs its commands in a small worker pool; one connection per worker, and a dozen
# processes at this size stay under PostgreSQL's default max_connections (100).
POOL_SIZE = int(os.environ.get("STATE_POOL_SIZE") or 8)
# libpq's own wait for a server at start: long enough for a server on another machine, short
# enough that a bot whose database is down starts answering rules promptly.
CONNECT_TIMEOUT = 5
# How long a command waits for a free connection before it is told the store is busy.
CHECKOUT_WAIT = 3.0
# After a failure, state commands are answered at once (without waiting on a dead server) for
# this long; then the next one tries again.
RETRY_EVERY = 10.0
_MIGRATION_LOCK = 7_470_400  # any constant: the advisory lock every process takes to migrate


def is_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def shown(url: str) -> str:
    """The URL with its password hidden, for messages and logs."""
    url = re.sub(r"(://[^:/@?]*):[^@/?]*@", r"\1:***@", url)
    return re.sub(r"(password=)[^&]*", r"\1***", url)


class Row(tuple):
    """A row that answers by position and by column name, as sqlite3.Row does."""

    names: dict[str, int]

    def __new__(cls, values: Sequence[Any], names: dict[str, int]) -> Row:
        row = super().__new__(cls, values)
        row.names = names
        return row

    def __getitem__(self, key):
        if isinstance(key, str):
            return tuple.__getitem__(self, self.names[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self.names)


def _rows(cursor):
    names = {column.name: i for i, column in enumerate(cursor.description or ())}
    return lambda values: Row(values, names)


@lru_cache(maxsize=512)
def _spelled(sql: str) -> str:
    """SQLite's `?` placeholders in psycopg's spelling (and a literal % kept literal)."""
    return sql.replace("%", "%%").replace("?", "%s")


class _Connection:
    """A psycopg connection that takes the features' SQL as written."""

    def __init__(self, conn: psycopg.Connection):
        self.conn = conn

    def execute(self, sql: str, params: tuple | list = ()):
        return self.conn.execute(_spelled(sql), tuple(params))


class PostgresState(StateStore):
    dialect = "postgresql"

    def __init__(self, url: str, pool_size: int = POOL_SIZE):
        self.url = url
        self.target = shown(url)
        self.refusal = ""
        self.stand_in = False
        self.problem = ""  # why the server cannot be used now; empty while it can
        self._failed_at = 0.0
        self._ready = False
        self._migrating = threading.Lock()
        try:
            psycopg.conninfo.conninfo_to_dict(url)
        except psycopg.ProgrammingError as exc:
            raise StateUnavailable(t("state.bad_url", url=self.target, reason=_first_line(exc))) from None
        self.pool = psycopg_pool.ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, pool_size),
            kwargs={"row_factory": _rows, "connect_timeout": CONNECT_TIMEOUT},
            open=False,
            name="state",
        )
        self.pool.open(wait=False)
        try:
            self._prepare()
        except UserError as exc:  # not fatal: said once here, and to every state command
            log.warning("%s", exc.message)

    # --- availability ------------------------------------------------------------------------

    def _unreachable(self, exc: BaseException) -> UserError:
        timed_out = isinstance(exc, psycopg_pool.PoolTimeout)
        reason = f"no connection within {CHECKOUT_WAIT:.0f} s" if timed_out else _first_line(exc)
        self.problem = t("state.server_unavailable", url=self.target, reason=reason)
        self._failed_at = time.monotonic()
        return UserError(self.problem)

    @contextmanager
    def _connection(self):
        if self.problem and time.monotonic() - self._failed_at < RETRY_EVERY:
            raise UserError(self.problem)
        try:
            with self.pool.connection(timeout=CHECKOUT_WAIT) as conn:
                yield conn
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as exc:
            raise self._unreachable(exc) from None
        self.problem = ""

    def _prepare(self) -> None:
        """Migrate once per process, on the first connection that works."""
        with self._migrating:
            if not self._ready:
                self.migrate()
                self._ready = True

    def migrate(self) -> None:
        scripts = migrations()
        with self._connection() as conn, conn.transaction():
            conn.execute("select pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute("create table if not exists schema_version (version integer not null)")
            row = conn.execute("select version from schema_version").fetchone()
            current = row[0] if row else 0
            if row is None:
                conn.execute("insert into schema_version values (0)")
            if current > len(scripts):
                raise StateUnavailable(t("state.too_new", path=self.target, version=current, ours=len(scripts)))
            for script in scripts[current:]:
                for statement in render(script, self.dialect):
                    conn.execute(statement)
            conn.execute("update schema_version set version = %s", (len(scripts),))

    @property
    def version(self) -> int:
        with self.read() as c:
            return c.execute("select version from schema_version").fetchone()[0]

    # --- reads and transactions --------------------------------------------------------------

    @contextmanager
    def _read(self):
        self._prepare()
        with self._connection() as conn, conn.transaction():
            conn.execute("set transaction isolation level repeatable read, read only")
            yield _Connection(conn)

    @contextmanager
    def _write(self, locks: tuple[str, ...]):
        self._prepare()
        with self._connection() as conn, conn.transaction():
            for lock in locks:
                conn.execute("select pg_advisory_xact_lock(hashtextextended(%s, 0))", (lock,))
            yield _Connection(conn)

    def close(self) -> None:
        self.pool.close()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
