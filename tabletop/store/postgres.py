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

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import psycopg
import psycopg_pool

from tabletop.core.config import pool_size as pool_size_setting
from tabletop.core.errors import UserError
from tabletop.core.i18n import Sentence, sentence, t
from tabletop.core.limits import time_left
from tabletop.core.logs import add_secret
from tabletop.store.base import STORE_WAIT, StateStore, StateUnavailable
from tabletop.store.faults import cause, first_line, hide_passwords, logged, passwords_in, unambiguous
from tabletop.store.schema import migrations, render

log = logging.getLogger(__name__)

# libpq's own wait for a server at start: long enough for a server on another machine, short
# enough that a bot whose database is down starts answering rules promptly.
CONNECT_TIMEOUT = 5
# A command waits at most STORE_WAIT for a free connection, and at most that long for a lock
# another session holds (the server's lock_timeout); any one statement may take twice that.
CHECKOUT_WAIT = STORE_WAIT
STATEMENT_LIMIT = 2 * STORE_WAIT
# A session that leaves a transaction open this long (a process frozen mid-vote) is ended by the
# server, so its locks do not stall every other process.
IDLE_IN_TRANSACTION_LIMIT = 5.0
# TCP: a server that stops answering mid-command (a frozen network path) is given up after this
# long, not after the kernel's minutes of retransmissions.
TCP_USER_TIMEOUT = 2 * STORE_WAIT
# After a failure, state commands are answered at once (without waiting on a dead server) for
# this long, or until a connection succeeds again; then the next one tries again.
RETRY_EVERY = 1.0
# A server that has not answered a request this long after the request's own limit is frozen
# (or the path to it is): its connection is cut. Past the limit, so that the server's own
# statement_timeout, which says "busy", has its chance first.
FROZEN_GRACE = 0.2
# During an outage, a request asks the server directly whether it is back, for at most this
# long (libpq counts whole seconds), before the pool's own wait.
PROBE_WAIT = 1.0
# Migrating may wait for another process that is migrating, starting at the same moment.
MIGRATION_WAIT = 30.0
_MIGRATION_LOCK = 7_470_400  # any constant: the advisory lock every process takes to migrate


