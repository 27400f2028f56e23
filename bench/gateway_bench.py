#!/usr/bin/env python3
"""Gateway benchmark: prints figures, asserts nothing.

  python bench/gateway_bench.py                (build the rules database once first: bot.py build)

The REAL bot process (`bot.py run`) against a fake Discord (bench/fake_discord.py: the gateway
websocket and the REST API on 127.0.0.1): every interaction goes in as a gateway event and its
answers come back as REST calls, through discord.py, the cogs, the worker pool and the core, as
on Discord. Measured: seconds from dispatching an interaction until the bot's first response
(its callback POST), which Discord wants within 3 s.

(a) light under heavy: four `/odds ground` 100 v 100 infantry (deferred; their final messages
    awaited), and meanwhile twenty `/rule 폭격` sent 50 ms apart; before them, the same twenty
    /rule with nothing else going on.
(b) a burst: 200 `/rule` a second for 10 s (exact titles and numbers: 79.1, 폭격, 80.1, 침공):
    p50, p99, max, how many were answered and how many after 3 s.

Both run twice in the same run: first the baseline, the bot computing its fights in its own
process (HEAVY_PROCESSES=0, as before the heavy-work processes), then the bot as it ships.
Targets (issue 57): /rule under heavy p50 < 50 ms, max < 500 ms; burst p99 < 100 ms, none
past 3 s.

The bot's stdout and stderr go to a log file whose path is printed, with the warnings and errors
it holds and the REST routes the bot called.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fake_discord import FakeDiscord, Sent, start_bot, stop_bot  # noqa: E402

HEAVY = 4
RULES = 20
GAP = 0.05  # seconds between /rule requests in (a)
RATE, BURST_SECONDS = 200, 10.0  # (b): interactions a second, for this long
DEADLINE = 3.0  # Discord drops an interaction not answered within 3 s
DRAIN = 15.0  # after the burst, how long the stragglers may take
QUERIES = ("79.1", "폭격", "80.1", "침공")
HEAVY_FIGHT = {"attacker": "100 infantry", "defender": "100 infantry"}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.0f} ms"


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def rules_paced(fake: FakeDiscord) -> list[float]:
    """Twenty /rule 폭격, 50 ms apart: each one's time to its first response."""
    begin = time.perf_counter()
    sent: list[Sent] = []
    for i in range(RULES):
        sent.append(await fake.send("rule", {"query": "폭격"}, user_id=100 + i))
        await asyncio.sleep(max(0.0, begin + (i + 1) * GAP - time.perf_counter()))
    return list(await asyncio.gather(*(asyncio.wait_for(s.first, 30) for s in sent)))


async def light_under_heavy(fake: FakeDiscord) -> float:
    print(f"(a) {RULES} x /rule 폭격 every {GAP * 1000:.0f} ms; with {HEAVY} x /odds ground 100 v 100 infantry running")
    quiet = await rules_paced(fake)
    show("baseline: /rule alone", quiet)
    heavy = [await fake.send("odds ground", HEAVY_FIGHT, user_id=200 + i) for i in range(HEAVY)]
    loaded = await rules_paced(fake)
    show(f"/rule with {HEAVY} heavy odds running", loaded)
    finals = await asyncio.gather(*(fake.until_final(s, 60) for s in heavy), return_exceptions=True)
    done = [f for f in finals if isinstance(f, float)]
    firsts = [s.first.result() for s in heavy if s.first.done()]
    print(
        f"    the {HEAVY} /odds: first response (thinking…) max {ms(max(firsts)).strip()}; "
        f"final message {', '.join(ms(f).strip() for f in sorted(done))}"
        + (f"; {len(finals) - len(done)} never came" if len(done) < len(finals) else "")
    )
    return statistics.median(quiet)


def show(name: str, samples: list[float]) -> None:
    print(f"    {name:<40} p50 {ms(statistics.median(samples))}   max {ms(max(samples))}")


