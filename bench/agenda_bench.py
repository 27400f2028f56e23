#!/usr/bin/env python3
"""Agenda benchmark: prints figures, asserts nothing.

  python bench/agenda_bench.py

Records 1,000 ballots across 100 open agendas, each committed durably (WAL, synchronous=FULL),
and renders an agenda message with 8 players. Baseline in the same run: one bare durable
INSERT per commit into a plain SQLite table, the floor any durable ballot pays.
Target: a ballot recorded in under 5 ms at p99, far inside Discord's 3-second deadline.
"""

from __future__ import annotations

import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabletop.agenda.model import Player  # noqa: E402
from tabletop.agenda.store import AgendaStore  # noqa: E402
from tabletop.agenda.view import agenda_reply  # noqa: E402
from tabletop.core.payloads import card_payload  # noqa: E402
from tabletop.store import open_state  # noqa: E402


def pct(samples, q):
    samples = sorted(samples)
    return samples[min(len(samples) - 1, int(len(samples) * q))]


def show(name, samples, target=None):
    p50, p99 = statistics.median(samples), pct(samples, 0.99)
    mark = "" if target is None else ("  ok" if p99 < target else f"  OVER {target} ms")
    print(f"{name:<40} p50 {p50:7.3f} ms   p99 {p99:7.3f} ms   n={len(samples)}{mark}")


def main() -> int:
    tmp = Path(tempfile.mkdtemp())
    store = AgendaStore(open_state(tmp / "state.db"))
    players = [Player(f"p{i}", f"Player {i}") for i in range(8)]
    agendas = [
        store.start("guild", f"channel-{i}", players[0], f"Agenda {i}", [], "for-against", "law", players[3], players)
        for i in range(100)
    ]
    rng = random.Random(1)
    ballots = []
    for _ in range(1000):
        a = rng.choice(agendas)
        start = time.perf_counter()
        store.vote(a.id, rng.choice(players), rng.choice(["가결", "부결"]), rng.randint(0, 12))
        ballots.append((time.perf_counter() - start) * 1000)
    show("ballot, durable commit (ours)", ballots, target=5)

    base = sqlite3.connect(tmp / "baseline.db", isolation_level=None)
    base.execute("pragma synchronous = full")
    base.execute("create table t (a integer, b text, c integer)")
    bare = []
    for i in range(1000):
        start = time.perf_counter()
        base.execute("begin immediate")
        base.execute("insert into t values (?, ?, ?)", (i, "가결", i))
        base.execute("commit")
        bare.append((time.perf_counter() - start) * 1000)
    show("baseline: bare durable insert (rollback journal)", bare)
    print(f"{'ratio (ours / baseline), p50':<40} {statistics.median(ballots) / statistics.median(bare):7.2f} x")

    busy = max(agendas, key=lambda a: len(store.get(a.id).ballots))
    renders = []
    for _ in range(200):
        start = time.perf_counter()
        card_payload(agenda_reply(store.get(busy.id)))
        renders.append((time.perf_counter() - start) * 1000)
    show("load + render an 8-player agenda message", renders, target=50)
    return 0


if __name__ == "__main__":
    sys.exit(main())
