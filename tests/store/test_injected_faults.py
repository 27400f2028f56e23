"""Faults injected into the state store, on both backends: a lock another session holds, a
server restart, a connection cut just as a commit is sent, a full database, a file deleted or
replaced while the store runs. Each time: the answer comes within the answer limit in one
sentence, no traceback; a ballot said to be recorded is committed, one said not to be is not,
and one whose fate is unknown is said to be unknown."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from said import said

from tabletop.agenda.model import Player
from tabletop.agenda.store import AgendaStore, agenda_lock
from tabletop.console import lines
from tabletop.console.app import run_line
from tabletop.console.printed import printed
from tabletop.core.commands import Context
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.limits import ANSWER_LIMIT
from tabletop.store import begin_request, open_state
from tabletop.store.base import STORE_SLOTS, STORE_WAIT

STARTER = Player("s", "Speaker")
ALICE, BOB = Player("a", "Alice"), Player("b", "Bob")


@pytest.fixture(autouse=True)
def _no_request():
    begin_request(None)
    yield
    begin_request(None)


def timed(fn, *args):
    """(what fn returned or raised, seconds it took)."""
    began = time.monotonic()
    try:
        outcome = fn(*args)
    except UserError as exc:
        outcome = exc
    return outcome, time.monotonic() - began


def ballots(store: AgendaStore, agenda_id: int) -> dict[str, int]:
    return {b.voter_name: b.votes for b in store.get(agenda_id).ballots}


# --- a lock held elsewhere ------------------------------------------------------------------


def _hold_the_lock(state_target: str, agenda_id: int):
    """Another session, holding what a vote on the agenda must take, until closed."""
    if state_target.startswith("postgresql"):
        conn = psycopg.connect(state_target)
        conn.execute("select pg_advisory_xact_lock(hashtextextended(%s, 0))", (agenda_lock(agenda_id),))
        return conn
    conn = sqlite3.connect(state_target, isolation_level=None)
    conn.execute("begin immediate")
    return conn


def test_a_vote_behind_a_held_lock_is_told_busy_in_time_and_not_recorded(state_target):
    store = AgendaStore(open_state(state_target))
    a = store.start("g", "c", STARTER, "X", [], "for-against")
    holder = _hold_the_lock(state_target, a.id)
    try:
        outcome, took = timed(store.vote, a.id, ALICE, "가결", 3)
        assert isinstance(outcome, UserError) and outcome.message == t("state.busy")
        assert took < ANSWER_LIMIT - 0.5  # time left to send the answer
        read, took = timed(store.get, a.id)  # reading never waits on a writer
        assert read.id == a.id and took < 0.5
    finally:
        holder.rollback()
        holder.close()
    assert ballots(store, a.id) == {}  # "not recorded" was the truth
    store.vote(a.id, ALICE, "가결", 3)  # and once the lock is gone, the vote goes through
    assert ballots(store, a.id) == {"Alice": 3}


async def test_rules_keep_answering_while_every_store_slot_is_stuck(compendium, state_target):
    """Through the front end's own worker pool: a dozen votes stuck behind a held lock never
    take the threads a rules answer needs (the store lets in a few and turns the rest away)."""
    import asyncio

    from cogs import workers

    state = open_state(state_target)
    store = AgendaStore(state)
    a = store.start("g", "c", STARTER, "X", [], "for-against")
    holder = _hold_the_lock(state_target, a.id)
    ctx = Context(compendium, state, user_id="me", user_name="me", guild_id="g", channel_id="c")
    try:
        votes = [asyncio.ensure_future(workers.call(store.vote, a.id, Player(str(i), f"P{i}"), "가결", 1)) for i in range(12)]
        await asyncio.sleep(0.05)
        began = time.monotonic()
        reply = await workers.call(run_line, ctx, "/rule 79.1")
        took = time.monotonic() - began
        told = await asyncio.gather(*votes, return_exceptions=True)
    finally:
        holder.rollback()
        holder.close()
    # it never queued behind the store: that alone would take STORE_WAIT
    assert "79.1" in "\n".join(printed(r) for r in reply) and took < STORE_WAIT, took
    assert all(isinstance(x, UserError) and x.message == t("state.busy") for x in told), told
    assert STORE_SLOTS < workers.WORKERS
    assert ballots(store, a.id) == {}


# --- SQLite: the disk and the file ----------------------------------------------------------


def test_a_full_database_is_a_sentence_and_keeps_nothing(tmp_path):
    state = open_state(tmp_path / "state.db")
    store = AgendaStore(state)
    a = store.start("g", "c", STARTER, "X", [], "for-against")
    pages = state.conn.execute("pragma page_count").fetchone()[0]
    state.conn.execute(f"pragma max_page_count = {pages}")  # no page more: SQLite's own "full"
    outcome, _ = timed(store.vote, a.id, ALICE, "가결", 2)
    padded = "x" * 50_000
    for i in range(20):  # a vote may fit in a free page: fill the file until one does not
        if isinstance(outcome, UserError):
            break
        outcome, _ = timed(store.vote, a.id, Player(f"p{i}", padded[: 5_000 + i]), "가결", 1)
    assert isinstance(outcome, UserError), "the database never filled up"
    assert t("state.cause.disk_full") in outcome.message and "Traceback" not in outcome.message
    recorded = ballots(store, a.id)
    state.conn.execute("pragma max_page_count = 1073741823")  # space again: votes work
    store.vote(a.id, BOB, "가결", 4)
    assert ballots(store, a.id) == {**recorded, "Bob": 4}


@pytest.mark.parametrize("fault", ["deleted", "replaced"])
def test_a_state_file_deleted_or_replaced_while_running_takes_no_vote(tmp_path, fault):
    path = tmp_path / "state.db"
    store = AgendaStore(open_state(path))
    a = store.start("g", "c", STARTER, "X", [], "for-against")
    store.vote(a.id, ALICE, "가결", 1)
    for leftover in tmp_path.glob("state.db*"):
        leftover.unlink()
    if fault == "replaced":
        AgendaStore(open_state(path))  # another process made a new, empty one
    outcome, _ = timed(store.vote, a.id, BOB, "가결", 5)
    assert isinstance(outcome, UserError) and outcome.message == t("state.replaced", path=str(path))


# --- PostgreSQL: the server and the network -------------------------------------------------


@pytest.mark.parametrize(("down_for", "pool_size"), [(0.0, 8), (15.0, 1), (15.0, 8)])
def test_votes_are_recorded_again_within_two_seconds_of_a_restart(pg_server, pg_url, down_for, pool_size, monkeypatch):
    """Whatever the outage's length and the pool's size: the pool's own reconnect backoff (1, 2,
    4, 8 s…) must not decide when the first vote after it is recorded."""
    monkeypatch.setenv("STATE_POOL_SIZE", str(pool_size))
    store = AgendaStore(open_state(pg_url))
    a = store.start("g", "c", STARTER, "X", [], "for-against")
    store.vote(a.id, ALICE, "가결", 1)
    tried = []
    outage = threading.Thread(target=pg_server.restart, args=(down_for,))
    outage.start()
    while outage.is_alive():  # players keep voting through the outage
        tried.append(timed(store.vote, a.id, ALICE, "가결", 1)[0])
        time.sleep(0.2)
    back = time.monotonic()
    told = []
    while time.monotonic() - back < 5:
        outcome, _ = timed(store.vote, a.id, ALICE, "가결", 2)
        if not isinstance(outcome, UserError):
            break
        told.append(outcome.message)
    assert time.monotonic() - back < 2.0, told
    assert ballots(store, a.id) == {"Alice": 2}


@contextmanager
def frozen(server):
    """The server's processes stopped (SIGSTOP): connections stay open and the kernel takes every
    packet, but nothing is answered, as with a frozen network path; started again after."""
    postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
    pids = [postmaster] + [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and _parent(p) == postmaster]
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)


def _parent(proc: Path) -> int | None:
    try:
        return int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def test_a_frozen_server_is_given_up_within_the_consoles_request_and_nothing_is_recorded(pg_server, pg_url):
    """The console gives a vote the bot's clock: against a server that answers nothing, the vote
    is refused in a sentence within it (not after the TCP timeouts' minutes) and not recorded."""
    store = AgendaStore(open_state(pg_url))
    a = store.start("g", "c", STARTER, "X", [], "for-against")
    store.vote(a.id, ALICE, "가결", 1)
    with frozen(pg_server), lines.command_clock("agenda vote"):
        outcome, took = timed(store.vote, a.id, ALICE, "가결", 3)
    assert isinstance(outcome, UserError) and took < ANSWER_LIMIT + 0.5, (outcome, took)
    assert said("state.server_unavailable", outcome.message) or said("state.busy", outcome.message)
    assert ballots(AgendaStore(open_state(pg_url)), a.id) == {"Alice": 1}  # read afresh: not recorded
    back = time.monotonic()
    while isinstance(timed(store.vote, a.id, ALICE, "가결", 2)[0], UserError) and time.monotonic() - back < 2:
        time.sleep(0.1)  # refused at once for a moment after a failure, then tried again
    assert ballots(store, a.id) == {"Alice": 2}  # and the store that met the freeze records again


class CutAtCommit:
    """A Unix-socket relay in front of the server that passes everything, until the client sends
    the COMMIT of a transaction that wrote a ballot: that is passed on, and then both sides are
    cut before the server's answer returns. The commit happened; the client cannot know it."""

    def __init__(self, server_socket: Path, folder: Path):
        self.server_socket = server_socket
        self.folder = folder
        self.listener = socket.socket(socket.AF_UNIX)
        self.listener.bind(str(folder / server_socket.name))
        self.listener.listen()
        self.cut = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.socket(socket.AF_UNIX)
            server.connect(str(self.server_socket))
            threading.Thread(target=self._pipe, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, False), daemon=True).start()

    def _pipe(self, source, target, from_client):
        wrote = False  # a ballot written since this session's last commit
        try:
            while data := source.recv(65536):
                if not from_client and self.cut.is_set():
                    return  # the server's answer to the commit never reaches the client
                wrote = wrote or b"INSERT INTO BALLOTS" in data.upper()
                if from_client and self.armed and wrote and b"COMMIT" in data.upper():
                    self.cut.set()
                    target.sendall(data)
                    time.sleep(0.3)  # the server commits meanwhile
                    for end in (source, target):
                        end.shutdown(socket.SHUT_RDWR)
                    return
                target.sendall(data)
        except OSError:
            pass

    armed = False

    def close(self):
        self.listener.close()