async def burst(fake: FakeDiscord, quiet_p50: float) -> None:
    total = int(RATE * BURST_SECONDS)
    print(f"(b) burst: {RATE} /rule a second for {BURST_SECONDS:.0f} s ({total}), queries {', '.join(QUERIES)}")
    begin = time.perf_counter()
    sent: list[Sent] = []
    for i in range(total):
        sent.append(await fake.send("rule", {"query": QUERIES[i % len(QUERIES)]}, user_id=1000 + i % 97))
        await asyncio.sleep(max(0.0, begin + (i + 1) / RATE - time.perf_counter()))
    dispatched = time.perf_counter() - begin
    await asyncio.wait([s.first for s in sent], timeout=DRAIN)
    answered = [s for s in sent if s.first.done()]
    times = [s.first.result() for s in answered]
    late = sum(t > DEADLINE for t in times)
    refused = sum(s.ephemeral for s in answered)  # a public command answered privately: a refusal
    print(f"    dispatched {total} in {dispatched:.1f} s ({total / dispatched:.0f}/s)")
    print(f"    baseline: one /rule at a time             p50 {ms(quiet_p50)}")
    if times:
        print(
            f"    burst: first response                     p50 {ms(statistics.median(times))}   "
            f"p99 {ms(percentile(times, 0.99))}   max {ms(max(times))}"
        )
    print(
        f"    answered {len(answered)}/{total} within {DRAIN:.0f} s of the last; past {DEADLINE:.0f} s: {late}; "
        f"answered privately (a refusal): {refused}; never answered: {total - len(answered)}"
    )
    said = Counter((s.name + " " + str(QUERIES[i % len(QUERIES)]), s.heading) for i, s in enumerate(sent) if s.first.done())
    print("    what they said: " + "; ".join(f"{q} → {h!r} x{n}" for (q, h), n in sorted(said.items())))


def bot_log_summary(log: Path) -> None:
    """The log's warnings and errors, counted by their message with numbers blanked."""
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    faults: Counter[str] = Counter()
    for line in lines:
        found = re.search(r" (WARNING|ERROR|CRITICAL) (.*)", line)
        if found or line.startswith("Traceback"):
            faults[re.sub(r"\d+(\.\d+)?", "N", found.group(0) if found else line)[:160]] += 1
    print(f"bot log: {log} ({len(lines)} lines, {sum(faults.values())} warnings/errors)")
    for text, count in faults.most_common(8):
        print(f"    {count:5d} x{text}")


async def run(name: str, **settings: str) -> int:
    print(f"=== {name} ===")
    fake = FakeDiscord()
    port = await fake.start()
    folder = Path(tempfile.mkdtemp(prefix="gateway-bench-"))
    begin = time.perf_counter()
    proc, log = await start_bot(port, folder, **settings)
    print(f"fake Discord on 127.0.0.1:{port}; bot pid {proc.pid}, its output in {log}")
    try:
        ready = asyncio.create_task(fake.ready.wait())
        exited = asyncio.create_task(proc.wait())
        await asyncio.wait({ready, exited}, timeout=120, return_when=asyncio.FIRST_COMPLETED)
        if not fake.ready.is_set():
            print(f"the bot never identified (exit code {proc.returncode}); see {log}")
            return 1
        exited.cancel()
        # warm: the search model and the odds solver load on first use, not inside a figure
        await fake.interact("rule", {"query": "폭격"}, timeout=60)
        await fake.until_final(await fake.send("odds ground", HEAVY_FIGHT), 60)
        print(f"bot connected (gateway compress={fake.compression or 'none'}) and warm after {time.perf_counter() - begin:.1f} s")
        quiet_p50 = await light_under_heavy(fake)
        await burst(fake, quiet_p50)
    finally:
        code = await stop_bot(proc)
        await fake.stop()
    print(f"bot exit code after SIGTERM: {code}; whole run {time.perf_counter() - begin:.0f} s")
    print("REST routes the bot called: " + ", ".join(f"{k} x{v}" for k, v in sorted(fake.routes.items())))
    if fake.unknown:
        print("    of which answered with an empty 200: " + ", ".join(sorted(fake.unknown)))
    bot_log_summary(log)
    return 0


def main() -> int:
    baseline = asyncio.run(run("baseline: fights in the bot's own process", HEAVY_PROCESSES="0"))
    return baseline or asyncio.run(run("ours: fights in processes of their own"))


if __name__ == "__main__":
    sys.exit(main())