def is_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def shown(url: str) -> str:
    """The URL with its password hidden, for messages and logs."""
    return hide_passwords(url)


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

    def __init__(self, url: str, pool_size: int | None = None):
        super().__init__()
        for secret in passwords_in(url):  # as typed too: a message may quote the URL as given
            add_secret(secret)
        url = unambiguous(url)
        self.url = url
        self.target = shown(url)
        for secret in passwords_in(url):  # whatever a driver message quotes, no log line shows it
            add_secret(secret)
        self.refusal = None
        self.stand_in = False
        self.problem: Sentence | None = None  # why the server cannot be used now; None while it can
        self._failed_at = 0.0
        self._connect_failure: BaseException | None = None  # why the pool's last connect failed
        self._connect_failed_at = 0.0  # and when: a cause older than the wait that failed is stale
        self._ready = False
        self._migrating = threading.Lock()
        try:
            psycopg.conninfo.conninfo_to_dict(url)
        except psycopg.ProgrammingError as exc:
            log.warning("STATE_DB %s: %s", self.target, hide_passwords(first_line(exc)))
            raise StateUnavailable(sentence("state.bad_url", url=self.target)) from None
        self._pool_size = pool_size or pool_size_setting()  # STATE_POOL_SIZE: its reason is in core.config
        self._renewing = threading.Lock()
        self.pool = self._new_pool()
        try:
            # one direct try first: a server that is down or refuses says why at once, where the
            # pool would retry in silence for the whole checkout wait
            psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT).close()
            self._prepare()
        except psycopg.Error as exc:  # not fatal: logged once, said to every state command
            self._unreachable(exc)
        except UserError:
            pass
        except UnicodeError:  # a host name no resolver can spell (libpq read one from the URL's tail)
            self.pool.close()
            log.warning("STATE_DB %s: a host name that cannot be looked up", self.target)
            raise StateUnavailable(sentence("state.bad_url", url=self.target)) from None

    # --- availability ------------------------------------------------------------------------

    def _new_pool(self) -> psycopg_pool.ConnectionPool:
        """The connection pool, opened without waiting for its first connection."""
        pool: psycopg_pool.ConnectionPool = psycopg_pool.ConnectionPool(
            self.url,
            min_size=1,
            max_size=self._pool_size,
            kwargs={
                "row_factory": _rows,
                "connect_timeout": CONNECT_TIMEOUT,
                "keepalives": 1,
                "keepalives_idle": 5,
                "keepalives_interval": 1,
                "keepalives_count": 3,
                "tcp_user_timeout": int(TCP_USER_TIMEOUT * 1000),
            },
            configure=_bounded,
            connection_class=self._recording_connections(),
            # a connection idle through a server restart is found dead here and replaced, not
            # handed to a command that would fail on it
            check=_checked,
            open=False,
            name="state",
        )
        pool.open(wait=False)
        return pool

    def _back_yet(self) -> None:
        """During an outage, whether the server is back, asked directly: the pool retries on its
        own schedule (1, 2, 4, 8… s apart), so after a long outage its next try could come many
        seconds after the server accepts connections. When the server answers, the pool is
        replaced by a fresh one, which connects at once; the old one closes in the background."""
        if not self._renewing.acquire(blocking=False):
            return  # another request is asking already
        try:
            try:
                psycopg.connect(self.url, connect_timeout=max(1, int(time_left(PROBE_WAIT)))).close()
            except psycopg.Error as exc:
                self._connect_failure, self._connect_failed_at = exc, time.monotonic()
                return
            old, self.pool = self.pool, self._new_pool()
            threading.Thread(target=old.close, kwargs={"timeout": STATEMENT_LIMIT}, daemon=True).start()
        finally:
            self._renewing.release()

    def _recording_connections(self) -> type[psycopg.Connection[Any]]:
        """The pool's connections, remembering why the last connect failed: the pool's own
        timeout says only that no connection came, not why (wrong password, no database…)."""
        store = self

        class Recording(psycopg.Connection[Any]):
            @classmethod
            def connect(cls, *args: Any, **kwargs: Any) -> Any:
                try:
                    conn = super().connect(*args, **kwargs)
                except psycopg.Error as exc:
                    store._connect_failure, store._connect_failed_at = exc, time.monotonic()
                    raise
                store._connect_failure = None
                store.problem = None  # the server is back: the next command need not wait
                return conn

        return Recording

    def _unreachable(self, exc: BaseException, asked: float = 0.0) -> UserError:
        """The refusal, naming the current cause: the pool's last failed connect if it failed
        while this request waited, else what the wait itself met (a server back up while the
        pool still waits to retry is not 'unreachable')."""
        fresh = self._connect_failure is not None and self._connect_failed_at >= asked
        if isinstance(exc, psycopg_pool.PoolTimeout) and fresh and self._connect_failure is not None:
            exc = self._connect_failure
        said = sentence("state.server_unavailable", url=self.target, reason=cause(exc))
        if said != self.problem:  # once per outage and cause, not once per command
            logged(exc, self.target)
        self.problem = said
        self._failed_at = time.monotonic()
        return UserError(str(self.problem))

    @contextmanager
    def _connection(self):
        if self.problem and time.monotonic() - self._failed_at < RETRY_EVERY:
            raise UserError(str(self.problem))
        if self.problem and self._connect_failure is not None:
            # the pool could not connect and has not since: is the server back, whatever the
            # pool's schedule? (A pool merely busy, its server fine, is left alone.)
            self._back_yet()
        asked = time.monotonic()
        try:
            with self.pool.connection(timeout=max(time_left(CHECKOUT_WAIT), 0.001)) as conn, _cut_when_frozen(conn):
                yield conn
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as exc:
            raise self._unreachable(exc, asked) from None
        self.problem = None

    def _prepare(self) -> None:
        """Migrate once per process, on the first connection that works."""
        with self._migrating:
            if not self._ready:
                self.migrate()
                self._ready = True

    def migrate(self) -> None:
        scripts = migrations()
        with self._connection() as conn, conn.transaction():
            conn.execute(f"set local lock_timeout = '{int(MIGRATION_WAIT * 1000)}ms'")
            conn.execute(f"set local statement_timeout = '{int(MIGRATION_WAIT * 1000)}ms'")
            conn.execute("select pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute("create table if not exists schema_version (version integer not null)")
            row = conn.execute("select version from schema_version").fetchone()
            current = row[0] if row else 0
            if row is None:
                conn.execute("insert into schema_version values (0)")
            if current > len(scripts):
                raise StateUnavailable(sentence("state.too_new", path=self.target, version=current, ours=len(scripts)))
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
        with self._connection() as conn, _waits_bounded(), conn.transaction():
            conn.execute("set transaction isolation level repeatable read, read only")
            _within_the_request(conn)
            yield _Connection(conn)

    @contextmanager
    def _write(self, locks: tuple[str, ...]):
        """One transaction; its commit is the moment that decides: a connection lost before it
        changed nothing (said as "not recorded"), one lost during it may have changed everything
        (said as "unknown": the next read, or the request's own key, settles it)."""
        self._prepare()
        committing = False
        with self._connection() as conn:
            try:
                with _waits_bounded(), conn.transaction():
                    _within_the_request(conn)
                    for lock in locks:
                        conn.execute("select pg_advisory_xact_lock(hashtextextended(%s, 0))", (lock,))
                    yield _Connection(conn)
                    committing = True
            except psycopg.OperationalError:
                if committing:
                    log.warning("state store %s: connection lost during a commit: its outcome is unknown", self.target)
                    raise UserError(t("state.outcome_unknown")) from None
                raise

    def close(self) -> None:
        self.pool.close()


@contextmanager
def _cut_when_frozen(conn: psycopg.Connection[Any]):
    """The request's work on `conn`, cut off at its deadline if the server has not answered by
    then. The server's own limits (statement_timeout) end a slow statement; a server or a network
    path that is frozen (packets taken, nothing answered) ends none, and a read would wait for
    minutes: past the request's time, the socket is shut down, the wait fails at once, and the
    user is told in a sentence (before a commit: not recorded; during it: unknown)."""
    timer = threading.Timer(time_left(STATEMENT_LIMIT) + FROZEN_GRACE, _shut, (conn,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _shut(conn: psycopg.Connection[Any]) -> None:
    with contextlib.suppress(OSError, psycopg.Error):
        socket.socket(fileno=os.dup(conn.pgconn.socket)).shutdown(socket.SHUT_RDWR)  # the dup is closed with it


def _checked(conn: psycopg.Connection[Any]) -> None:
    """The pool's check of a connection before it is handed out, bounded like the request."""
    with _cut_when_frozen(conn):
        psycopg_pool.ConnectionPool.check_connection(conn)


def _bounded(conn: psycopg.Connection[Any]) -> None:
    """Every pooled session's limits on waiting, set once when it connects (a session-level SET
    rather than startup options, which connection poolers such as PgBouncer refuse)."""
    conn.execute(f"set lock_timeout = '{int(STORE_WAIT * 1000)}ms'")
    conn.execute(f"set statement_timeout = '{int(STATEMENT_LIMIT * 1000)}ms'")
    conn.execute(f"set idle_in_transaction_session_timeout = '{int(IDLE_IN_TRANSACTION_LIMIT * 1000)}ms'")
    conn.commit()


@contextmanager
def _waits_bounded():
    """A lock or a statement that ran out of its time is the store being busy, not down: the
    transaction was rolled back, and the user is told so."""
    try:
        yield
    except (psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled):
        raise UserError(t("state.busy")) from None


def _within_the_request(conn: psycopg.Connection[Any]) -> None:
    """A request close to its deadline waits, for a lock or a statement, only as long as it has
    left (the session's own limits hold otherwise, with no extra round trip)."""
    left = time_left(STATEMENT_LIMIT)
    if left >= STATEMENT_LIMIT:
        return
    if left <= 0:
        raise UserError(t("state.busy"))
    conn.execute(f"set local lock_timeout = '{max(1, int(min(left, STORE_WAIT) * 1000))}ms'")
    conn.execute(f"set local statement_timeout = '{max(1, int(left * 1000))}ms'")