def test_a_connection_cut_during_the_commit_is_told_unknown_and_the_database_settles_it(pg_server, pg_url, tmp_path):
    relay = CutAtCommit(pg_server.socket / ".s.PGSQL.5432", tmp_path)
    url = pg_url.replace(f"host={pg_server.socket}", f"host={tmp_path}")
    try:
        store = AgendaStore(open_state(url))
        a = store.start("g", "c", STARTER, "X", [], "for-against")
        relay.armed = True
        outcome, took = timed(store.vote, a.id, ALICE, "가결", 3)
        relay.armed = False
        assert relay.cut.is_set()
        assert isinstance(outcome, UserError) and outcome.message == t("state.outcome_unknown"), outcome
        assert took < ANSWER_LIMIT
    finally:
        relay.close()
    direct = AgendaStore(open_state(pg_url))
    assert ballots(direct, a.id) == {"Alice": 3}  # it was committed: "not recorded" would have lied


def test_no_fault_reaches_a_screen_as_a_traceback(compendium, tmp_path, capfd):
    path = tmp_path / "state.db"
    state = open_state(path)
    ctx = Context(compendium, state, user_id="me", user_name="me", guild_id="g", channel_id="c")
    run_line(ctx, "/agenda start name:X")
    holder = _hold_the_lock(str(path), 1)
    try:
        busy = "\n".join(printed(r) for r in run_line(ctx, "/agenda vote outcome:가결 votes:2"))
    finally:
        holder.rollback()
        holder.close()
    os.unlink(path)
    gone = "\n".join(printed(r) for r in run_line(ctx, "/agenda vote outcome:가결 votes:2"))
    out, err = capfd.readouterr()
    assert t("state.busy") in busy and t("state.replaced", path=str(path)) in gone
    assert "Traceback" not in out + err + busy + gone and not said("error.unexpected", busy + gone)


