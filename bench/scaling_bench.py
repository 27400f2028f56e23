#!/usr/bin/env python3
"""State store benchmark, both backends: prints figures, asserts nothing.

  python bench/scaling_bench.py

Starts a throwaway PostgreSQL server (Debian's, fsync on, on a Unix socket) and a SQLite file
beside it, then measures on each:
- a ballot's durable commit (p50 / p99), 1,000 ballots over 100 open agendas, against the
  backend's own baseline in the same run: a bare INSERT committed alone;
- ballots per second with 4 processes voting at once (the shape of several shards);
- interactions per second through the Discord adapter (the vote form's submit, as discord.py
  calls it), 400 submitted at once.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from postgres_server import Server  # noqa: E402

from tabletop import features  # noqa: E402
from tabletop.agenda.model import Player  # noqa: E402
from tabletop.agenda.store import AgendaStore  # noqa: E402
from tabletop.store import open_state  # noqa: E402

PROCESSES = 4
PER_PROCESS = 250
PLAYERS = [Player(f"p{i}", f"Player {i}") for i in range(8)]


def pct(samples, q):
    samples = sorted(samples)
    return samples[min(len(samples) - 1, int(len(samples) * q))]


def show(name, samples):
    print(f"{name:<52} p50 {statistics.median(samples):7.3f} ms   p99 {pct(samples, 0.99):7.3f} ms   n={len(samples)}")


def ballots(target: str) -> list[float]:
    store = AgendaStore(open_state(target))
    agendas = [
        store.start("guild", f"c{i}", PLAYERS[0], f"A{i}", [], "for-against", "law", PLAYERS[3], PLAYERS) for i in range(100)
    ]
    rng = random.Random(1)
    out = []
    for _ in range(1000):
        a = rng.choice(agendas)
        start = time.perf_counter()
        store.vote(a.id, rng.choice(PLAYERS), rng.choice(["가결", "부결"]), rng.randint(0, 12))
        out.append((time.perf_counter() - start) * 1000)
    store.state.close()
    return out


def bare_sqlite(path: Path) -> list[float]:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("pragma journal_mode = wal")
    conn.execute("pragma synchronous = full")
    conn.execute("create table t (a integer, b text, c integer)")
    out = []
    for i in range(1000):
        start = time.perf_counter()
        conn.execute("begin immediate")
        conn.execute("insert into t values (?, ?, ?)", (i, "가결", i))
        conn.execute("commit")
        out.append((time.perf_counter() - start) * 1000)
    return out


def bare_postgres(url: str) -> list[float]:
    import psycopg

    out = []
    with psycopg.connect(url) as conn:
        conn.execute("create table t (a integer, b text, c integer)")
        conn.commit()
        for i in range(1000):
            start = time.perf_counter()
            conn.execute("insert into t values (%s, %s, %s)", (i, "가결", i))
            conn.commit()
            out.append((time.perf_counter() - start) * 1000)
    return out


VOTER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from tabletop.agenda.model import Player
from tabletop.agenda.store import AgendaStore
from tabletop.store import open_state
store = AgendaStore(open_state(sys.argv[2]))
ids, me, count = [int(x) for x in sys.argv[3].split(",")], sys.argv[4], int(sys.argv[5])
while time.time() < float(sys.argv[6]):
    time.sleep(0.001)
for i in range(count):
    store.vote(ids[i % len(ids)], Player(f"{me}-{i % 8}", f"P{i % 8}"), "가결", 1 + i % 5)
"""


def parallel_ballots(target: str) -> float:
    store = AgendaStore(open_state(target))
    ids = [store.start("guild", f"par{i}", PLAYERS[0], f"P{i}", []).id for i in range(20)]
    go = time.time() + 2.0  # every process has opened its store by then
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", VOTER, str(ROOT), target, ",".join(map(str, ids)), f"w{n}", str(PER_PROCESS), str(go)]
        )
        for n in range(PROCESSES)
    ]
    for p in procs:
        p.wait()
    took = time.time() - go
    return PROCESSES * PER_PROCESS / took


async def interactions(target: str) -> tuple[float, int]:
    from discord_fakes import FakeBot, FakeInteraction, FakeUser, form_of, submit

    from cogs.commands import slash

    state = open_state(target)
    bot = FakeBot(state=state, compendium=None, user=FakeUser(999, "bot", bot=True))
    await slash("agenda start").callback(FakeInteraction(bot, channel_id=991), name="Bench")
    agenda_id = AgendaStore(state).current("42", "991").id

    # each player's form, opened by their press of the first outcome's button (not timed)
    forms = {
        uid: await form_of(bot, f"agenda:{agenda_id}:vote:0", FakeUser(uid, f"P{uid}"), votes=str(1 + uid % 5))
        for uid in range(400)
    }

    async def submitted(uid: int):  # as the gateway delivers it: the form's custom_id and values
        await submit(forms[uid], FakeInteraction(bot, user=FakeUser(uid, f"P{uid}"), channel_id=991))

    start = time.perf_counter()
    await asyncio.gather(*(submitted(uid) for uid in range(400)))
    took = time.perf_counter() - start
    recorded = len(AgendaStore(state).get(agenda_id).ballots)  # a vote turned away would not count
    state.close()
    return 400 / took, recorded


def main() -> int:
    features.load()
    folder = Path(tempfile.mkdtemp())
    server = Server().start(durable=True)
    try:
        targets = {"SQLite (WAL, synchronous=FULL)": str(folder / "state.db"), "PostgreSQL 15 (fsync on)": server.new_database()}
        for name, target in targets.items():
            print(f"--- {name}")
            show("ballot, durable commit (ours)", ballots(target))
            if target.startswith("postgresql"):
                show("baseline: bare INSERT, one commit each", bare_postgres(server.new_database()))
            else:
                show("baseline: bare INSERT, one commit each", bare_sqlite(folder / "bare.db"))
            print(f"{f'ballots/s, {PROCESSES} processes voting at once':<52} {parallel_ballots(target):7.0f}")
            per_second, recorded = asyncio.run(interactions(target))
            print(f"{'interactions/s through the Discord adapter (votes)':<52} {per_second:7.0f}   recorded {recorded} of 400")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
