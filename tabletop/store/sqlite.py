"""The embedded backend: one SQLite file in WAL mode with synchronous=FULL, so a write is on disk
before the caller is told it happened. BEGIN IMMEDIATE makes writers, other processes too, wait
their turn; the schema version is the file's user_version.

A file that cannot be opened is a StateUnavailable naming the path and what to do; one that can
only be read is opened read-only, and every write is refused with a sentence.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path

from tabletop.core.config import rules_db_path, state_db_path
from tabletop.core.errors import UserError
from tabletop.core.i18n import Sentence, sentence, t
from tabletop.core.limits import time_left
from tabletop.store.base import STORE_WAIT, StateStore, StateUnavailable
from tabletop.store.faults import NotAFile, ParentIsAFile, cause, cause_of, is_damaged, logged
from tabletop.store.schema import migrations, render

log = logging.getLogger(__name__)

# Another process starting at the same moment may be migrating the file: wait for it this long.
MIGRATION_WAIT = 30.0


class SqliteState(StateStore):
    """A writing connection, serialised by a thread lock within the process (across processes
    SQLite's own write lock, BEGIN IMMEDIATE, keeps one writer at a time), and a reading one
    beside it, so that reads never wait on a write (WAL lets them see the last commit)."""

    dialect = "sqlite"

    def __init__(self, path: Path | str | None = None):
        super().__init__()
        self.path = str(path or state_db_path())
        self.target = self.path
        self.lock = threading.RLock()
        self.refusal = None
        self.stand_in = False
        try:
            self.conn = self._connect()
            self.identity = _identity(self.path)
            self.reader, self.read_lock = self._reader()
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
        if target.resolve() == rules_db_path().resolve():  # rebuilt from the YAML, its votes would go
            raise StateUnavailable(sentence("state.is_rules_db", path=self.path))
        if _foreign(target):  # read before anything is written: a refused file stays as it was
            raise StateUnavailable(sentence("state.not_ours", path=self.path))
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise ParentIsAFile(self.path) from None
        conn: sqlite3.Connection | None = None
        try:
            conn = self._configure(sqlite3.connect(self.path, check_same_thread=False, isolation_level=None))
            # another process may be writing or migrating at this moment: wait for it as migrating does
            conn.execute(f"pragma busy_timeout = {int(MIGRATION_WAIT * 1000)}")
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
            if not target.exists() or cause_of(exc) == "busy":  # held past the wait: not read-only
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
        conn.execute(f"pragma busy_timeout = {int(STORE_WAIT * 1000)}")
        # the write-ahead log is cut back to nothing at each checkpoint: a disk that filled up
        # and was freed is not filled again by a log that never shrinks
        conn.execute("pragma journal_size_limit = 0")
        return conn

    def _reader(self) -> tuple[sqlite3.Connection, threading.RLock]:
        """The reading connection and its lock: its own for a file it can write, else (memory,
        a read-only file) the one connection."""
        if self.identity is None or self.refusal:
            return self.conn, self.lock
        return self._configure(sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)), threading.RLock()

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
        """Each missing migration in its own transaction, the version read again under the write
        lock: a process starting at the same moment may have just done it."""
        scripts = migrations()
        with self.lock:
            current = self.version
            if current > len(scripts):
                raise StateUnavailable(sentence("state.too_new", path=self.path, version=current, ours=len(scripts)))
            if current < len(scripts) and self.refusal:
                raise StateUnavailable(sentence("state.needs_upgrade", path=self.path))
            self.conn.execute(f"pragma busy_timeout = {int(MIGRATION_WAIT * 1000)}")
            try:
                while self.version < len(scripts):
                    self.conn.execute("begin immediate")
                    try:
                        number = self.version
                        if number < len(scripts):
                            for statement in render(scripts[number], self.dialect):
                                self.conn.execute(statement)
                            self.conn.execute(f"pragma user_version = {number + 1}")
                        self.conn.execute("commit")
                    except BaseException:
                        self._roll_back()
                        raise
            finally:
                self.conn.execute(f"pragma busy_timeout = {int(STORE_WAIT * 1000)}")

    @contextmanager
    def _held(self, lock: threading.RLock):
        if not lock.acquire(timeout=time_left(STORE_WAIT)):
            raise UserError(t("state.busy"))
        try:
            yield
        finally:
            lock.release()

    @contextmanager
    def _read(self):
        own = self.reader is not self.conn  # a snapshot of its own for the whole block
        with self._held(self.read_lock):
            try:
                if own:
                    self.reader.execute("begin")
                try:
                    yield self.reader
                finally:
                    if own:
                        self.reader.execute("commit")
            except sqlite3.Error as exc:
                if not _is_fault(exc):
                    raise
                raise self._failed(exc) from None

    @contextmanager
    def _write(self, locks: tuple[str, ...]):
        # BEGIN IMMEDIATE takes the file's one write lock: every writer in every process waits
        # its turn, whatever it changes, so `locks` need nothing more here
        with self._held(self.lock):
            self._still_the_same_file()
            try:  # another process's write lock is waited for only as long as the request may
                self.conn.execute(f"pragma busy_timeout = {int(time_left(STORE_WAIT) * 1000)}")
                self.conn.execute("begin immediate")
            except sqlite3.OperationalError as exc:
                raise self._failed(exc) from None
            try:
                yield self.conn
                self.conn.execute("commit")
            except BaseException as exc:
                self._roll_back()
                if isinstance(exc, sqlite3.Error) and _is_fault(exc):
                    raise self._failed(exc) from None
                raise

    def _still_the_same_file(self) -> None:
        """A file deleted or replaced while the store runs would take writes nobody will read:
        refuse them, and say so."""
        if self.identity is not None and _identity(self.path) != self.identity:
            raise UserError(t("state.replaced", path=self.path))

    def _roll_back(self) -> None:
        if self.conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # the write failed; so may the undo
                self.conn.execute("rollback")

    def _failed(self, exc: sqlite3.Error) -> UserError:
        """A database error as the user's sentence: busy, or what failed (nothing was kept)."""
        reason = cause_of(exc)
        if reason == "busy":
            return UserError(t("state.busy"))
        logged(exc, self.path)
        if reason == "disk_full":  # give back what the log holds, if anything can be
            with contextlib.suppress(sqlite3.Error):
                self.conn.execute("pragma wal_checkpoint(truncate)")
        return UserError(t("state.failed", path=self.path, reason=cause(exc)))

    def close(self) -> None:
        with self.lock:
            if self.reader is not self.conn:
                self.reader.close()
            self.conn.close()


def _is_fault(exc: sqlite3.Error) -> bool:
    """The disk, the file or another process failed us (full, locked, read-only, damaged), as
    opposed to a broken constraint or bad SQL, which are our bugs and stay errors."""
    return isinstance(exc, sqlite3.OperationalError) or type(exc) is sqlite3.DatabaseError


def _identity(path: str) -> tuple[int, int] | None:
    """Which file the path names now (device, inode); None for memory or a path with no file."""
    if path == ":memory:":
        return None
    try:
        status = os.stat(path)
    except OSError:
        return (-1, -1)  # gone: never equal to the identity of a file that was there
    return (status.st_dev, status.st_ino)


def _foreign(target: Path) -> bool:
    """Whether the file is another program's SQLite database (a copy of rules.db): tables, and
    none of our migrations (the store numbers its schema in user_version from 1)."""
    if not target.is_file() or target.stat().st_size == 0:
        return False
    try:
        conn = sqlite3.connect(f"file:{target.resolve()}?mode=ro&immutable=1", uri=True)  # no -wal, no -shm
        try:
            version = conn.execute("pragma user_version").fetchone()[0]
            tables = conn.execute("select count(*) from sqlite_master where type = 'table'").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return False  # damaged, locked, not SQLite at all: opening it says which
    return version == 0 and tables > 0