@pytest.mark.parametrize(
    "told, cause",
    [
        ("SSL SYSCALL error: EOF detected", "lost"),
        ("SSL connection has been closed unexpectedly", "lost"),
        ("server does not support SSL, but SSL was required", "ssl"),
        ('FATAL:  password authentication failed for user "bot"', "auth"),
        ("database or disk is full", "disk_full"),
        # a restart: told as one, not "check the host name, the port and the network"
        ("connection failed: FATAL:  the database system is shutting down", "restarting"),
        ("connection failed: FATAL:  the database system is starting up", "restarting"),
        ("FATAL:  terminating connection due to administrator command", "restarting"),
    ],
)
def test_a_fault_is_named_by_what_the_driver_says(told, cause):
    from tabletop.store.faults import cause_of

    assert cause_of(RuntimeError(told)) == cause


def test_a_store_opened_while_another_process_writes_waits_and_is_writable(tmp_path):
    path = tmp_path / "state.db"
    open_state(path).close()
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("begin immediate")  # another process mid-write (or migrating) as this one starts
    releasing = threading.Timer(1.5, lambda: holder.execute("rollback"))
    releasing.start()
    try:
        state = open_state(path)
    finally:
        releasing.join()
        holder.close()
    assert state.refusal is None  # not taken for a read-only file
    AgendaStore(state).start("g", "c", STARTER, "X", [], "for-against")


def test_a_connect_failure_older_than_the_wait_is_not_the_cause_told(pg_url):
    """After the server is back, refusals while the pool waited to retry still said 'the server
    cannot be reached' (the last failed connect's cause): only a failure during this wait names it."""
    import time

    import psycopg
    import psycopg_pool

    from tabletop.store import open_state

    state = open_state(pg_url)
    try:
        state._connect_failure = psycopg.OperationalError("connection failed: Connection refused")
        state._connect_failed_at = time.monotonic() - 30  # an outage over half a minute ago
        stale = state._unreachable(psycopg_pool.PoolTimeout("couldn't get a connection after 1.00 sec"), time.monotonic())
        assert t("state.cause.timeout") in stale.message and t("state.cause.unreachable") not in stale.message
        state._connect_failed_at = time.monotonic()  # failed while this request waited: that is why
        fresh = state._unreachable(psycopg_pool.PoolTimeout("couldn't get a connection"), time.monotonic() - 1)
        assert t("state.cause.unreachable") in fresh.message
    finally:
        state.close()
