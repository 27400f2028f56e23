"""The state database: live data (server settings, agenda votes, roll logs) that must survive
restarts and crashes. Separate from the disposable rules database; no rebuild touches it.

SQLite in WAL mode with synchronous=FULL: a write is on disk before the caller is told it
happened. The schema is versioned (PRAGMA user_version) and upgraded by numbered migrations.

Faults are answered, never raised as tracebacks: a database that cannot be opened at all is a
StateUnavailable with a message naming the path and what to do; one that can only be read is
opened read-only, and every write is refused with a message (a ballot is never acknowledged).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path

from tabletop.errors import UserError
from tabletop.frontend.i18n import t
from tabletop.paths import state_db_path

log = logging.getLogger(__name__)


class StateUnavailable(Exception):
    """The state database cannot be opened: the message says where and what to do."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


MIGRATIONS: list[str] = [
    # 1: server settings
    """
    create table settings (
        guild_id text not null,
        key text not null,
        value text not null,
        primary key (guild_id, key)
    );
    """,
    # 2: agenda votes (glossary 62-63)
    """
    create table agendas (
        id integer primary key autoincrement,
        guild_id text not null,
        channel_id text not null,
        message_id text,
        name text not null,
        outcome_type text not null,
        card_kind text,
        outcomes text not null,          -- JSON list of outcome names
        speaker text,                    -- display name of the speaker
        speaker_id text,
        players text not null,           -- JSON list of {id, name} in voting order
        starter_id text not null,
        starter_name text not null,
        status text not null default 'open',   -- open | closed | cancelled
        result text,                     -- JSON of the resolution when closed
        created_at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        closed_at text
    );
    create index agendas_open on agendas (status, guild_id, channel_id);
    create table ballots (
        agenda_id integer not null references agendas(id),
        voter_id text not null,
        voter_name text not null,
        outcome text,                    -- null: abstained
        votes integer not null,
        cast_at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        primary key (agenda_id, voter_id)
    );
    create table predictions (
        agenda_id integer not null references agendas(id),
        player_id text not null,
        player_name text not null,
        outcome text not null,
        made_at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        primary key (agenda_id, player_id)
    );
    create table agenda_log (
        id integer primary key autoincrement,
        agenda_id integer not null references agendas(id),
        actor_id text not null,
        actor_name text not null,
        action text not null,            -- start | vote | abstain | predict | close | cancel
        detail text not null default '',
        at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    create index agenda_log_agenda on agenda_log (agenda_id);
    """,
    # 3: dice and combat roll log, so a result can be checked later by its seed
    """
    create table rolls (
        id integer primary key autoincrement,
        guild_id text not null,
        channel_id text not null,
        user_id text not null,
        command text not null,
        seed text not null,
        summary text not null,
        at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    );
    """,
    # 4: an agenda message keeps the language it was started in, whoever clicks later
    """
    alter table agendas add column locale text not null default 'ko';
    """,
    # 5: secret ballots: each ballot shown only to its voter until the agenda closes
    """
    alter table agendas add column secret integer not null default 0;
    """,
    # 6: the when and after windows (passes, cards played) and the agenda phase as a whole
    """
alter table agendas add column windows integer not null default 0;
alter table agendas add column phase_id integer;
create table agenda_passes (
    agenda_id integer not null references agendas(id),
    stage text not null,             -- the window: when | after
    player_id text not null,
    player_name text not null,
    lasting integer not null default 0,
    primary key (agenda_id, stage, player_id)
);
create table agenda_plays (
    id integer primary key autoincrement,
    agenda_id integer not null references agendas(id),
    stage text not null,
    player_id text not null,
    player_name text not null,
    card text not null,
    at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
create table agenda_phases (
    id integer primary key autoincrement,
    guild_id text not null,
    channel_id text not null,
    players text not null,           -- JSON list of {id, name} as given
    speaker text,                    -- JSON {id, name}
    windows integer not null default 0,
    names text not null,             -- JSON [first agenda's name, second's]
    step integer not null default 1, -- the agenda now open (1, 2), or 3 once the phase is over
    created_at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
    """,
]


