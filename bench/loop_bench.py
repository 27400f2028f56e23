#!/usr/bin/env python3
"""Event-loop benchmark: prints figures, asserts nothing.

  python bench/loop_bench.py

Through the Discord adapter (the cogs, with the test suite's stand-in interactions): four heavy
`/odds ground` (100 v 100 infantry) start at once, and twenty `/rule 폭격` are sent 50 ms apart
meanwhile; each /rule's time from sending to its answer is measured. Baseline in the same run:
the same load with the core called on the event loop itself, as before the worker pool.
Target: every /rule answered within 500 ms.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from discord_fakes import FakeBot, FakeInteraction, FakeUser  # noqa: E402

from cogs import workers  # noqa: E402
from cogs.commands import slash  # noqa: E402
from tabletop import features  # noqa: E402
from tabletop.rules.compendium import Compendium  # noqa: E402
from tabletop.store import open_state  # noqa: E402

HEAVY = 4
RULES = 20
GAP = 0.05  # seconds between /rule requests


async def load(bot) -> tuple[list[float], float]:

    async def odds():
        inter = FakeInteraction(bot)
        await slash("odds ground").callback(inter, attacker="100 infantry", defender="100 infantry")

    async def rule(sent: float):
        inter = FakeInteraction(bot, user=FakeUser(7, "Bob"))
        await slash("rule").callback(inter, query="폭격")
        assert inter.log and "폭격" in str(inter.log[0].embed.title), inter.log
        return (time.perf_counter() - sent) * 1000

    begin = time.perf_counter()
    heavy = [asyncio.create_task(odds()) for _ in range(HEAVY)]
    waits = []
    for i in range(RULES):
        # measured from when the user sent it (its place in the schedule), not from when the
        # loop got round to it: a blocked loop delays both
        waits.append(asyncio.create_task(rule(begin + i * GAP)))
        await asyncio.sleep(max(0.0, begin + (i + 1) * GAP - time.perf_counter()))
    answered = await asyncio.gather(*waits)
    await asyncio.gather(*heavy)
    return answered, time.perf_counter() - begin


async def inline(fn, *args, heavy=False, limit=None, **kwargs):
    return fn(*args, **kwargs)  # the core on the event loop itself


def show(name, samples, total):
    print(f"{name:<44} p50 {statistics.median(samples):7.0f} ms   max {max(samples):7.0f} ms   whole run {total:5.1f} s")


def main() -> int:
    features.load()
    compendium = Compendium.open()
    state = open_state(Path(tempfile.mkdtemp()) / "state.db")
    bot = FakeBot(compendium=compendium, state=state, user=FakeUser(999, "bot", bot=True))
    compendium.search.search("폭격", "ti4")  # the model and index loaded before timing
    print(f"{HEAVY} x /odds ground 100 v 100 infantry, {RULES} x /rule 폭격 every {GAP * 1000:.0f} ms; target: max < 500 ms")
    show("/rule with the worker pool (ours)", *asyncio.run(load(bot)))
    workers.call = inline  # type: ignore[assignment]
    show("baseline: /rule with the core on the loop", *asyncio.run(load(bot)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
