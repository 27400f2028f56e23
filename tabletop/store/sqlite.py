"""The embedded backend: one SQLite file in WAL mode with synchronous=FULL, so a write is on disk
before the caller is told it happened. BEGIN IMMEDIATE makes writers, other processes too, wait
their turn; the schema version is the file's user_version.

A file that cannot be opened is a StateUnavailable naming the path and what to do; one that can
only be read is opened read-only, and every write is refused with a sentence.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path

from tabletop.core.config import state_db_path
from tabletop.core.i18n import Sentence, sentence
from tabletop.store.base import StateStore, StateUnavailable
from tabletop.store.faults import NotAFile, ParentIsAFile, cause, is_damaged, logged
from tabletop.store.schema import migrations, render

log = logging.getLogger(__name__)


class SqliteState(StateStore):
    """One connection, serialised by a thread lock within the process; across processes SQLite's
    own write lock (BEGIN IMMEDIATE) keeps one writer at a time."""

    dialect = "sqlite"

    def __init__(self, path: Path | str | None = None):
        self.path = str(path or state_db_path())
        self.target = self.path
        self.lock = threading.RLock()
        self.refusal = None
        self.stand_in = False
        try:
            self.conn = self._connect()
            self.migrate()
        except (sqlite3.Error, OSError) as exc:  # a corrupt file reads as "not a database" here
            logged(exc, self.path)
            if is_damaged(exc):
                raise StateUnavailable(sentence("state.damaged", path=self.path)) from None
            raise StateUnavailable(sentence("state.unavailable", path=self.path, reason=cause(exc))) from None

    def _connect(self) -> sqlite3.Connection:
        if self.path == ":memory:":
            return self._configure(sqlite3.connect(self.path, check_same_thread=False, isolation_level=None))
        target = Path(self.path)
        if target.is_dir():
            raise IsADirectoryError(self.path)
        if target.exists() and not target.is_file():  # /dev/null, a pipe: SQLite would write beside it
            raise NotAFile(self.path)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise ParentIsAFile(self.path) from None
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
            self.refusal = sentence("state.read_only", path=self.path)
            log.warning("state database %s is read-only (%s): reads only", self.path, exc)
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
    def unavailable(cls, why: Sentence) -> SqliteState:
        """A stand-in when the real store cannot be opened: every write is refused with the
        message, and state commands that read (an agenda, the log) answer with it too; rules
        and dice need no state and keep answering."""
        state = cls(":memory:")
        state.refusal = why
        state.stand_in = True
        return state

    @property
    def version(self) -> int:
        return self.conn.execute("pragma user_version").fetchone()[0]

    def migrate(self) -> None:
        scripts = migrations()
        with self.lock:
            current = self.version
            if current > len(scripts):
                raise StateUnavailable(sentence("state.too_new", path=self.path, version=current, ours=len(scripts)))
            if current < len(scripts) and self.refusal:
                raise StateUnavailable(sentence("state.needs_upgrade", path=self.path))
            for number, script in enumerate(scripts[current:], start=current + 1):
                with self._write(()) as c:
                    for statement in render(script, self.dialect):
                        c.execute(statement)
                    c.execute(f"pragma user_version = {number}")

    @contextmanager
    def _read(self):
        with self.lock:
            yield self.conn

    @contextmanager
    def _write(self, locks: tuple[str, ...]):
        # BEGIN IMMEDIATE takes the file's one write lock: every writer in every process waits
        # its turn, whatever it changes, so `locks` need nothing more here
        with self.lock:
            self.conn.execute("begin immediate")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("rollback")
                raise
            else:
                self.conn.execute("commit")

    def close(self) -> None:
        with self.lock:
            self.conn.close()