class StateDB:
    """One connection, serialised by a lock; every write is its own committed transaction."""

    def __init__(self, path: Path | str | None = None, locale="ko"):
        self.path = str(path or state_db_path())
        self.locale = locale
        self.lock = threading.RLock()
        self.refusal = ""  # why writes are refused (read-only), empty when they are not
        self.stand_in = False  # True: no database behind it (it could not be opened): reads say so too
        try:
            self.conn = self._connect()
            self.migrate()
        except (sqlite3.Error, OSError) as exc:  # a corrupt file reads as "not a database" here
            raise StateUnavailable(t("state.unavailable", locale, path=self.path, reason=_reason(exc))) from None

    def _connect(self) -> sqlite3.Connection:
        if self.path == ":memory:":
            return self._configure(sqlite3.connect(self.path, check_same_thread=False, isolation_level=None))
        target = Path(self.path)
        if target.is_dir():
            raise IsADirectoryError(self.path)
        if target.exists() and not target.is_file():  # /dev/null, a pipe: SQLite would write beside it
            raise _NotAFile(self.path)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise _ParentIsAFile(self.path) from None
        conn: sqlite3.Connection | None = None
        try:
            conn = self._configure(sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30))
            # A file that is read-only, or another user's, in a writable folder opens without a
            # word (SQLite falls back to reading): only a write shows it. Write the header's
            # version as it is, and roll back: nothing changes.
            version = conn.execute("pragma user_version").fetchone()[0]
            conn.execute("begin immediate")
            try:
                conn.execute(f"pragma user_version = {int(version)}")
            finally:
                conn.execute("rollback")
            return conn
        except (sqlite3.OperationalError, PermissionError) as exc:
            if conn is not None:
                conn.close()
            if not target.exists():
                raise
            # the file is there but cannot be written: read what it holds, refuse changes
            self.refusal = t("state.read_only", self.locale, path=self.path)
            log.warning("state database %s is read-only (%s): reads only", self.path, _reason(exc))
            uri = f"file:{target.resolve()}?mode=ro"
            try:
                conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
                conn.execute("select count(*) from sqlite_master").fetchone()
            except sqlite3.Error:
                conn = sqlite3.connect(uri + "&immutable=1", uri=True, check_same_thread=False, isolation_level=None)
            conn.row_factory = sqlite3.Row
            return conn

    @staticmethod
    def _configure(conn: sqlite3.Connection) -> sqlite3.Connection:
        conn.row_factory = sqlite3.Row
        conn.execute("pragma journal_mode = wal")
        conn.execute("pragma synchronous = full")
        conn.execute("pragma foreign_keys = on")
        conn.execute("pragma busy_timeout = 30000")
        return conn

    @classmethod
    def unavailable(cls, message: str, locale="ko") -> StateDB:
        """A stand-in when the real database cannot be opened: every write is refused with the
        message, and state commands that read (an agenda, the log) answer with it too; rules
        and dice need no state and keep answering."""
        state = cls(":memory:", locale)
        state.refusal = message
        state.stand_in = True
        return state

    @property
    def read_only(self) -> bool:
        return bool(self.refusal)

    @property
    def version(self) -> int:
        return self.conn.execute("pragma user_version").fetchone()[0]

    def migrate(self) -> None:
        with self.lock:
            current = self.version
            if current > len(MIGRATIONS):
                raise StateUnavailable(t("state.too_new", self.locale, path=self.path, version=current, ours=len(MIGRATIONS)))
            if current < len(MIGRATIONS) and self.refusal:
                raise StateUnavailable(t("state.needs_upgrade", self.locale, path=self.path))
            for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
                with self.transaction() as c:
                    for statement in script.split(";"):
                        if statement.strip():
                            c.execute(statement)
                    c.execute(f"pragma user_version = {number}")

    @contextmanager
    def transaction(self):
        """BEGIN IMMEDIATE … COMMIT: concurrent writers (other processes too) wait their turn.
        A read-only database refuses here, before anything is acknowledged."""
        if self.refusal:
            raise UserError(self.refusal)
        with self.lock:
            self.conn.execute("begin immediate")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("rollback")
                raise
            else:
                self.conn.execute("commit")

    # --- settings --------------------------------------------------------------------------

    def get_setting(self, guild_id: str, key: str, default: str | None = None) -> str | None:
        with self.lock:
            row = self.conn.execute("select value from settings where guild_id = ? and key = ?", (str(guild_id), key)).fetchone()
        return row[0] if row else default

    def set_setting(self, guild_id: str, key: str, value: str) -> None:
        with self.transaction() as c:
            c.execute(
                "insert into settings (guild_id, key, value) values (?, ?, ?) "
                "on conflict (guild_id, key) do update set value = excluded.value",
                (str(guild_id), key, value),
            )

    def log_roll(self, guild_id: str, channel_id: str, user_id: str, command: str, seed: str, summary: str) -> int:
        with self.transaction() as c:
            cur = c.execute(
                "insert into rolls (guild_id, channel_id, user_id, command, seed, summary) values (?, ?, ?, ?, ?, ?)",
                (str(guild_id), str(channel_id), str(user_id), command, seed, summary[:2000]),
            )
            return cur.lastrowid

    def close(self) -> None:
        with self.lock:
            self.conn.close()


class _NotAFile(OSError):
    """The path names something that is not a regular file (/dev/null)."""


class _ParentIsAFile(OSError):
    """A folder on the way to the path is a file."""


def _reason(exc: BaseException) -> str:
    if isinstance(exc, IsADirectoryError):
        return "is a directory"
    if isinstance(exc, _NotAFile):
        return "is not a regular file"
    if isinstance(exc, _ParentIsAFile):
        return "a folder on the way to it is a file"
    if isinstance(exc, sqlite3.DatabaseError) and "not a database" in str(exc):
        return "not a state database (damaged, or another kind of file)"
    if isinstance(exc, PermissionError):
        return "permission denied"
    return str(exc) or type(exc).__name__
